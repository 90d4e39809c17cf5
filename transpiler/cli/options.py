"""Command-line conventions of ``mlir-opt``: single-dash long options, optional values, grouped help.

* ``-split-input-file`` is ``--split-input-file`` (LLVM's ``cl`` accepts both; most lit ``RUN:``
  lines use one dash).  Only names of this command's long options are rewritten, so ``-o`` and
  ``-`` (stdin) keep their meaning, and nothing after ``--`` is touched.
* ``-o=out`` is ``-o out`` (LLVM's reading; click would take ``=out`` as the value).
* A short option that has a long name (``-o``) is passed to click under the long name
  (``--output``): click tries every single-dash word as a long option first, and the failed
  try builds a "no such option" error with spelling suggestions (importing ``difflib`` and
  the translation catalogues) on every run.
* An option with an *implicit value* (``--split-input-file[=<marker>]``) takes a value only
  after ``=``, as ``cl::ValueOptional`` does: ``--split-input-file FILE`` leaves ``FILE`` the
  input.
* ``--help`` lists the options by group, like ``mlir-opt --help`` (:mod:`.help`).
* A usage error is one line on stderr in the command's diagnostic format (a diagnostic without
  a place in the input: the tool's name where ``file:line:col`` would be), with the hint
  ``mlir-opt`` gives, and exit 2 (:func:`usage_message`)::

      ttd-sim: error: no such option '--bogus' (did you mean '--out'?). Try 'ttd-sim --help'
      ttd-lower: error: --stop-after: 'nope' is not one of 'ttir', 'ttadapter'. Try 'ttd-lower --help'

New options join a group with ``@option(..., group=LOWERING)`` (:func:`option`).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

import click

from .help import GENERAL, render_help, usage_line

_SINGLE_DASH = re.compile(r"^-([A-Za-z][\w-]+)(=.*)?$", re.S)


class GroupedOption(click.Option):
    """A click option with a help ``group``, an optional ``implicit_value`` (the value it takes
    when written without ``=``) and the ``value_name`` shown in help (``<dir>``)."""

    def __init__(self, *args, group: str = GENERAL, implicit_value: Optional[str] = None,
                 value_name: Optional[str] = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group
        self.implicit_value = implicit_value
        self.value_name = value_name


def option(*param_decls: str, group: str = GENERAL, **kwargs):
    """``click.option`` for :class:`GroupedCommand`: the option is listed under ``group``."""
    return click.option(*param_decls, cls=GroupedOption, group=group, **kwargs)


class GroupedCommand(click.Command):
    """A click command that reads ``mlir-opt``-style arguments, prints ``mlir-opt``-style help
    and reports usage errors in its diagnostic format, named ``tool`` (``ttd-sim: error: ...``;
    default: the command's name)."""

    def __init__(self, *args, tool: Optional[str] = None, **kwargs):
        """click's command, with ``tool``: the name usage errors start with."""
        super().__init__(*args, **kwargs)
        self.tool = tool or self.name

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        """Parse ``args`` after :func:`normalize_args` rewrote the mlir-opt spellings (and
        :func:`long_spellings` the short options); a usage error click raises here is marked
        as worded by click (:func:`usage_message` starts it lower-case)."""
        try:
            return super().parse_args(ctx, long_spellings(self, normalize_args(self, args, ctx)))
        except click.UsageError as e:
            e.worded_by_click = True
            raise

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        """click's ``main``; in standalone mode an error is printed as :func:`usage_message`
        words it, one line on stderr, and exits 2 (a usage error) also when stderr's reader has
        gone (click itself would exit 1 on that ``EPIPE``)."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        import sys

        from .output import echo

        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as e:
            echo(usage_message(e, self.tool), err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The usage line ``--help`` prints (and ``ctx.get_usage()`` returns):
        ``USAGE: ttd-lower [options] <input file>``."""
        formatter.write(f"USAGE: {usage_line(self, ctx)}\n")

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Write :func:`render_help`'s text."""
        formatter.write(render_help(self, ctx))

    def get_help_option(self, ctx: click.Context) -> Optional[click.Option]:
        """click's ``--help`` option, made once per command with its help text given: click
        makes its own with a translated text, and that look-up (``gettext``, which imports
        ``locale`` and searches the catalogue folders) would run on every start."""
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        made = getattr(self, "_ttd_help_option", None)
        if made is None:
            made = click.Option(names, is_flag=True, is_eager=True, expose_value=False, callback=_show_help,
                                help="Show this message and exit.")
            self._ttd_help_option = made
        return made


def usage_message(e: click.ClickException, tool: str) -> str:
    """The one line that reports ``e``: ``TOOL: error: MESSAGE. Try 'TOOL --help'``.

    The message is worded as the commands word theirs, whatever click's version would have
    written: an unknown option ``no such option '--bogus' (did you mean '--out'?)`` (the nearest
    name only, as ``mlir-opt`` gives it), a bad value ``--ranks: MESSAGE`` (as ``--dump-dir:
    ...``), click's other sentences started lower-case and without their full stop, as MLIR
    diagnostics are.
    """
    if isinstance(e, click.NoSuchOption):
        near = e.possibilities  # the nearest first, as difflib orders them; mlir-opt names one
        message = f"no such option '{e.option_name}'" + (f" (did you mean '{near[0]}'?)" if near else "")
    elif isinstance(e, click.BadParameter) and not isinstance(e, click.MissingParameter):
        hint = _param_hint(e)
        message = f"{hint}: {e.message}" if hint else e.message
    else:
        message = e.format_message()
        if getattr(e, "worded_by_click", False) and re.match(r"[A-Z][a-z]+\b", message):
            message = message[0].lower() + message[1:]
    return f"{tool}: error: {message.rstrip().rstrip('.')}. Try '{tool} --help'"


def _param_hint(e: click.BadParameter) -> Optional[str]:
    """How a bad value's parameter is named in its message: ``--ranks``, ``<kernel file>``."""
    hint = e.param_hint
    if hint is None and e.param is not None:
        hint = e.param.opts if isinstance(e.param, click.Option) else [e.param.human_readable_name]
    if isinstance(hint, (list, tuple)):
        hint = " / ".join(hint)
    return hint


def _show_help(ctx: click.Context, _param, value: bool) -> None:
    """The help option's action, as click's: print the help and exit."""
    if value and not ctx.resilient_parsing:
        from .output import echo

        echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


def _option_names(command: click.Command, ctx: Optional[click.Context] = None) -> Dict[str, Tuple[bool, Optional[str]]]:
    """``--name`` / ``-n`` -> (takes a value, implicit value) for every option of ``command``."""
    names: Dict[str, Tuple[bool, Optional[str]]] = {}
    params = command.get_params(ctx) if ctx is not None else command.params
    for p in params:
        if not isinstance(p, click.Option):
            continue
        implicit = getattr(p, "implicit_value", None)
        for name in p.opts + p.secondary_opts:
            names[name] = (not p.is_flag and implicit is None, implicit)
    names.setdefault("--help", (False, None))
    return names


def _long_names(command: click.Command) -> Dict[str, str]:
    """``-o`` -> ``--output`` for every short option of ``command`` that has a long name."""
    long_of: Dict[str, str] = {}
    for p in command.params:
        if isinstance(p, click.Option):
            longs = [n for n in p.opts if n.startswith("--")]
            for name in p.opts:
                if len(name) == 2 and name[0] == "-" and longs:
                    long_of[name] = longs[0]
    return long_of


def _rewrite(args: List[str], option) -> List[str]:
    """``args`` with each option rewritten by ``option(i, arg)`` -> (the words it becomes,
    whether the next word is its value); values and everything after ``--`` are left alone."""
    out: List[str] = []
    expects_value = False
    for i, arg in enumerate(args):
        if arg == "--":
            out.extend(args[i:])
            break
        if expects_value:  # the value of the previous option, whatever it looks like
            out.append(arg)
            expects_value = False
            continue
        words, expects_value = option(i, arg)
        out += words
    return out


def normalize_args(command: click.Command, args: List[str], ctx: Optional[click.Context] = None) -> List[str]:
    """``-name[=v]`` -> ``--name[=v]`` for this command's long options; ``--opt`` with an
    implicit value -> ``--opt=<value>``.

    Raises:
        click.NoSuchOption: a single-dash word that is no option of the command (``-rank=2``),
            with the long options whose names are near.
    """
    names = _option_names(command)

    def option(_i: int, arg: str):
        m = _SINGLE_DASH.match(arg)
        if m and f"--{m.group(1)}" in names:
            arg = "-" + arg
        elif m and arg[:2] not in names:  # `-rank=2`: a long option misspelled, not a short one
            import difflib

            longs = [n[2:] for n in names if n.startswith("--")]
            near = difflib.get_close_matches(m.group(1), longs, n=1, cutoff=0.6)
            raise click.NoSuchOption(arg.partition("=")[0], possibilities=["--" + n for n in near], ctx=ctx)
        name, eq, value = arg.partition("=")
        if eq and len(name) == 2 and names.get(name, (False,))[0]:  # `-o=out`, as LLVM reads it
            return [name, value], False
        takes_value, implicit = names.get(name, (False, None))
        if implicit is not None and not eq:
            arg = f"{name}={implicit}"
        return [arg], takes_value and not eq

    return _rewrite(args, option)


def long_spellings(command: click.Command, args: List[str]) -> List[str]:
    """``-o x`` -> ``--output x`` for the short options of ``command`` that have a long name
    (``args`` as :func:`normalize_args` returns them; values and everything after ``--`` are
    left alone, and so is a last option missing its value, so that click's message names it
    as written)."""
    names = _option_names(command)
    long_of = _long_names(command)

    def option(i: int, arg: str):
        takes_value = names.get(arg, (False,))[0]
        if arg in long_of and (not takes_value or i + 1 < len(args)):
            arg = long_of[arg]
        return [arg], takes_value

    return _rewrite(args, option)

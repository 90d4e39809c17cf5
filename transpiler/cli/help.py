"""``--help`` as ``mlir-opt --help`` lays it out: ``OVERVIEW``, ``USAGE``, then ``OPTIONS`` with
one section per group (the groups below; ``Generic Options`` last), options sorted by name
inside it, each with its value spelled as LLVM's ``cl`` spells it (``--dump-dir=<dir>``,
``-o <filename>``, ``--split-input-file[=<marker>]``)."""

from __future__ import annotations

from typing import Dict, List, Tuple

import click

GENERAL = "General options"
LOWERING = "Lowering options"
DIAGNOSTICS = "Diagnostics options"
PRINTING = "Printing options"
DEBUGGING = "Stage and IR dump options"
GENERIC = "Generic Options"
GROUPS = (GENERAL, LOWERING, DIAGNOSTICS, PRINTING, DEBUGGING, GENERIC)
"""Help sections, in the order they are printed (``Generic Options`` last, as in LLVM tools)."""


def _signature(p: click.Option) -> str:
    """How an option is written in help: ``--dump-dir=<dir>``, ``-o <filename>``, ``--split-input-file[=<marker>]``."""
    # as declared first (`-o`); click keeps the help option's names in a set, so its order is
    # the hash seed's: the long name goes first
    name = "--help" if "--help" in p.opts else p.opts[0]
    value = getattr(p, "value_name", None) or "<value>"
    if p.is_flag:
        text = name
    elif getattr(p, "implicit_value", None) is not None:
        text = f"{name}[={value}]"
    elif name.startswith("--"):
        text = f"{name}={value}"
    else:
        text = f"{name} {value}"
    aliases = [o for o in p.opts if o != name]
    return text + (f" (also {', '.join(aliases)})" if aliases else "")


def usage_line(command: click.Command, ctx: click.Context) -> str:
    """``ttd-lower [options] <input file>``: what click's usage errors print after ``Usage:``."""
    return " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])


def render_help(command: click.Command, ctx: click.Context) -> str:
    """The whole ``--help`` text."""
    overview = (command.help or "").strip().split("\n\n")
    lines = [f"OVERVIEW: {' '.join(overview[0].split())}", ""]
    for paragraph in overview[1:]:
        lines += [" ".join(paragraph.split()), ""]
    lines += [f"USAGE: {usage_line(command, ctx)}", "", "OPTIONS:", ""]
    rows: Dict[str, List[Tuple[str, str]]] = {g: [] for g in GROUPS}
    for p in command.get_params(ctx):
        if not isinstance(p, click.Option) or p.hidden:
            continue
        help_option = "--help" in p.opts
        group = getattr(p, "group", GENERIC if help_option else GENERAL)  # plain click options: General
        entries = rows.setdefault(group, [])
        help_text = " ".join((p.help or "").split())
        if p.envvar:
            help_text += f" (env {p.envvar})"
        entries.append((_signature(p), help_text))
        if isinstance(p.type, click.Choice):
            entries += [(f"  ={c}", "") for c in p.type.choices]
    width = max(len(sig) for group in rows.values() for sig, _ in group) + 4
    generic = rows.pop(GENERIC)  # a command's own groups go before it: Generic Options last
    rows[GENERIC] = generic
    for group, entries in rows.items():
        if not entries:
            continue
        lines += [f"{group}:", ""]
        for sig, text in _sorted(entries):
            lines.append(f"  {sig:<{width}}- {text}" if text else f"  {sig}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _sorted(entries: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """Options by name (as LLVM sorts them), each followed by its ``=choice`` lines."""
    blocks: List[List[Tuple[str, str]]] = []
    for entry in entries:
        if entry[0].startswith("  =") and blocks:
            blocks[-1].append(entry)
        else:
            blocks.append([entry])
    blocks.sort(key=lambda b: b[0][0].lstrip("-").lower())
    return [e for b in blocks for e in b]

"""Generates ``_generated_detail_tables.py``: the detail level of the grammar as plain data.

    python -m transpiler.parser.gen_detail_tables           # rewrite the generated module
    python -m transpiler.parser.gen_detail_tables --check   # exit 1 when the committed file is stale

``grammars/ttir.lark`` is the grammar of record.  Here, at development time, Lark builds the
detail parser (starts :data:`DETAIL_STARTS`, ``lexer="contextual"``, ``maybe_placeholders=False``)
and the generated module keeps what :mod:`transpiler.parser.detail_lalr` needs to behave as
that parser does, with no Lark at run time:

* the LALR(1) tables of every detail start rule (states numbered breadth-first from the start
  states, symbols sorted, rules ordered by (name, expansion): the same file whatever the hash
  seed);
* the rule table with Lark's tree shaping: which children a rule keeps (anonymous string
  tokens are filtered out unless ``!rule``), which kept children are ``_rule`` results whose
  children are spliced in, the callback (``-> alias`` or the rule's name; None for ``_rule``)
  and whether ``?rule`` hands back its only child;
* the terminals (name, pattern text, priority, whether Lark counts newlines in them, how Lark
  names them in messages) and the contextual lexers: for each distinct set of terminals a
  parser state accepts (``%ignore`` terminals added), the terminals in the order Lark's scanner
  tries them, after Lark's keyword handling (``_create_unless``: a string terminal a regex
  terminal also matches is left out and a match of the regex terminal whose text is that
  string takes its type); the state of each parser state; the root lexer (all terminals),
  which Lark uses to name the token a state could not lex.

Only what this grammar uses is supported, and checked here: no lexer callbacks, no terminal
flags, no rule templates (a builder method missing for a rule fails when the run time parser
is made).  A grammar needing more fails here, loudly.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent / "_generated_detail_tables.py"
DETAIL_STARTS = ("custom_body", "generic_body", "type", "attribute", "location", "block_label", "alias_definition")


def build_lark():
    """Lark's own detail parser (no transformer), as the run time parser must behave."""
    from lark import Lark

    from .. import resources
    from .._compat import LARK_OPTIONS

    return Lark(resources.grammar_text(), parser="lalr", lexer="contextual", start=list(DETAIL_STARTS),
                maybe_placeholders=False, **LARK_OPTIONS)


def generate() -> str:
    """The text of ``_generated_detail_tables.py`` for the current grammar."""
    from .. import resources

    grammar = resources.grammar_text()
    lark = build_lark()
    table = lark.parser.parser._parse_table
    contextual = lark.parser.lexer

    number, order, used = {}, [], set()
    for start in DETAIL_STARTS:
        state = table.start_states[start]
        if state not in number:
            number[state] = len(order)
            order.append(state)
    for state in order:  # grows while it is walked
        for symbol in sorted(table.states[state]):
            action, arg = table.states[state][symbol]
            if action.name == "Shift":
                if arg not in number:
                    number[arg] = len(order)
                    order.append(arg)
            else:
                used.add(arg)
    rules = sorted(used, key=lambda r: (str(r.origin.name), tuple(str(sym.name) for sym in r.expansion)))
    rule_index = {rule: i for i, rule in enumerate(rules)}
    rows = []
    for state in order:
        row = {}
        for symbol in sorted(table.states[state]):
            action, arg = table.states[state][symbol]
            row[str(symbol)] = number[arg] if action.name == "Shift" else ~rule_index[arg]
        rows.append(row)
    rule_rows = [_rule_row(rule) for rule in rules]

    terminals = sorted(lark.terminals, key=lambda t: t.name)
    newline_types = contextual.root_lexer.newline_types
    term_rows = []
    for t in terminals:
        if t.pattern.flags:
            raise SystemExit(f"gen_detail_tables: terminal {t.name} has flags {t.pattern.flags} (unsupported)")
        term_rows.append((t.name, t.pattern.to_regexp(), t.priority, t.name in newline_types, t.user_repr()))
    if contextual.root_lexer.user_callbacks:
        raise SystemExit("gen_detail_tables: lexer callbacks are not supported")

    lexers, lexer_index = [], {}

    def lexer_row(basic) -> int:
        scanner = basic.scanner  # builds the scanner: terminal order after _create_unless
        unless = {}
        for name, callback in sorted(basic.callback.items()):
            unless[name] = {t.pattern.value: t.name for t in callback.scanner.terminals}
        key = (tuple(t.name for t in scanner.terminals), tuple((k, tuple(sorted(v.items()))) for k, v in unless.items()))
        if key not in lexer_index:
            lexer_index[key] = len(lexers)
            lexers.append((key[0], unless))
        return lexer_index[key]

    root = lexer_row(contextual.root_lexer)
    state_lexers = tuple(lexer_row(contextual.lexers[state]) for state in order)
    starts = {start: (number[table.start_states[start]], number[table.end_states[start]]) for start in DETAIL_STARTS}

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()
    out = [
        '"""The detail level of ``grammars/ttir.lark`` (starts ``custom_body``, ``generic_body``, ``type``,',
        "``attribute``, ``location``, ``block_label``, ``alias_definition``) as Lark builds it.",
        "",
        "Generated by ``python -m transpiler.parser.gen_detail_tables`` from the grammar; do not edit.",
        "``STARTS[start]``: (start state, end state).  ``ACTIONS[state][symbol]``: a shift (or goto)",
        "to that state when >= 0, else ``~rule``.  ``RULES[rule]``: (name, number of children, callback",
        "or None when a parent splices the rule's children, positions of the children kept (None:",
        "all), positions among the kept ones that are spliced, whether a single child is handed back",
        "as it is (``?rule``)).  ``TERMINALS``: (name, regex, priority, newlines counted, name in",
        "messages).  ``IGNORE``: the ``%ignore`` terminals.  ``LEXERS[i]``: (terminals in the order",
        "they are tried, {regex terminal: {text: string terminal}} of the keyword handling);",
        "``STATE_LEXER[state]``: the lexer of a parser state; ``ROOT_LEXER``: all terminals.",
        '"""',
        "",
        f"GRAMMAR_SHA256 = {digest!r}",
        f"STARTS = {starts!r}",
        f"IGNORE = {tuple(sorted(lark.ignore_tokens))!r}",
        "TERMINALS = (",
        *(f"    {row!r}," for row in term_rows),
        ")",
        f"ROOT_LEXER = {root!r}",
        "LEXERS = (",
        *(f"    {row!r}," for row in lexers),
        ")",
        f"STATE_LEXER = {state_lexers!r}",
        "RULES = (",
        *(f"    {row!r}," for row in rule_rows),
        ")",
        "ACTIONS = (",
        *(f"    {row!r}," for row in rows),
        ")",
        "",
    ]
    return "\n".join(out)


def _rule_row(rule) -> tuple:
    """(name, size, callback, kept positions or None, spliced positions among the kept, expand1)."""
    name = str(rule.origin.name)
    keep_all = bool(rule.options.keep_all_tokens)
    kept = [i for i, sym in enumerate(rule.expansion) if keep_all or not (sym.is_term and sym.filter_out)]
    spliced = tuple(j for j, i in enumerate(kept)
                    if not rule.expansion[i].is_term and rule.expansion[i].name.startswith("_"))
    callback = None if name.startswith("_") else (rule.alias or name)
    if rule.options.template_source:
        raise SystemExit(f"gen_detail_tables: rule {name} comes from a template (unsupported)")
    expand1 = bool(rule.options.expand1) and not rule.alias
    return (name, len(rule.expansion), callback, None if len(kept) == len(rule.expansion) else tuple(kept),
            spliced, expand1)


def main(argv=None) -> int:
    from .gen_tables import write_or_check

    return write_or_check(argv, __doc__.splitlines()[0], generate, OUTPUT, "transpiler.parser.gen_detail_tables")


if __name__ == "__main__":
    sys.exit(main())

"""What both table generators share (development time, with Lark): numbering a Lark LALR
table the same way on every run, and the command line that writes or checks a generated file
(:mod:`transpiler.parser.structure.gen_tables`, :mod:`transpiler.parser.detail.gen_tables`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def number_table(table, starts):
    """(states in order, rules in order, ``ACTIONS`` rows) of a Lark LALR ``table``.

    Lark numbers states and orders rules by set iteration (it changes with PYTHONHASHSEED):
    the states are numbered breadth-first from ``starts`` (in that order), symbols in sorted
    order, and the rules sorted by (name, expansion), so that the file is the same for the
    same grammar.  A row maps each symbol to a shift (or goto) state when >= 0, else ``~rule``.
    """
    number, order, used = {}, [], set()
    for state in starts:
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
    return order, rules, rows


def write_or_check(argv, description: str, generate, output: Path, module: str) -> int:
    """The command line of a table generator: write ``output`` from ``generate()``, or with
    ``--check`` exit 1 when the committed file differs (``module`` is how to run it)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current != text:
            print(f"{output} is stale: run python -m {module}", file=sys.stderr)
            return 1
        return 0
    output.write_text(text, encoding="utf-8")
    return 0

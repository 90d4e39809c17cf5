"""No distributed op passes through unread: the safety net of :func:`~transpiler.parser.parse_module`.

The structure reader decides where each op ends from the tokens around it (SPEC.md section 3).
Text it cannot read as MLIR reads it can still look like MLIR to it: after an invalid value name
(``%%q = distributed.symm_at ...``) the ``{`` of a ``tt.func`` reads as an attribute dictionary,
and the function's body, distributed ops included, as that dictionary's text.  Such an op would
be copied to the output unlowered, with exit status 0.  Here every distributed op name in the
source (custom form ``distributed.symm_at``, generic form ``"distributed.symm_at"(``) outside
strings and comments must stand where the reader found a distributed op; any other is an error
at its place (SPEC.md: bad input gets a located error, never a silent mis-lowering).
"""

from __future__ import annotations

import bisect
import re
from typing import List, Optional

from ...diagnostics import ERROR, Diagnostic, Note, op_location
from ...ir.core import Module, Operation
from ...ir.dialects.distributed import OPS

_NAMES = "|".join(re.escape(d.name) for d in OPS)
# a string (group 1: a generic op's name when it is one), a comment, or a bare op name (group 2)
# where a token begins, not an attribute name (`{distributed.wait = 1}`)
_OCCURRENCE = re.compile(r'"((?:' + _NAMES + r'))"(?=[ \t\r\n]*\()|"(?:[^"\\\n]|\\.)*"|//[^\n\r]*'
                         r'|(?<![\w$.#!@%^"\-])(' + _NAMES + r')(?![\w$.\-])(?![ \t]*=(?!=))')


# a distributed op name glued to junk where an op name stands: first on its line, or after the
# results (`%src = #distributed.symm_at ...`: the reader took the function's body for an
# attribute dictionary, and the `#`, which _OCCURRENCE's lookbehind takes for an attribute's,
# hid the name; so did `! $ % @ ^ . -`, a digit or a non-ASCII letter; attack of session 43).
# Junk of `%` or `^` first on a line is a value or block name (`%distributed.wait, %b = ...`).
_GLUED = re.compile(r"^[ \t]*(%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=[ \t]*)?"
                    r'([^\s"{}()\[\],:<>=/]+?)(' + _NAMES + r")(?![\w$.\-])(?![ \t]*=(?!=))", re.M)

# the bare-name branch of _OCCURRENCE alone (its lookbehind tested apart, by _NO_NAME_AFTER), for
# the lines that hold no string and no comment
_BARE_NAME = re.compile(r"(?:" + _NAMES + r")(?![\w$.\-])(?![ \t]*=(?!=))")
_NO_NAME_AFTER = re.compile(r'[\w$.#!@%^"\-]')  # _OCCURRENCE's lookbehind: a character no name follows
_JUNK = re.compile(r'[^\s"{}()\[\],:<>=/]')  # _GLUED's junk: a name right after one may be glued to it

# the blanks (line breaks included) after a line, which a lookahead of _OCCURRENCE may see through
_BLANKS = re.compile(r"[ \t\r\n]*")

# a comment between an op's results and its name (`%x = // note` on the line before the name)
_COMMENT = re.compile(r"//[^\n\r]*")

# the results before an op's name (`%x = `, `%a:2, %b = `), comments taken out: nothing else may
# stand between where a distributed op begins and its name
_RESULTS = re.compile(r"\s*%[\w$.\-]+(?::[0-9]+)?(?:\s*,\s*%[\w$.\-]+(?::[0-9]+)?)*\s*=\s*")

# what stands before a string that is a callee: an op's name, first on its line or after `=`
_CALLEE = re.compile(r'(?:^|=)[ \t]*[A-Za-z_][\w$.]*[ \t]+\Z', re.M)


def hidden_distributed_ops(module: Module, starts: List[int]) -> List[Diagnostic]:
    """An error for each distributed op name of ``module``'s source that is not the name of a
    distributed op the reader found (each with a note naming the op whose text holds it).
    ``starts``: the offsets where the reader's distributed ops begin, as the structure builder
    records them."""
    source = module.source
    if source is None or "distributed." not in source.text:
        return []
    starts = sorted(starts)
    ops: List[Operation] = []  # the module's ops, walked once for the first error's note
    problems = []

    def report(message: str, at: int) -> None:
        diag = Diagnostic(ERROR, message, source, at)
        if not ops:
            ops.extend(op for op in module.walk() if op.source is source and op.span is not None)
        holder = _innermost_holding(ops, at)
        if holder is not None:
            diag.notes.append(Note(f"it stands in the text of '{holder.name}', which begins here",
                                   *op_location(holder)))
        problems.append(diag)

    for at, generic, name in _occurrences(source.text):
        if generic and _CALLEE.search(source.text, source.text.rfind("\n", 0, at) + 1, at):
            continue  # `emitc.call_opaque "distributed.x"(...)`: a callee, no op (as the reader says)
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and _name_of_op_at(source.text, starts[i], at):
            continue
        report(f"'{name}' is not read as an op here, so it would not be lowered: the text before it is not "
               f"what MLIR reads (an invalid value name, an unbalanced bracket?)", at)
    for m in _glued(source.text):
        report(f"'{m.group(3)}' stands where an op's name does, glued to '{m.group(2)}', so it is not read as "
               f"an op and would not be lowered", m.start(2))
    return sorted(problems, key=lambda d: d.offset)


def _occurrences(text: str):
    """``(offset, generic, name)`` of each distributed op name in ``text``: the name matches of
    :data:`_OCCURRENCE` (``generic``: its first group, a quoted name before ``(``), found on the
    lines that hold ``distributed.`` only.  That is the same as over the whole text, since no
    match spans a line break (strings and comments end with their line), so a line's matches do
    not depend on the lines before it; the lines without the word (most of a kernel: its ``loc``
    strings) are not scanned at all.  A line with no string and no comment (``"``, ``/``) can hold
    bare names only: each ``distributed.`` there is tried alone (:data:`_BARE_NAME`).  Another
    line is searched up to the first character after the blanks that follow it: as far as a
    lookahead can look (a generic name's ``(`` may stand on a later line), and no further, so
    that the search does not run on through the lines below (issue 30)."""
    for start, end in _lines_with_the_word(text):
        if text.find('"', start, end) < 0 and text.find("/", start, end) < 0:
            pos = text.find("distributed.", start, end)
            while pos >= 0:
                m = _BARE_NAME.match(text, pos)
                if m is not None and (pos == 0 or _NO_NAME_AFTER.match(text, pos - 1) is None):
                    yield pos, False, m.group()
                    pos = m.end()
                else:
                    pos += 1
                pos = text.find("distributed.", pos, end)
            continue
        for m in _OCCURRENCE.finditer(text, start, _BLANKS.match(text, end).end() + 1):
            if m.start() >= end:
                break
            if m.group(1) or m.group(2):
                yield m.start(), m.group(1) is not None, m.group(1) or m.group(2)


def _glued(text: str):
    """The matches of :data:`_GLUED` on the lines that hold ``distributed.``, but for a value or
    block name first on its line.  Only a line where some ``distributed.`` follows a junk
    character (:data:`_JUNK`) can match: the others are not tried."""
    for start, end in _lines_with_the_word(text):
        pos = text.find("distributed.", start, end)
        while pos >= 0 and (pos == start or _JUNK.match(text, pos - 1) is None):
            pos = text.find("distributed.", pos + 1, end)
        if pos < 0:
            continue
        m = _GLUED.match(text, start, end)
        if m is not None and not (m.group(1) is None and m.group(2)[0] in "%^"):
            yield m


def _lines_with_the_word(text: str):
    """``(start, end)`` of each line of ``text`` that holds ``distributed.`` (end: its line
    break, or the end of the text), in order."""
    pos = text.find("distributed.")
    while pos >= 0:
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        yield start, end
        pos = text.find("distributed.", end)


def _name_of_op_at(text: str, start: int, at: int) -> bool:
    """Whether the distributed op that begins at ``start`` has its name at ``at`` (after its
    results ``%x = ``, if any): not when other text stands between (an unknown op's unclosed
    ``<`` on a line between a distributed op and a later name, which the reader took for that
    op's text; found by the attack of session 42)."""
    between = _COMMENT.sub("", text[start:at])
    return not between or _RESULTS.fullmatch(between) is not None


def _innermost_holding(ops: List[Operation], at: int) -> Optional[Operation]:
    holding = [op for op in ops if op.span[0] <= at < op.span[1]]
    return max(holding, key=lambda op: op.span[0]) if holding else None

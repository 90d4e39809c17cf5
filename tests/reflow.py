"""Re-flowing MLIR text: the same tokens, with line breaks and comments moved to other legal
places (DESIGN.md, "Where an op ends": fuzz the boundary rule by re-flowing the corpus).

MLIR allows whitespace, so also a line break or a comment, between any two tokens.  The
variants here move breaks only where the text already has blanks (so that no token is split:
MLIR's printer puts a blank between every pair of tokens it can separate), and never inside
string literals or comments.
"""

from __future__ import annotations

import re

# strings, comments and `{-# ... #-}` are kept whole; every other run of blanks is a place
_PIECE = re.compile(r'@?"(?:[^"\\\n]|\\.)*"|//[^\n]*|\{-#.*?#-\}|[ \t]+|\n|[^"/ \t\n{]+|[/{]', re.S)


def _pieces(text: str):
    return [m.group() for m in _PIECE.finditer(text)]


def break_everywhere(text: str, comment: str = "") -> str:
    """Every blank between two tokens becomes a line break (one token per line), preceded by
    ``comment`` when given (e.g. ``" // x #map"``: comments between tokens, naming an alias)."""
    out = []
    for piece in _pieces(text):
        if piece[0] in " \t":
            out.append(comment + "\n      ")
        else:
            out.append(piece)
    return "".join(out)


_SIGNATURE = re.compile(r"(?m)^([ \t]*(?:%[\w$.\-]+ = )?)?(tt\.func|func\.func)([^\n(\"]*@[\w$.\-]+)\(([^\n]*)\)([^\n]*)\{\n")


def split_signatures(text: str) -> str:
    """Each function signature written one argument per line, as the public Ascend test does."""
    def one_per_line(m: re.Match) -> str:
        args = _split_top_level(m.group(4))
        if len(args) < 2:
            return m.group(0)
        body = ",\n".join("    " + a.strip() for a in args)
        return f"{m.group(1) or ''}{m.group(2)}{m.group(3)}(\n{body}\n  ){m.group(5)}{{\n"
    return _SIGNATURE.sub(one_per_line, text)


def _split_top_level(args: str):
    parts, depth, start, i = [], 0, 0, 0
    while i < len(args):
        c = args[i]
        if c == '"':
            j = i + 1
            while j < len(args) and args[j] != '"':
                j += 2 if args[j] == "\\" else 1
            i = j
        elif c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(args[start:i])
            start = i + 1
        i += 1
    parts.append(args[start:])
    return parts


_DEF_LINE = re.compile(r"\n[ \t]*(?=%[\w$.\-]+(?::\d+)?(?:, %[\w$.\-]+(?::\d+)?)* = )")


def join_defining_lines(text: str) -> str:
    """Every line that starts with results (``%x = ...``) joined onto the line before it, when
    that line has no comment: several ops on one line."""
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        prev = out[-1]
        if _DEF_LINE.match("\n" + line) and "//" not in prev and prev.strip() and not prev.lstrip().startswith("#"):
            out[-1] = prev + " " + line.lstrip()
        else:
            out.append(line)
    return "\n".join(out)


VARIANTS = {
    "broken": break_everywhere,
    "commented": lambda t: break_everywhere(t, " // note: #map0 {"),
    "signatures": split_signatures,
    "joined": join_defining_lines,
}

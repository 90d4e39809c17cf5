"""``annotation.mark``: a hint for later HIVM stages (``ContinuousMemAccess``, SPEC.md section
2.4 item 9); it computes nothing."""

from __future__ import annotations

from .table import implements


@implements("annotation.mark")
def mark(p, st, args):
    return None

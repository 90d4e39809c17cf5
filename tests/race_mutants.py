"""Mutations of a kernel's text that remove one happens-before edge (SPEC.md section 7,
``--races``), for the race tests: each returns the mutant, or None when the kernel has no site.

* :func:`wait_dropped`: every ``distributed.wait`` replaced by its token, the constant 0 (the
  loads after it are no longer ordered after the notifies they waited for).
* :func:`notify_hoisted`: the ``tt.store`` before every ``distributed.notify`` of the same block
  moved just below it (the release happens before the data is written).
* :func:`barrier_dropped`: every ``aclshmem_barrier_all`` / ``aclshmem_barrier`` extern call removed.
* :func:`lowered_wait_dropped`: every ``aclshmem_wait_<T>`` custom op of a lowered module replaced by
  the constant 0 (its token).
"""

from __future__ import annotations

import re
from typing import Optional

WAIT = re.compile(r"^(?P<indent>\s*)(?P<result>%[\w.$-]+) = distributed\.wait .*-> (?P<type>\w+)(?P<loc> loc\(.*\))?$", re.M)
NOTIFY = re.compile(r'^\s*"distributed\.notify"\(.*$')
STORE = re.compile(r"^\s*tt\.store ")
BARRIER = re.compile(r'^\s*distributed\.extern_call (?:%\w+ )?\{[^}]*symbol = "aclshmem_barrier(?:_all)?"\}.*$\n', re.M)
LOWERED_WAIT = re.compile(r'^(?P<indent>\s*)(?P<result>%[\w.$-]+) = hivm\.hir\.custom \{[^}]*symbol = "aclshmem_wait_int\d+"\}.*-> (?P<type>\w+)(?P<loc> loc\(.*\))?$', re.M)


def wait_dropped(text: str) -> Optional[str]:
    out = WAIT.sub(lambda m: f"{m['indent']}{m['result']} = arith.constant 0 : {m['type']}{m['loc'] or ''}", text)
    return None if out == text else out


def notify_hoisted(text: str) -> Optional[str]:
    lines = text.split("\n")
    moved = False
    for i, line in enumerate(lines):
        if NOTIFY.match(line):
            j = i - 1
            while j >= 0 and not STORE.match(lines[j]) and lines[j].strip() and not lines[j].rstrip().endswith("{"):
                j -= 1
            if j >= 0 and STORE.match(lines[j]):
                lines.insert(i, lines.pop(j))
                moved = True
    return "\n".join(lines) if moved else None


def barrier_dropped(text: str) -> Optional[str]:
    out = BARRIER.sub("", text)
    return None if out == text else out


def lowered_wait_dropped(text: str) -> Optional[str]:
    out = LOWERED_WAIT.sub(lambda m: f"{m['indent']}{m['result']} = arith.constant 0 : {m['type']}{m['loc'] or ''}", text)
    return None if out == text else out

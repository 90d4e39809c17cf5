"""Small random distributed programs with a happens-before oracle written from SPEC.md section 7
(``--races``), independent of the simulator: the property test of ``tests/test_sim_races.py``.

A program is a global sequence of events over R ranks (one program each): a ``load``, ``store``
or ``atomic`` (add) by a rank of element e of some rank's copy of ``buf`` (i32), a ``sync`` (rank
a notifies flag j on rank b, which then waits for it: notify SET 1, wait for 1; each flag once)
or an ``add`` (each of one to three ranks adds 1 to flag j on rank b, which waits for their
count: the adds form a release sequence, every one ordered before the wait), or a ``barrier``
(``aclshmem_barrier_all`` on every rank).  Executing the events in the global
order is a schedule, so no run deadlocks.  :func:`unordered_pairs` is the oracle: the
conflicting pairs of accesses (same rank's copy and element, not both reads, not both atomics)
that no path of program order, notify -> wait and barrier edges orders.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

ACCESSES = ("load", "store", "atomic")


def draw(choice, ranks: int, length: int) -> List[tuple]:
    """A global event sequence; ``choice(seq)`` picks one element (hypothesis or random)."""
    events, flags = [], 0
    for _ in range(length):
        kind = choice(ACCESSES + ("sync", "sync", "add", "barrier"))
        if kind in ACCESSES:
            events.append((kind, choice(range(ranks)), choice(range(ranks)), choice(range(2))))
        elif kind == "sync":
            events.append(("sync", (choice(range(ranks)),), choice(range(ranks)), flags, False))
            flags += 1
        elif kind == "add":
            senders = tuple(r for r in range(ranks) if choice((True, False)))
            events.append(("sync", senders or (0,), choice(range(ranks)), flags, True))
            flags += 1
        else:
            events.append(("barrier",))
    return events


def per_rank(events, ranks: int) -> List[List[tuple]]:
    """Each rank's own events in program order: ``(kind, global index, ...)``."""
    seqs: List[List[tuple]] = [[] for _ in range(ranks)]
    for g, e in enumerate(events):
        if e[0] in ACCESSES:
            seqs[e[1]].append((e[0], g, e[2], e[3]))
        elif e[0] == "sync":  # ("notify", g, peer, flag, add) / ("wait", g, senders, flag, value)
            for s in e[1]:
                seqs[s].append(("notify", g, e[2], e[3], e[4]))
            seqs[e[2]].append(("wait", g, e[1], e[3], len(e[1]) if e[4] else 1))
        else:
            for r in range(ranks):
                seqs[r].append(("barrier", g))
    return seqs


def unordered_pairs(events, ranks: int) -> set:
    """``{((rank, position), (rank, position))}`` of conflicting accesses no edge path orders."""
    seqs = per_rank(events, ranks)
    succ: Dict[tuple, List[tuple]] = {}
    for r, seq in enumerate(seqs):
        for i in range(len(seq) - 1):
            succ.setdefault((r, i), []).append((r, i + 1))
    where = {(e[0], e[1], r): (r, i) for r, seq in enumerate(seqs) for i, e in enumerate(seq)}
    for r, seq in enumerate(seqs):
        for i, e in enumerate(seq):
            if e[0] == "notify":
                succ.setdefault((r, i), []).append(where[("wait", e[1], e[2])])  # the wait is on the peer
            elif e[0] == "barrier":
                for q in range(ranks):  # everything before it on every rank -> everything after
                    j = where[("barrier", e[1], q)]
                    if j[1] + 1 < len(seqs[q]):
                        succ.setdefault((r, i), []).append((q, j[1] + 1))

    def reach(a):
        seen, todo = set(), [a]
        while todo:
            for b in succ.get(todo.pop(), []):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    accesses = [(r, i, e) for r, seq in enumerate(seqs) for i, e in enumerate(seq) if e[0] in ACCESSES]
    after = {(r, i): reach((r, i)) for r, i, _ in accesses}
    out = set()
    for x, (r1, i1, e1) in enumerate(accesses):
        for r2, i2, e2 in accesses[x + 1:]:
            if (e1[2], e1[3]) != (e2[2], e2[3]) or {e1[0], e2[0]} in ({"load"}, {"atomic"}):
                continue
            if (r2, i2) not in after[(r1, i1)] and (r1, i1) not in after[(r2, i2)]:
                out.add(((r1, i1), (r2, i2)))
    return out


BARRIER = ('distributed.extern_call {distributed.core_type = "cube_and_vector", libname = "libshmem_device", '
           'libpath = "", pure = false, symbol = "aclshmem_barrier_all"} : () -> ()')


def kernel(seq: List[tuple]) -> Tuple[str, Dict[int, int]]:
    """The TTIR of one rank's events; ``{source line: position in seq}`` of its accesses."""
    lines = ["module {", "  tt.func public @k(%buf: !tt.ptr<i32>, %sig: !tt.ptr<i32>) {",
             "    %true = arith.constant true", "    %one64 = arith.constant 1 : i64"]
    consts = set()

    def c(v):
        if v not in consts:
            consts.add(v)
            lines.append(f"    %c{v} = arith.constant {v} : i32")
        return f"%c{v}"

    at = {}
    for i, e in enumerate(seq):
        if e[0] in ACCESSES:
            t, el = c(e[2]), c(e[3])
            v = c(e[1] + 1)
            lines.append(f"    %p{i} = distributed.symm_at %buf, {t}, : !tt.ptr<i32>")
            lines.append(f"    %q{i} = tt.addptr %p{i}, {el} : !tt.ptr<i32>, i32")
            op = {"load": f"%v{i} = tt.load %q{i} : !tt.ptr<i32>",
                  "store": f"tt.store %q{i}, {v} : !tt.ptr<i32>",
                  "atomic": f"%v{i} = tt.atomic_rmw add, acq_rel, sys, %q{i}, {v}, %true : (!tt.ptr<i32>, i32, i1) -> i32"}
            lines.append("    " + op[e[0]])
            at[len(lines)] = i
        elif e[0] in ("notify", "wait"):
            s, one = c(16 * e[3]), c(1)
            lines.append(f"    %s{i} = tt.addptr %sig, {s} : !tt.ptr<i32>, i32")
            if e[0] == "notify":
                peer, op = c(e[2]), 2 if e[4] else 1
                lines.append(f'    "distributed.notify"(%s{i}, %one64, {peer}) <{{commScope = 3 : i32, sigOp = {op} : i32}}> '
                             f': (!tt.ptr<i32>, i64, i32) -> ()')
            else:
                lines.append(f"    %t{i} = distributed.wait %s{i}, {one}, {c(e[4])}, scope = gpu semantic = acquire : "
                             f"!tt.ptr<i32>, i32, i32 -> i32")
        else:
            lines.append("    " + BARRIER)
    lines += ["    tt.return", "  }", "}"]
    return "\n".join(lines) + "\n", at

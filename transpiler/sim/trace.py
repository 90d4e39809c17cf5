"""``--trace FILE``: a run in the Chrome trace event format (SPEC.md section 7, "Interface"),
the JSON that Perfetto (ui.perfetto.dev, "Open trace file") and ``chrome://tracing`` open.

* A process per rank (``pid`` = rank, plus ``pid_base``: with ``--check-lowering`` the run after
  lowering is a second set of processes, named so), a thread per program (``tid`` = the
  program's index in its launch, times the sub-blocks, plus the sub-block); metadata events
  ``process_name`` / ``thread_name`` name them.
* Time (``ts``, shown as microseconds) is a logical clock: one tick per event the run records,
  so the file depends only on the plan and the seed (same seed, same bytes).
* ``X`` spans (``ts``, ``dur``): each program's life (``args``: loads, stores, atomics, RMA
  calls), each wait for one slot (``args``: ``slot``, ``awaited``, ``seen``, ``rounds``), each
  barrier (from arrival to release), each RMA call (``bytes``, ``pe``).
* ``i`` instants: every notify / signal write (``args``: target rank, slot, value, SET or ADD),
  a race finding (``name`` ``race``) and, at a deadlock, each blocked program's wait
  (``deadlock``), with ``args.message``.
* Flow events ``s`` -> ``f`` (``cat`` ``sync``, one ``id`` per pair) from each signal write to the
  wait round that observed it (``bp`` ``e``: bound to the enclosing wait span).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Dict, List

from .errors import UsageError, format_program
from .hb import Actor


class Tracer:
    """Events of one or more runs; :meth:`write` saves them."""

    def __init__(self):
        self.events: List[dict] = []
        self.tick = 0
        self.pid_base = 0
        self.label = ""
        self.flows = 0
        self.slots: Dict[int, List[tuple]] = {}
        self._named: set = set()

    def begin_run(self, label: str = "", pid_base: int = 0) -> None:
        """The next events belong to a run named ``label`` (``before lowering``...)."""
        self.label, self.pid_base, self.slots = label, pid_base, {}

    def _now(self) -> int:
        self.tick += 1
        return self.tick

    def _pid(self, a: Actor) -> int:
        return self.pid_base + a.rank

    def _put(self, ph: str, a: Actor, name: str, ts: int, **extra) -> dict:
        e = {"ph": ph, "ts": ts, "pid": self._pid(a), "tid": a.tid, "name": name}
        e.update(extra)
        self.events.append(e)
        return e

    # ---- the run's events --------------------------------------------------------------------
    def launch(self, actors: List[Actor]) -> None:
        ts = self._now()
        for a in actors:
            pid = self._pid(a)
            if ("p", pid) not in self._named:
                self._named.add(("p", pid))
                label = f" ({self.label})" if self.label else ""
                self.events.append({"ph": "M", "ts": 0, "pid": pid, "tid": 0, "name": "process_name",
                                    "args": {"name": f"rank {a.rank}{label}"}})
            if ("t", pid, a.tid) not in self._named:
                self._named.add(("t", pid, a.tid))
                self.events.append({"ph": "M", "ts": 0, "pid": pid, "tid": a.tid, "name": "thread_name",
                                    "args": {"name": f"program {format_program(a.program)}"}})
            a.start = ts
            a.counts = {"loads": 0, "stores": 0, "atomics": 0, "rma": 0}

    def program_end(self, a: Actor) -> None:
        ts = self._now()
        self._put("X", a, f"program {format_program(a.program)}", a.start, dur=ts - a.start, args=dict(a.counts))

    def access(self, a: Actor, kind: str) -> None:
        if a.counts is not None:
            a.counts[{"read": "loads", "write": "stores", "atomic": "atomics"}[kind]] += 1

    def release(self, a: Actor, name: str, addr: int, rank: int, slot: str, value, add: bool) -> None:
        ts = self._now()
        self._put("i", a, name, ts, s="t", cat="sync",
                  args={"to rank": rank, "slot": slot, "value": _plain(value), "op": "ADD" if add else "SET"})
        mark = (self._pid(a), a.tid, ts)
        if add:
            self.slots.setdefault(addr, []).append(mark)
        else:
            self.slots[addr] = [mark]

    def poll(self, a: Actor, name: str, addr: int, slot: str, seen, wanted, done: bool) -> None:
        ts = self._now()
        if a.wait is None:
            a.wait = [ts, 0]
        a.wait[1] += 1
        if not done:
            return
        start, rounds = a.wait
        a.wait = None
        self._put("X", a, name, start, dur=ts - start + 1,
                  args={"slot": slot, "awaited": _plain(wanted), "seen": _plain(seen), "rounds": rounds})
        for pid, tid, t in self.slots.get(addr, ()):
            self.flows += 1
            self.events.append({"ph": "s", "ts": t, "pid": pid, "tid": tid, "name": "signal", "cat": "sync",
                                "id": self.flows})
            self._put("f", a, "signal", ts, cat="sync", id=self.flows, bp="e")

    def arrive(self, a: Actor) -> None:
        a.arrived = self._now()

    def barrier(self, actors: List[Actor], team: int) -> None:
        ts = self._now()
        for a in actors:
            self._put("X", a, "barrier_all" if team == 0 else f"barrier (team {team})", a.arrived, dur=ts - a.arrived)

    def rma(self, a: Actor, name: str, nbytes: int, pe: int) -> None:
        if a.counts is not None:
            a.counts["rma"] += 1
        self._put("X", a, name, self._now(), dur=1, args={"bytes": int(nbytes), "pe": int(pe)})

    def instant(self, a: Actor, name: str, message: str) -> None:
        """A finding on ``a``'s track: ``race``, ``deadlock`` (``args.message``)."""
        self._put("i", a, name, self._now(), s="p", args={"message": message})

    def write(self, path: str) -> None:
        """Save the events as ``{"traceEvents": [...]}``, whole or not at all
        (:func:`transpiler.fileio.write_output_file`).  Raises OSError."""
        from ..fileio import write_output_file

        write_output_file(path, json.dumps({"traceEvents": self.events, "displayTimeUnit": "ns"}, separators=(",", ":")))


def _plain(v):
    """A numpy scalar as a JSON number (NaN and infinities as strings)."""
    v = getattr(v, "item", lambda: v)()
    if isinstance(v, float) and v != v or v in (float("inf"), float("-inf")):
        return str(v)
    return v


@contextmanager
def tracing(trace):
    """``trace`` as a :class:`Tracer` (None: None): a file name gets a new tracer whose events are
    written there on the way out, also when the run ends in a finding."""
    if not isinstance(trace, str):
        yield trace
        return
    tracer = Tracer()
    finished = False
    try:
        yield tracer
        finished = True
    finally:
        try:
            tracer.write(trace)
        except OSError as e:  # a full disk or /dev/full was exit 3 (attack of session 43)
            if finished:  # else the run's own finding goes on, the trace lost with it
                raise UsageError(f"--trace: cannot write '{trace}': {e.strerror or e}") from None

"""``--trace FILE`` (SPEC.md section 7, "Interface"; issue 29, "Findings you can see"): the first
schedule's run in the Chrome trace event format, read back here: every event has ``ph``, ``ts``,
``pid``, ``tid`` and ``name``; spans are ``X`` with a ``dur`` (or balanced ``B``/``E``); a
process per rank (``pid`` = rank; with ``--check-lowering`` the run after lowering is a second
set of processes), a thread per program; wait spans carry the slot, the value awaited and the
rounds; flow events go from each notify to the wait round it released; the file is the same for
the same seed; a race is an instant event.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from sim_kernels import BUILDERS, EXAMPLES
from transpiler.sim import Launch, Plan, check_lowering, simulate
from transpiler.sim.races import Race

from test_sim_races import NEAR

SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
ALLGATHER = EXAMPLES / "allgather_push" / "allgather_push.ttir"


def read_trace(path):
    """The events of a trace file, after checking the structure every viewer relies on."""
    data = json.loads(path.read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    assert events, "an empty trace"
    stacks = {}
    for e in events:
        for key in ("ph", "ts", "pid", "tid", "name"):
            assert key in e, f"{key} missing in {e}"
        assert isinstance(e["ts"], (int, float)) and isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] == "X":
            assert e["dur"] >= 0
        elif e["ph"] in "BE":
            stack = stacks.setdefault((e["pid"], e["tid"]), [])
            if e["ph"] == "B":
                stack.append(e["name"])
            else:
                assert stack, f"E without B: {e}"
                stack.pop()
        elif e["ph"] in "sf":
            assert "id" in e
        else:
            assert e["ph"] in "iMC", f"unexpected phase {e['ph']}"
    assert all(not s for s in stacks.values()), "unbalanced B/E"
    return events


def _allgather(tmp_path, name="t.json", seed=0, ranks=4):
    plan, _ = BUILDERS["allgather_push"](ALLGATHER.read_text(), ranks)
    path = tmp_path / name
    simulate(plan, seed=seed, trace=str(path))
    return plan, path


def test_allgather_push_trace_has_tracks_waits_and_flows(tmp_path):
    plan, path = _allgather(tmp_path)
    events = read_trace(path)
    names = {(e["pid"], e["args"]["name"]) for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert {pid for pid, _ in names} == {0, 1, 2, 3} and all(f"rank {pid}" in n for pid, n in names)
    threads = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert threads == {(r, t) for r in range(4) for t in range(2)}  # grid 2
    waits = [e for e in events if e["ph"] == "X" and e["name"].startswith("wait")]
    assert len(waits) == 4 * 2 * 4  # every program waits once per source rank
    assert all({"slot", "awaited", "rounds"} <= set(w["args"]) and w["args"]["rounds"] >= 1 for w in waits)
    assert all(w["args"]["awaited"] == 7 for w in waits)
    notifies = [e for e in events if e["ph"] == "i" and e["name"].startswith("notify")]
    assert len(notifies) == 4 * 2 * 4
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts and set(starts) == set(ends) and len(ends) >= len(waits)
    for k, f in ends.items():
        s = starts[k]
        assert s["ts"] <= f["ts"] and (s["pid"], s["tid"]) != (f["pid"], f["tid"]) or s["pid"] == f["pid"]
        assert any(n["pid"] == s["pid"] and n["tid"] == s["tid"] and n["ts"] == s["ts"] for n in notifies)
        assert any(w["pid"] == f["pid"] and w["tid"] == f["tid"] and w["ts"] <= f["ts"] <= w["ts"] + w["dur"] for w in waits)
    counts = Counter(e["pid"] for e in waits)
    assert counts == {r: 8 for r in range(4)}
    programs = [e for e in events if e["ph"] == "X" and e["name"].startswith("program")]
    assert len(programs) == 8 and all(e["args"] == {"loads": 1 + 4, "stores": 4 + 4, "atomics": 0, "rma": 0}
                                      for e in programs)  # its shard, then one per source; a put and a copy per peer
    for w in waits:  # every wait lies inside its program's span (spans nest on a track)
        p = next(e for e in programs if (e["pid"], e["tid"]) == (w["pid"], w["tid"]))
        assert p["ts"] <= w["ts"] and w["ts"] + w["dur"] <= p["ts"] + p["dur"]


def test_barrier_spans_for_every_sub_block(tmp_path):
    from pathlib import Path

    text = (Path(__file__).parent / "sim_inputs" / "sub_blocks.ttir").read_text()
    plan = Plan(2, {"out": "zeros(6, i64)", "seen": "zeros(6, i64)"},
                [[Launch([0, 1], text, grid=(2,), args={"out": "out", "seen": "seen", "nsub": 3})]])
    path = tmp_path / "sb.json"
    simulate(plan, sub_blocks=3, trace=str(path))
    events = read_trace(path)
    barriers = [e for e in events if e["ph"] == "X" and e["name"] == "barrier_all"]
    assert {(e["pid"], e["tid"]) for e in barriers} == {(r, t) for r in range(2) for t in range(6)}
    assert len({e["ts"] + e["dur"] for e in barriers}) == 1  # all released together
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert "program (1, 0, 0) sub-block 2" in names


def test_trace_is_deterministic_for_a_seed(tmp_path):
    _, a = _allgather(tmp_path, "a.json", seed=3)
    _, b = _allgather(tmp_path, "b.json", seed=3)
    assert a.read_bytes() == b.read_bytes()
    _, c = _allgather(tmp_path, "c.json", seed=4)
    read_trace(c)


def test_check_lowering_trace_has_both_runs(tmp_path):
    plan, _ = BUILDERS["allgather_push"](ALLGATHER.read_text(), 2)
    path = tmp_path / "both.json"
    check_lowering(plan, trace=str(path))
    events = read_trace(path)
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert set(names) == {0, 1, 2, 3}
    assert "before lowering" in names[0] and "after lowering" in names[2] and "rank 1" in names[3]
    assert any(e["ph"] == "X" and e["name"].startswith("wait") and e["pid"] >= 2 for e in events)


def test_race_is_an_instant_event_and_the_trace_is_written(tmp_path):
    path = tmp_path / "race.json"
    with pytest.raises(Race):
        simulate(Plan(2, {"out": "zeros(1, f32)"}, [[Launch([0, 1], NEAR, args={"out": "out"})]]), races=True,
                 trace=str(path))
    races = [e for e in read_trace(path) if e["ph"] == "i" and e["name"] == "race"]
    assert len(races) == 1 and "tt.store" in races[0]["args"]["message"]


def test_barrier_and_rma_spans(tmp_path):
    text = (EXAMPLES / "rma_putmem_signal" / "rma_putmem_signal.ttir").read_text()
    plan, _ = BUILDERS["rma_putmem_signal"](text, 2)
    path = tmp_path / "rma.json"
    simulate(plan, trace=str(path))
    events = read_trace(path)
    rma = [e for e in events if e["ph"] == "X" and "putmem_signal" in e["name"]]
    assert len(rma) == 2 * 2 and all(e["args"]["bytes"] == 1024 for e in rma)  # two steps, two ranks
    assert any(e["ph"] == "X" and "getmem" in e["name"] for e in events)


def test_trace_through_ttd_sim(tmp_path):
    path = tmp_path / "cli.json"
    args = [str(ALLGATHER), "--ranks", "2", "--arg", "local_ptr=arange(256)", "--arg", "symm_buf_ptr=zeros(512)",
            "--arg", "signal_ptr=zeros(32, i32)", "--arg", "out_ptr=zeros(512)", "--arg", "n_per_rank=256",
            "--arg", "epoch=1", "--trace", str(path)]
    run = subprocess.run(SIM + args, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert any(e["ph"] == "f" for e in read_trace(path))


def test_readme_races_and_trace_command(tmp_path):
    """The README's ``--races --trace`` command runs clean and writes a trace with flows."""
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    section = (root / "README.md").read_text().split("## Run a kernel on simulated ranks")[1].split("\n## ")[0]
    command = re.search(r"```\n(ttd-sim [^\n]*--races --trace [^\n]*)\n```", section).group(1)
    args = shlex.split(command)[1:]
    args[-1] = str(tmp_path / args[-1])
    run = subprocess.run(SIM + args, capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stderr
    events = read_trace(tmp_path / "allgather_push.json")
    assert sum(e["ph"] == "f" for e in events) == 16 and {e["pid"] for e in events} == {0, 1, 2, 3}


def test_unwritable_trace_file_is_a_usage_error(tmp_path):
    run = subprocess.run(SIM + [str(ALLGATHER), "--ranks", "2", "--trace", str(tmp_path / "no" / "such" / "t.json")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--trace: cannot write" in run.stderr and "Traceback" not in run.stderr


def test_deadlock_names_every_blocked_wait_in_the_trace(tmp_path):
    import re

    from transpiler.sim import Deadlock

    text = re.sub(r'^\s*"distributed\.notify"\(.*\n', "", ALLGATHER.read_text(), flags=re.M)
    plan, _ = BUILDERS["allgather_push"](text, 2)
    path = tmp_path / "dead.json"
    with pytest.raises(Deadlock):
        simulate(plan, trace=str(path))
    dead = [e for e in read_trace(path) if e["ph"] == "i" and e["name"] == "deadlock"]
    assert {(e["pid"], e["tid"]) for e in dead} == {(r, t) for r in range(2) for t in range(2)}
    assert all("waits for == 7" in e["args"]["message"] for e in dead)

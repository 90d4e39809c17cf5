"""Lowering from several threads at once gives what lowering one kernel after another gives
(issue 22: thread safety by design, ``transpiler/parser/README.md`` lists the shared state).

Triton compiles kernels from several threads when asked to, and the triton-ascend hook calls
the API from whichever thread compiles.  Each round starts 8 threads at once (a barrier) in a
fresh interpreter, so that every lazily made table, lexer and declaration is made while the
threads race for it, with the interpreter switching threads every microsecond
(``sys.setswitchinterval(1e-6)``); each thread lowers different kernels (the distributed
corpus, and a module big enough for the detail parser's compiled lexers, whose compiling the
threads then race for too), and every output and error must be the sequential one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path

from transpiler import LoweringError, lower

TESTS = Path(__file__).parent
KERNELS = sorted((TESTS / "corpus" / "distributed").rglob("*.ttir"))
THREADS = 8
FRESH_INTERPRETERS = 10
ROUNDS_EACH = 5  # 50 rounds in all, the first of each in a cold interpreter

_WORKER = r"""
import json, sys, threading, warnings
sys.setswitchinterval(1e-6)
warnings.simplefilter("ignore")
from transpiler import LoweringError, lower  # nothing read yet: every lazy table is still to make

inputs = json.load(open(sys.argv[1]))
threads, rounds = int(sys.argv[2]), int(sys.argv[3])


def outcome(name, text):
    try:
        return lower(text, filename=name)
    except LoweringError as e:
        return "error: " + str(e)


all_rounds = []
for _ in range(rounds):
    barrier = threading.Barrier(threads)
    results = [None] * threads

    def work(k):
        mine = inputs[k::threads]  # different kernels in each thread
        barrier.wait()
        results[k] = [[name, outcome(name, text)] for name, text in mine]

    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    all_rounds.append(results)
json.dump(all_rounds, sys.stdout)
"""


def _big_kernel(n: int) -> str:
    """A module with ``n`` distributed ops in one block, above the compiled lexers' size."""
    lines = ["module {", "  tt.func public @big(%buf: !tt.ptr<f32>, %peer: i32) {",
             "    %c4_i32 = arith.constant 4 : i32"]
    for i in range(n):
        lines += [f"    %p{i} = tt.addptr %buf, %c4_i32 : !tt.ptr<f32>, i32",
                  f"    %r{i} = distributed.symm_at %p{i}, %peer, : !tt.ptr<f32>",
                  f"    %v{i} = tt.load %r{i} : !tt.ptr<f32>"]
    return "\n".join(lines + ["    tt.return", "  }", "}", ""])


def _inputs():
    from transpiler.parser.detail.lexers import COMPILED_FROM

    inputs = [(p.name, p.read_text(encoding="utf-8")) for p in KERNELS]
    big = _big_kernel(500)
    assert len(big) > COMPILED_FROM
    return inputs + [("big.ttir", big)]


def _sequential(name: str, text: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return lower(text, filename=name)
        except LoweringError as e:
            return "error: " + str(e)


def test_eight_threads_give_the_sequential_outputs(tmp_path):
    inputs = _inputs()
    expected = {name: _sequential(name, text) for name, text in inputs}
    assert sum(out.startswith("error: ") for out in expected.values()) < len(expected) // 2
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(inputs))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    rounds = 0
    for _ in range(FRESH_INTERPRETERS):
        run = subprocess.run([sys.executable, "-c", _WORKER, str(path), str(THREADS), str(ROUNDS_EACH)],
                             capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr[-3000:]
        for results in json.loads(run.stdout):
            assert len(results) == THREADS
            for per_thread in results:
                for name, out in per_thread:
                    assert out == expected[name], name
            rounds += 1
    assert rounds == 50


def test_the_triton_ascend_hook_from_two_threads(monkeypatch):
    """The stage the hook inserts, called from two compiling threads at once (as Triton's
    asynchronous compile mode calls it), gives each kernel its own sequential output."""
    import types

    import transpiler.triton_ascend as hook
    from test_triton_ascend_hook import StandInBackend, install_triton

    cls = type("AscendBackend", (StandInBackend,), {})
    install_triton(monkeypatch, {"ascend": types.SimpleNamespace(compiler=cls, driver=None)})
    interval = sys.getswitchinterval()
    inputs = [(name, text) for name, text in _inputs() if name != "big.ttir"]

    def stage_outcome(stage, text):
        metadata = {}
        try:
            return stage(text, metadata), metadata.get("ttd_lower_symbols")
        except LoweringError as e:
            return "error: " + str(e), None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = {name: stage_outcome(hook.lower_stage, text) for name, text in inputs}
    hook.enable()
    try:
        sys.setswitchinterval(1e-6)
        outputs = {}

        def compile_kernels(k):
            stages = {}
            cls().add_stages(stages, types.SimpleNamespace())
            for name, text in inputs[k::2] + inputs[1 - k::2]:
                outputs[k, name] = stage_outcome(stages["ttd_lower"], text)

        barrier = threading.Barrier(2)
        pool = [threading.Thread(target=lambda k=k: (barrier.wait(), compile_kernels(k))) for k in range(2)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for t in pool:
                t.start()
            for t in pool:
                t.join()
    finally:
        sys.setswitchinterval(interval)
        hook.disable()
    assert len(outputs) == 2 * len(inputs)
    assert sum(1 for out, symbols in expected.values() if symbols) > len(inputs) // 2
    for (k, name), outcome in outputs.items():
        assert outcome == expected[name], name

"""SIGTERM, SIGHUP and SIGINT while the output is written: the temporary file is removed, an
existing output is left as it was, and the exit status is 128 + the signal.

``TTD_LOWER_TEST_PAUSE_WRITE`` (``transpiler/fileio.py``) makes every run stop halfway through
writing its output and say so by creating a file, so that the signal lands mid-write every
time; the ten runs of each signal run side by side to keep the test fast.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PUSH = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"
RUNS = 10
PREVIOUS = "previous result\n"


def _start(out_dir: Path, ready: Path, existing: bool) -> subprocess.Popen:
    out_dir.mkdir()
    if existing:
        (out_dir / "out.mlir").write_text(PREVIOUS)
    env = dict(os.environ, TTD_LOWER_TEST_PAUSE_WRITE=str(ready))
    return subprocess.Popen([sys.executable, "-m", "transpiler", str(PUSH), "-o", str(out_dir / "out.mlir")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before writing (rc={proc.returncode}): {proc.stderr.read()}")
        if time.monotonic() > deadline:
            raise AssertionError("the run never reached the write")
        time.sleep(0.01)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: signal.Signals(s).name)
def test_signal_mid_write_leaves_nothing_behind(tmp_path, signum):
    runs = []
    for n in range(RUNS):
        out_dir, ready = tmp_path / f"out{n}", tmp_path / f"ready{n}"
        existing = n % 2 == 0  # half the runs replace an existing output, half make a new one
        runs.append((out_dir, ready, existing, _start(out_dir, ready, existing)))
    for out_dir, ready, existing, proc in runs:
        _wait_for(ready, proc)
        tmp_files = [p.name for p in out_dir.iterdir() if p.name.startswith(".ttd-lower-")]
        assert len(tmp_files) == 1, "the signal must arrive while the temporary file is being written"
        proc.send_signal(signum)
    for out_dir, _ready, existing, proc in runs:
        _stdout, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 128 + signum, stderr
        assert "Traceback" not in stderr
        if existing:
            assert [p.name for p in out_dir.iterdir()] == ["out.mlir"]
            assert (out_dir / "out.mlir").read_text() == PREVIOUS
        else:
            assert list(out_dir.iterdir()) == []


def test_without_a_signal_the_paused_write_completes(tmp_path):
    out_dir, ready = tmp_path / "out", tmp_path / "ready"
    proc = _start(out_dir, ready, existing=True)
    _wait_for(ready, proc)
    ready.unlink()  # ends the pause
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert (out_dir / "out.mlir").read_text() == (ROOT / "examples" / "allgather_push" / "allgather_push.ttadapter.mlir").read_text()

"""Cached virtual environments for test tools that need another Python than the suite's.

Two tools the tests use cannot live in the suite's own environment on every Python:

* ``triton-ascend`` 3.2.0 ships wheels for CPython 3.9 to 3.11 only (the suite also runs on
  3.12 and 3.13);
* ``filecheck`` 1.0 (the FileCheck the lit tests are written for) needs Python 3.10, and the
  0.0.24 release that 3.9 can install lacks ``CHECK-NEXT`` after ``CHECK-LABEL``.

:func:`ensure` makes such an environment once, with an interpreter whose version fits (this
one, ``$TTD_SIDE_PYTHON``, ``python3.N`` on ``PATH``, or a pyenv version), and keeps it in the
``venvs`` folder of the project's one cache, ``$TTD_LOWER_CACHE`` (default
``~/.cache/ttd-lower``), next to the downstream tools' ``downstream`` folder
(``verify-downstream``'s ``project_cache()``); later runs reuse it.  ``$TTD_DOWNSTREAM_CACHE``,
the older variable, still works: ``$TTD_DOWNSTREAM_CACHE/venvs``.  An environment that an
earlier version made in ``~/.cache/ttd-downstream/venvs`` is used where it is (no second
download).  Standard library only; run as a script
(``python tests/tools/side_venv.py NAME``) it prepares one of :data:`SPECS` and prints its python.
"""

import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

#: name -> (requirements, oldest minor version, newest minor version) of Python 3.
SPECS: Dict[str, Tuple[Sequence[str], int, int]] = {
    # pybind11: imported by triton-ascend 3.2.0's backend (triton/backends/ascend/utils.py)
    # but not declared by its wheel.
    "triton-ascend": (("triton-ascend==3.2.0", "pybind11"), 9, 11),
    "filecheck": (("filecheck>=1.0,<2",), 10, 99),
    # bishengir-compile and its HIVM pipeline (tests/tools/bisheng_compile.py); wheels for
    # CPython 3.11 only, like the one verify-downstream takes bishengir-opt from.
    "ascendnpu-ir": (("ascendnpu-ir==1.2.0",), 11, 11),
}


class SideVenvError(Exception):
    """The environment could not be made (no fitting interpreter, no network, pip failed)."""


VENVS = "venvs"  # the folder of the project's cache that holds the environments
LEGACY = Path("~/.cache/ttd-downstream") / VENVS  # where versions before issue 24 made them


def _verify_downstream() -> dict:
    """The globals of ``verify-downstream`` (next to this file; no ``.py``, so not importable)."""
    import runpy

    return runpy.run_path(str(Path(__file__).with_name("verify-downstream")), run_name="verify_downstream")


def cache_root() -> Path:
    """The folder of the environments: ``$TTD_DOWNSTREAM_CACHE/venvs`` when that older variable
    is set, else ``venvs`` of the project's cache (``$TTD_LOWER_CACHE``, ``~/.cache/ttd-lower``)."""
    older = os.environ.get("TTD_DOWNSTREAM_CACHE")
    if older:
        return Path(older).expanduser().absolute() / VENVS
    return Path(_verify_downstream()["project_cache"]()) / VENVS


def _earlier(venv: Path) -> Optional[Path]:
    """The same environment, complete, where an earlier version made it; only when no cache
    variable is set (so a chosen cache is never bypassed)."""
    if os.environ.get("TTD_LOWER_CACHE") or os.environ.get("TTD_DOWNSTREAM_CACHE"):
        return None
    old = LEGACY.expanduser() / venv.name
    return old if complete(old) else None


def complete(venv: Path) -> bool:
    """Whether ``venv`` was made to the end and its python still exists (its link may point
    into an interpreter or a venv that has since been deleted: then it is made again)."""
    return (venv / ".ttd-complete").exists() and (venv / "bin" / "python").exists()


def _version(python: str) -> Optional[Tuple[int, int]]:
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = out.stdout.split()
    return (int(parts[0]), int(parts[1])) if out.returncode == 0 and len(parts) == 2 else None


def _candidates(lo: int, hi: int) -> List[str]:
    found = [sys.executable]
    if os.environ.get("TTD_SIDE_PYTHON"):
        found.insert(0, os.environ["TTD_SIDE_PYTHON"])
    for minor in range(hi if hi < 20 else 14, lo - 1, -1):  # newest first
        exe = shutil.which(f"python3.{minor}")
        if exe:
            found.append(exe)
    pyenv = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    versions = glob.glob(os.path.join(pyenv, "versions", "3.*", "bin", "python"))
    found += sorted(versions, key=lambda p: [int(x) for x in re.findall(r"\d+", p.split("versions")[-1])], reverse=True)
    return found


def find_python(lo: int, hi: int) -> Tuple[str, Tuple[int, int]]:
    """An interpreter of CPython 3.lo to 3.hi and its version.

    Raises:
        SideVenvError: none of the candidates fits.
    """
    tried = []
    for python in _candidates(lo, hi):
        version = _version(python)
        tried.append(f"{python} ({'.'.join(map(str, version)) if version else 'does not run'})")
        if version and version[0] == 3 and lo <= version[1] <= hi:
            return python, version
    raise SideVenvError(f"no Python 3.{lo}..3.{hi} found (set TTD_SIDE_PYTHON); tried: " + "; ".join(tried))


def ensure(name: str, extra: Sequence[str] = ()) -> Path:
    """The ``bin`` folder of the environment ``name`` of :data:`SPECS` (made on first use).

    ``extra``: more requirements (part of the cache key).

    Raises:
        SideVenvError: the environment cannot be made; the message says why.
    """
    requirements, lo, hi = SPECS[name]
    requirements = list(requirements) + list(extra)
    python, version = find_python(lo, hi)
    key = hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:10]
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    venv = root / f"{name}-py{version[0]}{version[1]}-{key}"
    done = venv / ".ttd-complete"
    earlier = None if complete(venv) else _earlier(venv)
    if earlier is not None:
        return earlier / "bin"
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel runs make it once
        if not complete(venv):
            shutil.rmtree(venv, ignore_errors=True)
            # from the interpreter itself, not a venv's link to it: a venv made from another
            # venv's python (a CI clone's .venv-py3.9) breaks when that clone is deleted
            steps = [[os.path.realpath(python), "-m", "venv", str(venv)],
                     [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                      *requirements]]
            for cmd in steps:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL)
                if proc.returncode != 0:
                    shutil.rmtree(venv, ignore_errors=True)
                    raise SideVenvError(f"{' '.join(cmd)} failed (rc={proc.returncode}): "
                                        f"{(proc.stdout + proc.stderr).strip()[-2000:]}")
            done.write_text(" ".join(requirements) + "\n")
    return venv / "bin"


if __name__ == "__main__":
    try:
        print(ensure(sys.argv[1], sys.argv[2:]) / "python")
    except (SideVenvError, KeyError, IndexError) as e:
        print(f"side_venv: {e!r}", file=sys.stderr)
        sys.exit(2)

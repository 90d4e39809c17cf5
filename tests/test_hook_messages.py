"""What the triton-ascend hook says when something is wrong (issue 24, items 3 and 9).

* a triton-ascend that is installed but cannot be imported (the 3.2.0 wheel imports
  ``pybind11`` without requiring it) raises :class:`TritonAscendImportError`, which says so and
  names the ``pip install`` that fixes it, not ``UnsupportedTritonAscend``;
* a lowering error inside Triton names a real file: the dump ``<dump dir>/<hash>/<kernel>.ttir``
  when ``TRITON_KERNEL_DUMP=1``, else a note says what ``<kernel>.ttir`` is and how to get it.
  (The same through the real triton-ascend 3.2.0: ``tests/test_triton_ascend_real.py``.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import transpiler.triton_ascend as hook
from transpiler import LoweringError

ROOT = Path(__file__).parents[1]
BAD = ROOT / "tests" / "corpus" / "distributed" / "cases" / "unsupported_pointee_f64.ttir"  # @fetch_f64, 5:5


@pytest.fixture
def broken_triton(tmp_path, monkeypatch):
    """A ``triton`` package on ``sys.path`` whose backend imports ``pybind11``, which is missing."""
    package = tmp_path / "triton"
    (package / "backends").mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "3.2.0"\n')
    (package / "backends" / "__init__.py").write_text("import pybind11  # as triton/backends/ascend/utils.py does\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("triton", "triton.backends"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "pybind11", None)  # `import pybind11` fails: not installed


def test_a_broken_install_says_what_to_install(broken_triton):
    with pytest.raises(hook.TritonAscendImportError) as info:
        hook.enable()
    message = str(info.value)
    assert message.startswith("triton-ascend is installed but cannot be imported: ModuleNotFoundError:")
    assert "pybind11" in message and message.endswith("; pip install pybind11 next to it")
    assert not isinstance(info.value, hook.UnsupportedTritonAscend) and isinstance(info.value, ImportError)
    assert not hook.is_enabled()


def lower_in_stage(monkeypatch, tmp_path, dump: bool, metadata=None):
    monkeypatch.delenv("TRITON_KERNEL_DUMP", raising=False)
    if dump:
        monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
        monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    text = BAD.read_text()
    with pytest.raises(LoweringError) as info:
        hook.lower_stage(text, metadata)
    return str(info.value)


def test_an_error_names_the_dump_when_dumping_is_on(monkeypatch, tmp_path):
    text = BAD.read_text()
    dumped = tmp_path / "dump" / "Q2HASH" / "fetch_f64.ttir"  # as triton 3.2's compile() writes it
    other = tmp_path / "dump" / "OTHER" / "fetch_f64.ttir"  # the same kernel name, another text
    for path, body in ((dumped, text), (other, text.replace("f64", "f32"))):
        path.parent.mkdir(parents=True)
        path.write_text(body)
    message = lower_in_stage(monkeypatch, tmp_path, dump=True)
    assert message.startswith(f"{dumped}:5:5: error: 'distributed.symm_at' op unsupported type f64"), message
    assert f"{dumped}:2:3: note: in @fetch_f64, defined here" in message
    assert "fetch_f64.ttir:5:5" not in message.replace(str(dumped), "")


def test_without_a_file_a_note_says_what_the_name_is_and_how_to_get_it(monkeypatch, tmp_path):
    message = lower_in_stage(monkeypatch, tmp_path, dump=False, metadata={"hash": "no-such-kernel"})
    assert message.startswith("fetch_f64.ttir:5:5: error:")
    assert message.splitlines()[-1] == (
        "ttd-lower: note: fetch_f64.ttir is not a file: it is the TTIR of @fetch_f64 as Triton's ttir stage made it; "
        "to have it on disk, compile with TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=DIR "
        "(it is then DIR/<hash>/fetch_f64.ttir)")


def test_a_filename_given_to_enable_is_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("TRITON_KERNEL_DUMP", raising=False)
    with pytest.raises(LoweringError) as info:
        hook.lower_stage(BAD.read_text(), None, filename="mine.ttir")
    assert str(info.value).startswith("mine.ttir:5:5: error:") and "is not a file" not in str(info.value)

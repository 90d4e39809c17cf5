"""transpiler.triton_ascend with stand-in Triton packages (every Python the suite runs on).

The real triton-ascend 3.2.0 is tested in test_triton_ascend_real.py.  What it cannot show is
here: ``knobs.runtime.add_stages_inspection_hook`` exists in upstream Triton but not in the 3.2
line, so that path can only be tested with a stand-in; so are builds the hook must refuse.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

import transpiler.triton_ascend as hook
from transpiler.api import LoweringError

CORPUS = Path(__file__).parent / "corpus" / "distributed"
PUSH = (CORPUS / "allgather_push.ttir").read_text()


class StandInBackend:
    """The shape of triton-ascend 3.2.0's AscendBackend (add_stages(self, stages, options))."""

    calls_knob = False

    def __init__(self, target="npu"):
        self.target = target

    def add_stages(self, stages, options):
        stages["ttir"] = lambda src, metadata: src
        stages["ttadapter"] = lambda src, metadata: f"linalg of {len(src)} chars"
        stages["npubin"] = lambda src, metadata: b""
        knobs = getattr(sys.modules["triton"], "knobs", None)
        if self.calls_knob and knobs.runtime.add_stages_inspection_hook is not None:  # as upstream backends do
            knobs.runtime.add_stages_inspection_hook(self, stages, options, None, None)

    def hash(self):
        return "npu-target"


def install_triton(monkeypatch, backends, knobs=False, version="3.2.0"):
    triton = types.ModuleType("triton")
    triton.__version__ = version
    sub = types.ModuleType("triton.backends")
    sub.backends = backends
    triton.backends = sub
    if knobs:
        triton.knobs = types.SimpleNamespace(runtime=types.SimpleNamespace(add_stages_inspection_hook=None))
    monkeypatch.setitem(sys.modules, "triton", triton)
    monkeypatch.setitem(sys.modules, "triton.backends", sub)
    return triton


@pytest.fixture
def backend_cls(monkeypatch):
    cls = type("AscendBackend", (StandInBackend,), {})
    install_triton(monkeypatch, {"ascend": types.SimpleNamespace(compiler=cls, driver=None)})
    yield cls
    hook.disable()


def stages_of(cls):
    stages = {}
    cls().add_stages(stages, types.SimpleNamespace())
    return stages


def test_enable_puts_ttd_lower_between_ttir_and_ttadapter_idempotently(backend_cls):
    original = backend_cls.add_stages
    hook.enable()
    hook.enable()
    assert list(stages_of(backend_cls)) == ["ttir", "ttd_lower", "ttadapter", "npubin"]
    assert backend_cls.add_stages.__wrapped__ is original  # wrapped once
    assert backend_cls().hash().startswith("npu-target-ttd_lower-") and hook.is_enabled()
    hook.disable()
    hook.disable()
    assert backend_cls.add_stages is original and list(stages_of(backend_cls)) == ["ttir", "ttadapter", "npubin"]
    assert backend_cls().hash() == "npu-target" and not hook.is_enabled()


def test_the_stage_lowers_and_records_the_symbols(backend_cls):
    hook.enable()
    metadata = {}
    out = stages_of(backend_cls)["ttd_lower"](PUSH, metadata)
    assert "distributed." not in out
    assert metadata["ttd_lower_symbols"] == hook.symbols_called(out)
    assert metadata["ttd_lower_symbols"][:2] == ["aclshmem_my_pe", "aclshmem_n_pes"]

    class Module:  # Triton hands the stage an MLIR module object; its str() is the text
        def __str__(self):
            return PUSH

    assert stages_of(backend_cls)["ttd_lower"](Module(), {}) == out


def test_options_are_passed_through_to_the_api(backend_cls, monkeypatch):
    legacy = (CORPUS / "cases" / "extern_call_missing_core_type.ttir").read_text()
    hook.enable()
    with pytest.raises(LoweringError, match="core_type_fallback"):
        stages_of(backend_cls)["ttd_lower"](legacy, {})
    hook.enable(core_type_fallback=True)  # a second call replaces the options
    assert "hivm.hir.custom" in stages_of(backend_cls)["ttd_lower"](legacy, {})
    with pytest.raises(TypeError, match="no_such_option"):
        hook.enable(no_such_option=1)

    seen = {}

    def lower(text, *, filename="<input>", device_library="bundled", lint=False):  # options added later
        seen.update(filename=filename, device_library=device_library, lint=lint)
        return text

    monkeypatch.setattr(hook, "lower", lower)
    hook.enable(device_library="1.2.0", lint=True)
    stages_of(backend_cls)["ttd_lower"](PUSH, {})
    assert seen == {"filename": "allgather_push_kernel.ttir", "device_library": "1.2.0", "lint": True}


def test_knob_path_with_a_stand_in_of_upstream_triton(monkeypatch):
    # upstream Triton's knobs.runtime.add_stages_inspection_hook; triton-ascend 3.2 has none,
    # so only a stand-in can test it.  Its backends call the hook at the end of add_stages.
    cls = type("AscendBackend", (StandInBackend,), {"calls_knob": True})
    triton = install_triton(monkeypatch, {"ascend": types.SimpleNamespace(compiler=cls)}, knobs=True)
    earlier = []

    def previous(*args):
        if not args:
            return "prev-key", "prev-hash"
        earlier.append(list(args[1]))

    triton.knobs.runtime.add_stages_inspection_hook = previous
    try:
        hook.enable()
        knob = triton.knobs.runtime.add_stages_inspection_hook
        assert knob is not previous
        key, digest = knob()  # Triton's JIT asks for a cache key with no arguments
        assert key.startswith("prev-key") and "ttd_lower" in key and len(digest) == 64
        assert list(stages_of(cls)) == ["ttir", "ttd_lower", "ttadapter", "npubin"]  # once, not twice
        assert earlier == [["ttir", "ttadapter", "npubin"]]  # the earlier hook still runs, first
        hook.enable()
        assert triton.knobs.runtime.add_stages_inspection_hook is knob
    finally:
        hook.disable()
    assert triton.knobs.runtime.add_stages_inspection_hook is previous


def test_unrecognised_triton_is_a_clear_error(monkeypatch):
    install_triton(monkeypatch, {"nvidia": types.SimpleNamespace(compiler=StandInBackend)})
    with pytest.raises(hook.UnsupportedTritonAscend, match=r"no 'ascend' backend \(backends: \['nvidia'\]\)"):
        hook.enable()
    odd = type("AscendBackend", (), {"add_stages": lambda self: None, "hash": lambda self: ""})
    install_triton(monkeypatch, {"ascend": types.SimpleNamespace(compiler=odd)})
    with pytest.raises(hook.UnsupportedTritonAscend, match=r"is not add_stages\(self, stages, options"):
        hook.enable()
    assert not hook.is_enabled()

    no_ttir = type("AscendBackend", (), {"add_stages": lambda self, stages, options: stages.update(ttgir=None),
                                         "hash": lambda self: ""})
    install_triton(monkeypatch, {"ascend": types.SimpleNamespace(compiler=no_ttir)})
    try:
        hook.enable()
        with pytest.raises(hook.UnsupportedTritonAscend, match=r"no 'ttir' stage \(stages: \['ttgir'\]\)"):
            no_ttir().add_stages({}, None)
    finally:
        hook.disable()


def test_missing_triton_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "triton", None)  # import triton raises ImportError
    with pytest.raises(hook.UnsupportedTritonAscend, match=r"triton-ascend is not installed .*pip install triton-ascend"):
        hook.enable()


def test_errors_name_the_python_line_from_the_ops_location():
    text = (CORPUS / "cases" / "unsupported_pointee_f64.ttir").read_text().rstrip("\n").splitlines()
    at = next(i for i, line in enumerate(text) if "distributed.symm_at" in line)
    text[at] += " loc(#loc9)"
    source = "\n".join(text) + '\n#loc9 = loc("/no/such/kernel.py":41:8)\n'
    with pytest.raises(LoweringError) as info:
        hook.lower_stage(source)
    diag = info.value.diagnostics[0]
    assert diag.notes[-1].message == "in the kernel's Python source"
    assert "/no/such/kernel.py:41:9: note: in the kernel's Python source" in str(info.value)
    assert str(info.value).startswith("fetch_f64.ttir:")

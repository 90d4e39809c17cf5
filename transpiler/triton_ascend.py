"""ttd-lower inside triton-ascend's compiler: a ``ttd_lower`` stage between ``ttir`` and ``ttadapter``.

In the launcher, before the first kernel is compiled::

    import transpiler.triton_ascend
    transpiler.triton_ascend.enable()          # options of transpiler.api.lower, e.g. core_type_fallback=True

From then on every kernel's stages are ``ttir``, ``ttd_lower``, ``ttadapter``, ... (SPEC.md
section 4): ``ttd_lower`` lowers the ``distributed.*`` ops of the TTIR text to
``hivm.hir.custom`` (section 2) and hands the text on; Triton's dump knobs
(``TRITON_KERNEL_DUMP=1``, ``TRITON_DUMP_DIR``) write its output as ``<kernel>.ttd_lower``.
(triton 3.2's override knob reads back only ttir, ttgir, llir, ptx and cubin files, so there
neither ``ttd_lower`` nor triton-ascend's own ``ttadapter`` can be overridden.)
``metadata["ttd_lower_symbols"]`` lists the device-library symbols the kernel calls (section 5).

Which class to patch.  triton 3.2 finds its backends by loading each
``triton/backends/<name>/compiler.py`` *again* under the bare module name ``<name>``
(``triton/backends/__init__.py``, ``_load_module``) and instantiates the class it found there
(``make_backend``).  That class is not ``triton.backends.ascend.compiler.AscendBackend`` (the
module a user imports is a second copy), so patching the imported class is silently ignored.
:func:`enable` wraps ``add_stages`` of ``triton.backends.backends["ascend"].compiler``, the class
that runs, and its ``hash`` (part of Triton's cache key, so that kernels cached without the
stage, or with other options, are not reused).  Where Triton has
``knobs.runtime.add_stages_inspection_hook`` (upstream Triton; not the 3.2 line), the stage is
also added through it, chained with a hook already there, and its no-argument call gives
Triton's JIT cache a key; the stage is never added twice.

No environment switch (``TTD_LOWER=1``): triton-ascend 3.2.0 reads no plugin or entry point,
and the only ways to run code at interpreter start (a ``.pth`` file, ``sitecustomize``) run
in every Python process of the environment, so the switch is the call above.

Errors: :class:`UnsupportedTritonAscend` when triton-ascend is missing or not one this hook
knows (no ``ascend`` backend, an ``add_stages`` of another shape, no ``ttir`` stage);
:class:`TritonAscendImportError` when it is installed but cannot be imported (a module it
lacks, such as ``pybind11``, is named with its ``pip install``);
:class:`transpiler.api.LoweringError` from the stage, whose diagnostics also name the
kernel's Python line (:mod:`transpiler.pyloc`).  triton 3.2's ``compile`` re-raises any stage's
exception as ``MLIRCompilationError`` with the diagnostics as its text; the LoweringError is its
``__context__``.  Tested against triton-ascend 3.2.0 (``tests/test_triton_ascend_real.py``).
"""

from __future__ import annotations

import hashlib
import inspect
import re
import threading
from typing import Any, Callable, Dict, List, MutableMapping, Optional

from . import __version__
from .api import LoweringError, lower
from .pyloc import add_python_source_notes

__all__ = ["STAGE", "UnsupportedTritonAscend", "TritonAscendImportError", "enable", "disable", "is_enabled", "insert_stage", "lower_stage",
           "symbols_called", "LoweringError"]

STAGE = "ttd_lower"
_MARK = "__ttd_lower_hook__"
_lock = threading.RLock()
_state: Dict[str, Any] = {"options": None, "patched": None, "knob": None}


class UnsupportedTritonAscend(RuntimeError):
    """The installed Triton / triton-ascend is not one the hook knows how to extend."""


class TritonAscendImportError(ImportError):
    """triton-ascend is installed but cannot be imported (a broken install, not an unsupported
    one): the message names the exception and, for a missing module, the ``pip install`` that
    fixes it (the 3.2.0 wheel imports ``pybind11`` without requiring it)."""

    def __init__(self, error: BaseException, fix: Optional[str]):
        hint = f"; {fix} next to it" if fix else ""
        super().__init__(f"triton-ascend is installed but cannot be imported: {type(error).__name__}: {error}{hint}")


def symbols_called(text: str) -> List[str]:
    """The ``symbol`` of each ``hivm.hir.custom`` op of ``text``, in program order (SPEC.md 2.4)."""
    found = []
    for line in text.splitlines():
        if "hivm.hir.custom" in line:
            m = re.search(r'\bsymbol = "([^"]*)"', line)
            if m:
                found.append(m.group(1))
    return found


def lower_stage(src: Any, metadata: Optional[MutableMapping] = None, **lower_options) -> str:
    """The ``ttd_lower`` stage: TTIR (a module object or its text) in, lowered TTIR text out.

    ``lower_options`` go to :func:`transpiler.api.lower` as they are (``filename`` defaults to
    the file Triton wrote the text to, its dump or its cache copy, else ``<kernel>.ttir``, after
    the module's first public ``tt.func``, with a note on how to get it: ``triton_files.py``).  ``metadata`` (Triton's
    per-kernel dict) gets ``ttd_lower_symbols``: :func:`symbols_called` of the result.

    Raises:
        LoweringError: the module cannot be lowered; each diagnostic has notes naming the
            Python line of the op (from its ``loc``) when the module has locations.
    """
    text = src if isinstance(src, str) else str(src)
    m = re.search(r"tt\.func\s+(?:public\s+)?@\"?([\w$.-]+)", text)
    kernel = m.group(1) if m else "kernel"
    named = "filename" in lower_options
    if not named:
        lower_options = dict(lower_options, filename=f"{kernel}.ttir")
    try:
        out = lower(text, **lower_options)
    except LoweringError as e:
        diagnostics = add_python_source_notes(e.diagnostics, text)
        if not named:
            from .triton_files import name_the_file

            name_the_file(diagnostics, text, lower_options["filename"], kernel, metadata)
        raise LoweringError(diagnostics) from None
    if metadata is not None:
        metadata["ttd_lower_symbols"] = symbols_called(out)
    return out


def insert_stage(stages: Dict[str, Callable], options: Any = None, **lower_options) -> bool:
    """Put the ``ttd_lower`` stage right after ``ttir`` in Triton's ordered ``stages`` dict (in place).

    ``options`` (the backend's options object) is not read: the stage is the same for every
    target and mode (with ``force_simt_only`` the TTIR goes from ``ttir`` to ``npubin``, and is
    lowered before that).  Returns False when the stage is already there.

    Raises:
        UnsupportedTritonAscend: ``stages`` has no ``ttir`` stage.
    """
    if STAGE in stages:
        return False
    if "ttir" not in stages:
        raise UnsupportedTritonAscend(f"the backend registered no 'ttir' stage (stages: {list(stages)}); "
                                      f"ttd-lower knows triton-ascend 3.2's stages ttir, ttadapter, ...")
    items = list(stages.items())
    stages.clear()
    for name, fn in items:
        stages[name] = fn
        if name == "ttir":
            stages[STAGE] = lambda src, metadata: lower_stage(src, metadata, **lower_options)
    return True


def _triton():
    try:
        import triton
        from triton.backends import backends
    except ModuleNotFoundError as e:
        if e.name == "triton":
            raise UnsupportedTritonAscend("triton-ascend is not installed (no module 'triton'): "
                                          "pip install triton-ascend (3.2.0 has wheels for CPython 3.9-3.11)") from e
        raise TritonAscendImportError(e, f"pip install {e.name.split('.')[0]}" if e.name else None) from e
    except Exception as e:  # a broken install (backend discovery raises RuntimeError)
        raise TritonAscendImportError(e, None) from e
    return triton, backends


def _ascend_backend_class():
    triton, backends = _triton()
    version = getattr(triton, "__version__", "?")
    entry = backends.get("ascend") if isinstance(backends, dict) else None
    cls = getattr(entry, "compiler", None)
    if not isinstance(cls, type):
        raise UnsupportedTritonAscend(f"Triton {version} ({getattr(triton, '__file__', '?')}) has no 'ascend' backend "
                                      f"(backends: {sorted(backends) if isinstance(backends, dict) else backends!r}): "
                                      f"install triton-ascend")
    add_stages = getattr(cls, "add_stages", None)
    try:
        params = list(inspect.signature(add_stages).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 3 and not any(p.kind == p.VAR_POSITIONAL for p in params):
        raise UnsupportedTritonAscend(f"{cls.__qualname__}.add_stages of Triton {version} is not "
                                      f"add_stages(self, stages, options, ...) (it is {add_stages!r})")
    return cls


def _options_key() -> str:
    return f"{STAGE}-{__version__}-{sorted((k, repr(v)) for k, v in (_state['options'] or {}).items())}"


def _check_options(lower_options: Dict[str, Any]) -> None:
    try:
        inspect.signature(lower).bind("", **lower_options)
    except TypeError as e:
        raise TypeError(f"enable(): {e} (the options are those of transpiler.api.lower)") from None


def _patch(cls) -> None:
    original_add_stages, original_hash = cls.add_stages, cls.hash

    def add_stages(self, stages, options, *args, **kwargs):
        result = original_add_stages(self, stages, options, *args, **kwargs)
        opts = _state["options"]
        if opts is not None:
            insert_stage(stages, options, **opts)
        return result

    def backend_hash(self):
        base = original_hash(self)
        return base if _state["options"] is None else f"{base}-{_options_key()}"

    for fn, original in ((add_stages, original_add_stages), (backend_hash, original_hash)):
        setattr(fn, _MARK, True)
        fn.__wrapped__ = original
        fn.__doc__ = original.__doc__
    cls.add_stages, cls.hash = add_stages, backend_hash
    _state["patched"] = (cls, original_add_stages, original_hash)


def _knob_runtime(triton):
    runtime = getattr(getattr(triton, "knobs", None), "runtime", None)
    return runtime if runtime is not None and hasattr(runtime, "add_stages_inspection_hook") else None


def _install_knob(triton) -> None:
    runtime = _knob_runtime(triton)
    if runtime is None or getattr(runtime.add_stages_inspection_hook, _MARK, False):
        return
    previous = runtime.add_stages_inspection_hook

    def hook(*args):
        if not args:  # Triton asks for a key of the custom pipeline (its JIT cache key)
            key = _options_key()
            if previous is not None:
                prev_key, prev_hash = previous()
                key = f"{prev_key}{key}" if prev_key else key
                return key, hashlib.sha256(f"{prev_hash}{key}".encode()).hexdigest()
            return key, hashlib.sha256(key.encode()).hexdigest()
        if previous is not None:
            previous(*args)
        _backend, stages, options = args[:3]
        opts = _state["options"]
        if opts is not None:
            insert_stage(stages, options, **opts)
        return None

    setattr(hook, _MARK, True)
    runtime.add_stages_inspection_hook = hook
    _state["knob"] = (runtime, hook, previous)


def enable(**lower_options) -> None:
    """Lower distributed ops in every kernel triton-ascend compiles from now on (idempotent).

    ``lower_options`` are keyword arguments of :func:`transpiler.api.lower` (``core_type_fallback``,
    ``link_check``, ``symbol_list``, ... and whatever options it gains), passed through as they
    are; a second call only replaces them.  Call it before the first kernel is compiled: a
    kernel Triton already holds in memory is not compiled again.

    Raises:
        UnsupportedTritonAscend: triton-ascend is missing or of a shape the hook does not know.
        TritonAscendImportError: triton-ascend is installed but its import fails (says what to install).
        TypeError: an option :func:`transpiler.api.lower` does not take.
    """
    _check_options(lower_options)
    with _lock:
        triton, _ = _triton()
        cls = _ascend_backend_class()
        if _state["patched"] is not None and _state["patched"][0] is not cls:  # another Triton was imported
            disable()
        _state["options"] = dict(lower_options)
        if not getattr(cls.add_stages, _MARK, False):
            _patch(cls)
        _install_knob(triton)


def disable() -> None:
    """Undo :func:`enable`: the backend's own ``add_stages`` and ``hash``, the knob as it was (idempotent)."""
    with _lock:
        _state["options"] = None
        if _state["patched"] is not None:
            cls, add_stages, backend_hash = _state["patched"]
            cls.add_stages, cls.hash = add_stages, backend_hash
            _state["patched"] = None
        if _state["knob"] is not None:
            runtime, hook, previous = _state["knob"]
            if runtime.add_stages_inspection_hook is hook:
                runtime.add_stages_inspection_hook = previous
            _state["knob"] = None


def is_enabled() -> bool:
    """Whether :func:`enable` is in force."""
    return _state["options"] is not None

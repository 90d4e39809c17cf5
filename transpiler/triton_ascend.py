"""Hooking ttd-lower into triton-ascend's compiler (seed ``000_...``, "Compilation Pipeline").

triton-ascend's backend registers ``stages["ttadapter"] = lambda src, metadata:
ttir_to_linalg(src, metadata, options, named_ops=True)``, and ``ttir_to_linalg`` begins with
``ttir_code = str(mod)``.  The distributed ops must become ``hivm.hir.custom`` before that
conversion, so ttd-lower runs first, on the TTIR text:

.. code-block:: python

    from transpiler.triton_ascend import install

    class AscendBackend(BaseBackend):
        def add_stages(self, stages, options, language=None):
            ...                      # the backend's own registrations
            install(stages)          # ttadapter now starts with ttd-lower

:func:`lower_ttadapter_input` is the stage function itself, for wiring it by hand.  Errors are
raised as :class:`transpiler.api.LoweringError` (one exception type, with ``diagnostics``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, MutableMapping, Optional

from .api import LoweringError, compile_checked
from .driver import Request
from .pipeline import Options

__all__ = ["install", "lower_ttadapter_input", "LoweringError"]


def lower_ttadapter_input(src: Any, metadata: Optional[MutableMapping] = None, *,
                          core_type_fallback: bool = False, filename: Optional[str] = None,
                          device_library: str = "bundled") -> str:
    """Lower the distributed ops of ``src`` (an MLIR module object or its text); returns text.

    ``metadata`` (Triton's per-kernel dict) gets ``ttd_lower_symbols``: the device-library
    symbols the kernel now calls, in program order.  ``device_library``: as ``--device-library``
    (the AscendNPU-IR release of the backend's ``bishengir-compile``, or ``bundled``).

    Raises:
        LoweringError: the module cannot be lowered (unsupported types, missing core types, ...).
    """
    text = src if isinstance(src, str) else str(src)
    name = filename or (f"{metadata['name']}.ttir" if metadata and "name" in metadata else "kernel.ttir")
    result = compile_checked(Request(text, name, Options(core_type_fallback=core_type_fallback,
                                                         device_library=device_library)))
    if metadata is not None:
        metadata["ttd_lower_symbols"] = [
            op.attributes["symbol"].value for op in result.module.walk() if op.name == "hivm.hir.custom"
        ]
    return result.text


def install(stages: Dict[str, Callable], *, core_type_fallback: bool = False, device_library: str = "bundled") -> None:
    """Make ``stages["ttadapter"]`` lower the distributed ops first, then do what it did.

    The wrapped stage receives TTIR *text*; ``ttir_to_linalg`` of triton-ascend 3.2 only calls
    ``str()`` on it.  A backend whose stage needs a module object must parse the text back
    (``ir.parse_mlir_module``) inside its own stage function.

    Raises:
        KeyError: ``stages`` has no ``ttadapter`` stage.
    """
    original = stages["ttadapter"]

    def ttadapter(src, metadata):
        return original(lower_ttadapter_input(src, metadata, core_type_fallback=core_type_fallback,
                                              device_library=device_library), metadata)

    stages["ttadapter"] = ttadapter

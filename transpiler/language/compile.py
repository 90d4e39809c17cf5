"""Compiling a ``@triton.jit`` kernel to TTIR with distributed ops, on a machine without GPU/NPU.

A launch ``kernel[grid](*args)`` on the NPU specialises the kernel on its arguments, as any
Triton launch does: a tensor becomes ``*<dtype>`` (``tt.divisibility = 16`` when its address
is a multiple of 16), an int equal to 1 becomes the constant 1, other ints ``i32``/``i64``
(``tt.divisibility = 16`` for multiples of 16), ``tl.constexpr`` parameters constants.
:func:`specialize` does exactly that with Triton's own binder, given :class:`Pointer` for each
tensor and the host's values for the rest; so a kernel whose host values differ per rank (the
rank, a peer, a team handle) is compiled once per rank.

:func:`compile_ttir` runs Triton's front end and its ``ttir`` stage (the CUDA backend's, which
needs no GPU: inliner, canonicalizer, combine, CSE, symbol DCE, loop unroll) and stops there;
the stand-in calls are then rewritten to SPEC.md section 1 ops (:mod:`.rewrite`).
:func:`compile_lowered` also lowers the result with :func:`transpiler.lower`.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import attrs

from .rewrite import rewrite_stand_ins

#: the target whose ``ttir`` stage is run (any backend's would do; CUDA's is always installed)
TARGET = ("cuda", 80, 32)
_ALIGNED = 1 << 16


@attrs.frozen
class Pointer:
    """A tensor argument as Triton's specialisation sees it: an element type and an address.

    ``dtype`` is a Triton or torch name (``"int64"``, ``"fp16"``, ``"float16"``, ``"bf16"``);
    ``address`` decides divisibility (the default is aligned, as ``aclshmem_malloc`` and torch
    allocations are).
    """

    dtype: str
    address: int = _ALIGNED

    def data_ptr(self) -> int:
        return self.address


def _backend():
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend

    target = GPUTarget(*TARGET)
    return target, make_backend(target)


def specialize(kernel, *args, **kwargs) -> Tuple[Dict[str, str], Dict[tuple, Any], Dict[tuple, list]]:
    """``(signature, constexprs, attrs)`` of ``kernel(*args, **kwargs)`` as Triton's launcher makes them.

    Raises:
        TypeError: the arguments do not bind to the kernel's parameters.
    """
    from triton.runtime.jit import create_function_from_signature

    _, backend = _backend()
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*args, **kwargs)
    _, signature, constexprs, attributes = kernel._pack_args(backend, {}, bound, specialization, options)
    return signature, constexprs, attributes


def compile_ttir(kernel, *args, filename: str = "<ttir>", stand_ins: bool = False, **kwargs) -> str:
    """The TTIR (with locations) of ``kernel`` launched with ``args``, its distributed ops in
    SPEC.md section 1 form.

    Args:
        kernel: a ``@triton.jit`` function.
        args / kwargs: the launch's arguments, :class:`Pointer` for tensors (see :func:`specialize`).
        filename: the name diagnostics of the stand-in rewrite give.
        stand_ins: return Triton's text as it is, stand-in calls not rewritten (for tests and
            for looking at what Triton made).

    Raises:
        triton.compiler.errors.CompilationError: the kernel does not compile (Triton's error,
            located in the kernel's source).
        transpiler.diagnostics.DiagnosticError: the stand-in rewrite failed (a bug here).
    """
    from triton._C.libtriton import ir
    from triton.compiler.compiler import ASTSource

    target, backend = _backend()
    signature, constexprs, attributes = specialize(kernel, *args, **kwargs)
    source = ASTSource(kernel, signature, constexprs, attributes)
    options = backend.parse_options({})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = source.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                            context)
    stages: Dict[str, Any] = {}
    backend.add_stages(stages, options, source.language)
    module = stages["ttir"](module, {})
    text = module.str()
    del module, context
    return text if stand_ins else rewrite_stand_ins(text, filename)


def compile_lowered(kernel, *args, lower_options: Dict[str, Any] = None, **kwargs) -> Tuple[str, str]:
    """``(ttir, lowered)``: :func:`compile_ttir`, then :func:`transpiler.lower` of it
    (``lower_options``: its keyword arguments).

    Raises:
        transpiler.api.LoweringError: ``ttd-lower`` refuses the TTIR (located diagnostics).
    """
    from ..api import lower

    ttir = compile_ttir(kernel, *args, **kwargs)
    name = getattr(kernel, "__name__", "kernel")
    return ttir, lower(ttir, filename=f"{name}.ttir", **(lower_options or {}))

"""Emitting an op Triton does not know: a call of a body-less stand-in function.

Inside a ``@triton.jit`` kernel a builtin gets Triton's ``_semantic`` (its builder) and
``_generator`` (the code generator, which holds the module).  :func:`emit` declares, once per
module and function type, ``tt.func private @ttd$<op>$<argument types>$<result types>``
(``noinline``: Triton's inliner leaves the call alone; no body: nothing to fold) and calls it
with the op's runtime operands at the builder's current location; the op's attributes ride on
the call.  The calls survive Triton's ``ttir`` passes (a ``tt.call`` has unknown effects: neither
CSE nor DCE touches it), and :func:`transpiler.language.rewrite.rewrite_stand_ins` turns each
into the op itself.
"""

from __future__ import annotations

import sys
from typing import Dict, List, Sequence, Tuple

from triton._C.libtriton import ir
from triton.language import core as tlc

from .rewrite import stand_in_symbol

#: an attribute to carry: (kind, value), kind "i32", "str" or "bool"
AttributeSpec = Tuple[str, object]


def _attribute(builder, kind: str, value):
    if kind == "i32":
        return builder.get_int32_attr(int(value))
    if kind == "str":
        return builder.get_string_attr(str(value))
    if kind == "bool":
        return builder.get_bool_attr(bool(value))
    raise ValueError(f"unknown attribute kind {kind!r} (expected i32, str or bool)")


def generator_of(_semantic, _generator=None):
    """The code generator that owns ``_semantic``: ``_generator`` when Triton passed it (a
    builtin that declares ``_generator``), else found on the call stack (a user's
    ``@core.extern`` function that forwards only ``_semantic``, as the public frontend's do).

    Raises:
        RuntimeError: no code generator of this builder is running (called outside a kernel).
    """
    if _generator is not None:
        return _generator
    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if getattr(owner, "semantic", None) is _semantic and hasattr(owner, "module"):
            return owner
        frame = frame.f_back
    raise RuntimeError("no @triton.jit function is being compiled with this builder")


def emit(op_name: str, args: Sequence[tlc.tensor], result_types: Sequence[tlc.dtype],
         attributes: Dict[str, AttributeSpec], _semantic, _generator) -> List[tlc.tensor]:
    """Emit ``op_name`` as a stand-in call; returns one tensor per result type.

    Args:
        op_name: one of :data:`transpiler.language.rewrite.OPS`.
        args: the operands, already Triton tensors of the op's operand types.
        result_types: Triton types of the results (``[]`` for none).
        attributes: the op's attributes, ``{name: (kind, value)}``.
        _semantic / _generator: what Triton gives a builtin.

    Raises:
        ValueError: the op name or an attribute kind is unknown.
    """
    builder = _semantic.builder
    _generator = generator_of(_semantic, _generator)
    module = _generator.module
    symbol = stand_in_symbol(op_name, [a.type.mangle() for a in args], [t.mangle() for t in result_types])
    if not module.has_function(symbol):
        declarer = ir.builder(_generator.context)  # no insertion point: the function stays detached
        fn_type = declarer.get_function_ty([a.type.to_ir(builder) for a in args],
                                           [t.to_ir(builder) for t in result_types])
        module.push_back(declarer.get_or_insert_function(module, symbol, fn_type, "private", True))
    call = builder.call(module.get_function(symbol), [a.handle for a in args])
    for name, (kind, value) in attributes.items():
        call.set_attr(name, _attribute(builder, kind, value))
    return [tlc.tensor(call.get_result(i), t) for i, t in enumerate(result_types)]


def emit_void(op_name: str, args: Sequence[tlc.tensor], attributes: Dict[str, AttributeSpec], _semantic,
              _generator) -> tlc.tensor:
    """:func:`emit` for an op without results; returns a ``void`` tensor, as Triton's own
    result-less builtins do."""
    emit(op_name, args, [], attributes, _semantic, _generator)
    return tlc.tensor(None, tlc.void)

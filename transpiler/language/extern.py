"""``triton_dist.language.extern_call`` for upstream Triton: a call of a device-library symbol.

The public signature and checks (``python/triton_dist/language/core.py``): scalar arguments
only, a table from argument-type tuples to ``(symbol, result type(s))``.  Unlike the public
frontend, the op carries ``distributed.core_type`` (SPEC.md section 2.3, the frontend's table:
:func:`transpiler.lowering.core_type.annotation_for_symbol`), which ``ttd-lower`` requires.

The table may be a dict or a sequence of ``(types, (symbol, results))`` pairs; keys are
compared with ``==``, so pointer types (unhashable in Triton 3.9) work in the pairs form.
"""

from __future__ import annotations

from typing import List, Sequence

from triton.language import core as tlc

from ..lowering.core_type import annotation_for_symbol
from .stand_in import emit


def call(symbol: str, args: Sequence[tlc.tensor], result_types: Sequence[tlc.dtype], is_pure: bool, _semantic,
         _generator, lib_name: str = "libshmem_device", lib_path: str = ""):
    """Emit ``distributed.extern_call`` of ``symbol`` on ready-typed scalar ``args``.

    Returns:
        A ``void`` tensor when the symbol has no result, its tensor for one, a tuple for more.
    """
    attributes = {"libname": ("str", lib_name), "libpath": ("str", lib_path), "pure": ("bool", is_pure),
                  "symbol": ("str", symbol), "distributed.core_type": ("str", annotation_for_symbol(symbol))}
    results = emit("distributed.extern_call", list(args), list(result_types), attributes, _semantic, _generator)
    if not results:
        return tlc.tensor(None, tlc.void)
    return results[0] if len(results) == 1 else tuple(results)


def _entries(table) -> List[tuple]:
    return list(table.items()) if isinstance(table, dict) else [tuple(e) for e in table]


@tlc.builtin
def extern_call(lib_name: str, lib_path: str, args: list, arg_type_symbol_dict, is_pure: bool, _semantic=None,
                _generator=None):
    """Call the library function that ``arg_type_symbol_dict`` gives for the argument types.

    Raises:
        ValueError: a block (non-scalar) argument, an empty table, a wrong argument count,
            argument types the table does not list, or an empty symbol (the public messages).
    """
    lib_name, lib_path, is_pure = (tlc._unwrap_if_constexpr(x) for x in (lib_name, lib_path, is_pure))
    values = [_semantic.to_tensor(a) for a in args]
    if any(v.type.is_block() for v in values):
        raise ValueError("extern call only support inputs with scalr type")
    entries = _entries(arg_type_symbol_dict)
    if not entries:
        raise ValueError("arg_type_symbol_dict is empty")
    if len(values) != len(entries[0][0]):
        raise ValueError(f"length of input args does not match. Expect {len(entries[0][0])}, got {len(values)}")
    types = tuple(v.dtype for v in values)
    found = [out for key, out in entries if len(key) == len(types) and all(a == b for a, b in zip(key, types))]
    if not found:
        raise ValueError(f"input arg type does not match. Expect one of {[k for k, _ in entries]}, got {types}")
    symbol, results = found[0]
    if not symbol:
        raise ValueError("Symbol can not be empty")
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    return call(symbol, values, results, bool(is_pure), _semantic, _generator, lib_name, lib_path)

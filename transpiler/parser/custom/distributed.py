"""Custom parse hooks of the ``distributed`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.distributed`."""

from __future__ import annotations

from ..detail.format_reader import detail_from_format
from ...ir.dialects.distributed import WAIT
from ...ir.format import FormatError
from ..detail.format_reader import Cursor, parse_format




def _parse_wait(op, items):
    """The declared format; the obsolete two-operand form gets an error that names it."""
    try:
        result = detail_from_format(WAIT, parse_format(WAIT, items))
    except FormatError:
        cur = Cursor(items)
        types = [str(i) for i in items if getattr(i, "type", None) == "TYPE"]
        if (cur.kind() == "VALUE_USE" and cur.kind(1) == "COMMA" and cur.kind(2) == "VALUE_USE"
                and cur.kind(3) == "COMMA" and str(cur.peek(4)) == "scope"
                and not any(getattr(i, "type", None) == "ARROW" for i in items)
                and types and types[0].startswith("tensor<")):
            raise FormatError(
                "uses the obsolete two-operand form 'distributed.wait %ptrs, %barrier, scope = ... : "
                "<ptrs type>, <barrier type>'; the dialect now takes (barrierPtr, numBarriers, waitValue) "
                "and returns a token: '%tok = distributed.wait %bar, %n, %v, scope = gpu semantic = acquire "
                ": !tt.ptr<i32>, i32, i32 -> i32'", cur.peek()) from None
        raise
    if result.location is not None and op.location is None:
        op.location = result.location
    return result.detail


def _no_custom_form(op, items):
    raise FormatError("has no custom form; write it in generic form: \"distributed.notify\"(%sig, %value, %rank) "
                      "<{commScope = N : i32, sigOp = N : i32}> : (!tt.ptr<T>, i64, i32) -> ()",
                      items[0] if items else None)

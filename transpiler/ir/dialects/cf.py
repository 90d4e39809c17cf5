"""``cf`` (unstructured control flow) ops as MLIR's ``ControlFlowOps.td`` declares them.

Branch operands follow their successor in parentheses, with their types
(``cf.br ^bb5(%x : f32)``); ``cf.cond_br`` has AttrSizedOperandSegments (condition, true
operands, false operands) and optional ``branch_weights`` (``weights([1, 2])``).
"""

from __future__ import annotations

from ..attributes import Attribute, DenseI32ArrayAttr
from ..dialect import NO_EFFECTS, AttrKind, OpDef, ValueSpec, register
from ..format import FormatError
from ..types import I1


class BranchWeights(AttrKind):
    """``weights([1, 2])``: the ``branch_weights`` dense i32 array."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == "BARE_ID" and str(item) == "weights"

    def parse(self, cursor) -> Attribute:
        cursor.expect_keyword("weights")
        cursor.expect("LPAR", "'('")
        cursor.expect("LSQB", "'['")
        values = []
        while cursor.kind() == "INTEGER":
            values.append(int(str(cursor.next()), 0))
            if not cursor.accept("COMMA"):
                break
        cursor.expect("RSQB", "']'")
        cursor.expect("RPAR", "')'")
        if not values:
            raise FormatError("expected branch weights", cursor.peek())
        return DenseI32ArrayAttr(tuple(values))

    def print(self, attr: Attribute) -> str:
        return "weights([" + ", ".join(map(str, getattr(attr, "values", ()))) + "])"


register(
    OpDef("cf.br", operands=(ValueSpec("destOperands", variadic=True),), successors=("dest",),
          format="$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
          effects=NO_EFFECTS),
    OpDef("cf.cond_br",
          operands=(ValueSpec("condition", type=I1), ValueSpec("trueDestOperands", variadic=True),
                    ValueSpec("falseDestOperands", variadic=True)),
          successors=("trueDest", "falseDest"), attribute_kinds={"branch_weights": BranchWeights()},
          format="$condition ($branch_weights^)? `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)?"
          " `,` $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
          segmented=True, effects=NO_EFFECTS),
)

"""``hivm.hir.custom`` (AscendNPU-IR): a call of a device-library symbol in DPS form.

Printed form (SPEC.md section 2.6, accepted by ``bishengir-opt`` 1.2.0)::

    hivm.hir.custom {<sorted attributes>} "dist.<symbol>" ins(%a, %b : Ta, Tb) outs(%e : Te) -> R

``ins``/``outs`` are omitted when empty, ``-> R`` when there are no results, and several
results are parenthesised (``-> (i32, i64)``).  The quoted name is kept as the ``name``
property; the attribute dictionary holds everything else.
"""

from __future__ import annotations


from ..attributes import UnitAttr
from ..dialect import NO_EFFECTS, READ_WRITE, OpDef, ValueSpec, all_attributes, register

CUSTOM = "hivm.hir.custom"


def _effects(op):
    """No effects with ``no_side_effect`` (an attribute or, in generic form, a property)."""
    return NO_EFFECTS if isinstance(all_attributes(op).get("no_side_effect"), UnitAttr) else READ_WRITE


register(
    OpDef(
        CUSTOM,
        operands=(ValueSpec("inputs", variadic=True), ValueSpec("outputs", variadic=True)),
        results=(ValueSpec("results", variadic=True),),
        effects=_effects,
        custom_syntax=True,
    )
)

# triton-ascend's sub_vec_id(): the index of the vector sub-block that runs the program
# (0 ... S-1, as i64), printed as in AscendNPU-IR's tests (`%2 = hivm.hir.get_sub_block_idx -> i64`).
register(OpDef("hivm.hir.get_sub_block_idx", results=(ValueSpec("result"),), format="attr-dict `->` type($result)",
               effects=NO_EFFECTS))

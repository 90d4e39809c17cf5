"""``scf`` ops: structured control flow, with the region arguments their syntax defines.

``scf.for``, ``scf.if`` and ``scf.while`` have hand-written syntax in MLIR (``SCF.cpp``); their
hooks read it, report the induction variable / iter_args / ``before`` arguments as entry-block
arguments (so that names used inside the loops resolve; SPEC.md section 2.4: loop-carried values
are not function arguments), and print it back with MLIR's spacing (``ForOp::print``,
``IfOp::print``, ``WhileOp::print``).  ``scf.yield`` and ``scf.condition`` have ODS formats
(``SCFOps.td``).
"""

from __future__ import annotations


from ..dialect import NO_EFFECTS, OpDef, ValueSpec, register
from ..types import I1


register(
    OpDef("scf.for", operands=(ValueSpec("lowerBound"), ValueSpec("upperBound"), ValueSpec("step"),
                               ValueSpec("initArgs", variadic=True)),
          results=(ValueSpec("results", variadic=True),), regions=("region",),
          custom_syntax=True, inherent=("unsignedCmp",), implicit_terminator="scf.yield",
          effects=NO_EFFECTS),
    OpDef("scf.if", operands=(ValueSpec("condition", type=I1),), results=(ValueSpec("results", variadic=True),),
          regions=("thenRegion", "elseRegion"), custom_syntax=True,
          implicit_terminator="scf.yield", effects=NO_EFFECTS),
    OpDef("scf.while", operands=(ValueSpec("inits", variadic=True),), results=(ValueSpec("results", variadic=True),),
          regions=("before", "after"), custom_syntax=True, effects=NO_EFFECTS),
    OpDef("scf.yield", operands=(ValueSpec("results", variadic=True),),
          format="attr-dict ($results^ `:` type($results))?", effects=NO_EFFECTS),
    OpDef("scf.condition", operands=(ValueSpec("condition", type=I1), ValueSpec("args", variadic=True)),
          format="`(` $condition `)` attr-dict ($args^ `:` type($args))?", effects=NO_EFFECTS),
)

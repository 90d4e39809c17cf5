"""``tt`` memory ops: loads, stores, atomics, block pointers and tensor descriptors.

Formats follow Triton's ``TritonOps.td`` (triton-ascend 3.2; descriptor ops as in upstream
Triton 3.4-3.9; ``atomic_load``/``atomic_store``/``atomic_poll`` as the 3.9 corpus writes
them), enum keywords its ``TritonAttrDefs.td``.  ODS's ``oilist(`cacheModifier` `=` $cache |
`evictionPolicy` `=` $evict)`` is read as two optional groups in that order (the order MLIR
prints).  ``functional-type(operands, results)`` is written ``$_operands`` / ``$_results``; a
type printed without its ``!tt.`` prefix (``: <tensor<64x32xf16>>``) is declared with
``stripped_types``.
"""

from __future__ import annotations

from ..dialect import NO_EFFECTS, READ_ONLY, READ_WRITE, EnumKeyword, OpDef, ValueSpec, register
from ..types import I1, I32, I64, PointerType, RankedTensorType
from .tt import like, pointee_of

CACHE_MODIFIER = EnumKeyword("CacheModifier", tuple((k, i + 1) for i, k in enumerate("none ca cg wb cs wt cv".split())))
EVICTION_POLICY = EnumKeyword("EvictionPolicy", (("evict_normal", 1), ("evict_first", 2), ("evict_last", 3)))
MEM_SEMANTIC = EnumKeyword("MemSemantic", (("relaxed", 1), ("acquire", 2), ("release", 3), ("acq_rel", 4)))
MEM_SYNC_SCOPE = EnumKeyword("MemSyncScope", (("gpu", 1), ("cta", 2), ("sys", 3)))
RMW_OP = EnumKeyword(
    "RMWOp", tuple((k, i + 1) for i, k in enumerate("and or xor add fadd max min umax umin exch".split()))
)
DESCRIPTOR_REDUCE_KIND = EnumKeyword(
    "DescriptorReduceKind", tuple((k, i) for i, k in enumerate("none add min max inc dec and or xor".split()))
)

_CACHE = "(`cacheModifier` `=` $cache^)? (`evictionPolicy` `=` $evict^)?"
_CACHE_KINDS = {"cache": CACHE_MODIFIER, "evict": EVICTION_POLICY}
_ORDERING = {"sem": MEM_SEMANTIC, "scope": MEM_SYNC_SCOPE}


def _load(detail, parsed) -> None:
    """``result`` is the pointee of ``ptr``; ``mask`` its i1 twin; ``other`` the pointee."""
    (ptr,) = parsed.types["ptr"]
    loaded = pointee_of(ptr)
    detail.result_types = [loaded] if loaded is not None else []
    detail.operand_type_hints = ([ptr, like(loaded, I1), loaded] if loaded is not None else [ptr])[: len(detail.operand_names)]


def _store(detail, parsed) -> None:
    """``value`` is the pointee of ``ptr``; ``mask`` its i1 twin."""
    (ptr,) = parsed.types["ptr"]
    stored = pointee_of(ptr)
    if stored is not None:
        detail.operand_type_hints = [ptr, stored, like(stored, I1)][: len(detail.operand_names)]


def _tensor_pointer(detail, parsed) -> None:
    """``base`` is a pointer to the element type of the block the result points to."""
    (result,) = parsed.types["result"]
    if isinstance(result, PointerType) and isinstance(result.pointee, RankedTensorType):
        detail.operand_type_hints[0] = PointerType(result.pointee.element, result.address_space)


def _advance(detail, parsed) -> None:
    (result,) = parsed.types["result"]
    detail.operand_type_hints[0] = result


def _atomic_poll(detail, parsed) -> None:
    detail.result_types = list(parsed.types["result"])


_PTR = {0: "!tt.ptr"}  # `: <tensor<...>>`: the block pointer type printed without `!tt.ptr`
_DESC = {0: "!tt.ptr", 1: "!tt.tensordesc"}
_INDICES = ValueSpec("indices", variadic=True, type=I32)

register(
    OpDef("tt.load", operands=(ValueSpec("ptr"), ValueSpec("mask", optional=True), ValueSpec("other", optional=True)),
          results=(ValueSpec("result"),), attribute_kinds=_CACHE_KINDS,
          inherent=("boundaryCheck", "padding", "isVolatile"), segmented=True,
          format=f"$ptr (`,` $mask^)? (`,` $other^)? {_CACHE} attr-dict `:` type($ptr)", infer=_load,
          effects=READ_ONLY),
    OpDef("tt.store", operands=(ValueSpec("ptr"), ValueSpec("value"), ValueSpec("mask", optional=True)),
          attribute_kinds=_CACHE_KINDS, inherent=("boundaryCheck",),
          format=f"$ptr `,` $value (`,` $mask^)? {_CACHE} attr-dict `:` type($ptr)", infer=_store,
          effects=READ_WRITE),
    # atomics
    OpDef("tt.atomic_rmw", operands=(ValueSpec("ptr"), ValueSpec("val"), ValueSpec("mask", optional=True)),
          results=(ValueSpec("result"),), attribute_kinds={"atomic_rmw_op": RMW_OP, **_ORDERING},
          format="$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`"
          " functional-type($_operands, $_results)",
          effects=READ_WRITE),
    OpDef("tt.atomic_cas", operands=(ValueSpec("ptr"), ValueSpec("cmp"), ValueSpec("val")),
          results=(ValueSpec("result"),), attribute_kinds=dict(_ORDERING),
          format="$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type($_operands, $_results)",
          effects=READ_WRITE),
    OpDef("tt.atomic_load", operands=(ValueSpec("ptr"), ValueSpec("mask", optional=True)),
          results=(ValueSpec("result"),), attribute_kinds=dict(_ORDERING),
          format="$sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:` functional-type($_operands, $_results)",
          effects=READ_WRITE),
    OpDef("tt.atomic_store", operands=(ValueSpec("ptr"), ValueSpec("value"), ValueSpec("mask", optional=True)),
          attribute_kinds=dict(_ORDERING),
          format="$sem `,` $scope `,` $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)", infer=_store,
          effects=READ_WRITE),
    OpDef("tt.atomic_poll", operands=(ValueSpec("ptr"), ValueSpec("expected")), results=(ValueSpec("result"),),
          attribute_kinds=dict(_ORDERING),
          format="$sem `,` $scope `,` $ptr `,` $expected attr-dict `:` type($ptr) `,` type($expected) `->` type($result)",
          infer=_atomic_poll, effects=READ_WRITE),
    # block pointers
    OpDef("tt.make_tensor_ptr",
          operands=(ValueSpec("base"), ValueSpec("shape", variadic=True, type=I64),
                    ValueSpec("strides", variadic=True, type=I64), ValueSpec("offsets", variadic=True, type=I32)),
          results=(ValueSpec("result"),), inherent=("order",),
          format="$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)",
          infer=_tensor_pointer, stripped_types=_PTR, effects=NO_EFFECTS),
    OpDef("tt.advance", operands=(ValueSpec("ptr"), ValueSpec("offsets", variadic=True, type=I32)),
          results=(ValueSpec("result"),), format="$ptr `,` `[` $offsets `]` attr-dict `:` type($result)",
          infer=_advance, stripped_types=_PTR, effects=NO_EFFECTS),
    # tensor descriptors
    OpDef("tt.make_tensor_descriptor",
          operands=(ValueSpec("base"), ValueSpec("shape", variadic=True, type=I32),
                    ValueSpec("strides", variadic=True, type=I64)),
          results=(ValueSpec("result"),), inherent=("padding",),
          format="$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)",
          stripped_types=_DESC, effects=NO_EFFECTS),
    OpDef("tt.descriptor_load", operands=(ValueSpec("desc"), _INDICES), results=(ValueSpec("result"),),
          attribute_kinds=_CACHE_KINDS,
          format=f"$desc `[` $indices `]` {_CACHE} attr-dict `:` type($desc) `->` type($result)", effects=READ_ONLY),
    OpDef("tt.descriptor_store", operands=(ValueSpec("desc"), ValueSpec("src"), _INDICES),
          format="$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)", effects=READ_WRITE),
    OpDef("tt.descriptor_reduce", operands=(ValueSpec("desc"), ValueSpec("src"), _INDICES),
          attribute_kinds={"kind": DESCRIPTOR_REDUCE_KIND},
          format="$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)",
          effects=READ_WRITE),
    OpDef("tt.descriptor_gather", operands=(ValueSpec("desc"), ValueSpec("x_offsets"), ValueSpec("y_offset")),
          results=(ValueSpec("result"),),
          format="$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type($_operands, $_results)",
          effects=READ_ONLY),
    OpDef("tt.descriptor_scatter",
          operands=(ValueSpec("desc"), ValueSpec("x_offsets"), ValueSpec("y_offset"), ValueSpec("src")),
          format="$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type($_operands)",
          effects=READ_WRITE),
)

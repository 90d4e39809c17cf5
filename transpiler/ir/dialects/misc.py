"""Single ops of small dialects that TTIR contains: ``ub``, ``llvm``, ``gpu``, ``ttg``.

Formats: ``ub.poison`` (UBOps.td: ``attr-dict (`<` $value^ `>`)? `:` type($result)``),
``llvm.mlir.undef`` (LLVMOps.td), ``llvm.intr.assume`` (LLVMIntrinsicOps.td, LLVM 20:
``$cond `:` type($cond) attr-dict``, with AttrSizedOperandSegments and the ``op_bundle_sizes``
property; operand bundles (``["align"(%p : ...)]``) are not read), ``gpu.barrier``
(GPUOps.td) and ``ttg.barrier`` (Triton 3.9's TritonGPUOps.td: an address-space keyword,
kept as ``#ttg.addr_space<keyword>``; not checked against a tool, which predates it).
"""

from __future__ import annotations

from ..attributes import Attribute, DenseI32ArrayAttr, OpaqueAttr
from ..dialect import NO_EFFECTS, READ_WRITE, OpDef, TokenAttrKind, ValueSpec, register
from ..types import I1
from .common import AngleAttr


class AddrSpaceKeyword(TokenAttrKind):
    """``all`` / ``local`` ...: ``#ttg.addr_space<all>``."""

    token, what = "BARE_ID", "an address space keyword"

    def decode(self, text: str, cursor) -> Attribute:
        return OpaqueAttr(f"#ttg.addr_space<{text}>")

    def print(self, attr: Attribute) -> str:
        text = str(attr)
        return text[len("#ttg.addr_space<"):-1] if text.startswith("#ttg.addr_space<") else text


def _assume(detail, parsed) -> None:
    detail.properties.setdefault("op_bundle_sizes", DenseI32ArrayAttr(()))


_BUNDLES = ("op_bundle_sizes", "op_bundle_tags")  # owned by custom<OpBundles>, which we do not read


register(
    OpDef("ub.poison", results=(ValueSpec("result"),), attribute_kinds={"value": AngleAttr()},
          format="attr-dict ($value^)? `:` type($result)", effects=NO_EFFECTS),
    OpDef("llvm.mlir.undef", results=(ValueSpec("res"),), format="attr-dict `:` type($res)", effects=NO_EFFECTS),
    OpDef("llvm.intr.assume", operands=(ValueSpec("cond", type=I1), ValueSpec("op_bundle_operands", variadic=True)),
          format="$cond `:` type($cond) attr-dict", infer=_assume, elided=_BUNDLES, segmented=True,
          inherent=_BUNDLES, effects=READ_WRITE),
    OpDef("gpu.barrier", format="attr-dict", effects=READ_WRITE),
    OpDef("ttg.barrier", attribute_kinds={"addrSpace": AddrSpaceKeyword()}, format="$addrSpace attr-dict",
          effects=READ_WRITE),
)

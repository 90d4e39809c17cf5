"""``triton.language.extra.cann.extension`` (triton-ascend) for upstream Triton: ``sub_vec_id``.

On Ascend each program of a vector kernel runs as S vector sub-blocks (2 on the 910B);
``sub_vec_id()`` is the index of the one running, 0 ... S-1, as i64.  triton-ascend emits it as
``hivm.hir.get_sub_block_idx -> i64`` (as AscendNPU-IR's tests print it, e.g.
``bishengir/test/bishengir-compile/hivm/compile-bisheng-distributed.mlir``); so does this one,
through a stand-in call (:mod:`.stand_in`).  The simulator runs each program as S sub-blocks
where a module uses it (SPEC.md section 7).
"""

from __future__ import annotations

from triton.language import core as tlc

from .stand_in import emit


@tlc.builtin
def sub_vec_id(_semantic=None, _generator=None):
    """The index of the vector sub-block running this program (i64)."""
    return emit("hivm.hir.get_sub_block_idx", [], [tlc.int64], {}, _semantic, _generator)[0]

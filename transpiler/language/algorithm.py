"""``triton_dist.language.extra.ascend.algorithm``: the tile orders the Ascend tutorials use.

Both helpers map a flat iteration number to a tile, in the order of the public helpers of the
same names (same arithmetic, so a kernel visits the same tiles): ``gemm_swizzle2d_Nz`` walks the
output tiles in column groups of ``swizzle_offset`` tiles, each group top-down then the next
bottom-up; ``dist_swizzle2d_Nz`` also picks the peer rank of each communication tile.  Integer
``//`` and ``%`` are Triton's (``arith.divsi`` / ``arith.remsi``).
"""

import triton
import triton.language as tl


@triton.jit
def dist_swizzle2d_Nz(iter_id, rank_size, data_row_shape, data_col_shape, tile_row_shape, tile_col_shape,
                      comm_npu_split=1):
    """-> (tile row, tile col, peer rank, rows in the tile, cols in the tile) of ``iter_id``."""
    rows = tl.cdiv(data_row_shape, tile_row_shape)
    cols = tl.cdiv(data_col_shape, tile_col_shape)
    per_group = comm_npu_split * rows * cols
    group = iter_id // per_group
    inside = iter_id % per_group
    group_width = comm_npu_split
    if group == tl.cdiv(rank_size, comm_npu_split) - 1:
        group_width = rank_size - comm_npu_split * group  # the last group may be narrower
    tile = inside // group_width
    stride = rank_size // comm_npu_split
    peer = group * comm_npu_split + inside % group_width
    peer = (peer * stride) % stride + (peer * stride) // rank_size
    peer = (peer + tile) % rank_size
    row = tile // cols
    col = tile % cols
    row_size = tl.minimum(data_row_shape - row * tile_row_shape, tile_row_shape)
    col_size = tl.minimum(data_col_shape - col * tile_col_shape, tile_col_shape)
    return row, col, peer, row_size, col_size


@triton.jit
def gemm_swizzle2d_Nz(iter_id, data_row_shape, data_col_shape, tile_row_shape, tile_col_shape, swizzle_offset=7):
    """-> (tile row, tile col) of output tile number ``iter_id``."""
    rows = tl.cdiv(data_row_shape, tile_row_shape)
    cols = tl.cdiv(data_col_shape, tile_col_shape)
    per_group = swizzle_offset * rows
    group = iter_id // per_group
    inside = iter_id % per_group
    group_width = swizzle_offset
    if group == tl.cdiv(cols, swizzle_offset) - 1:
        group_width = cols - swizzle_offset * group  # the last column group may be narrower
    row = inside // group_width
    col = group * swizzle_offset + inside % group_width
    if group % 2 == 1:
        row = rows - row - 1  # odd groups run bottom-up
    return row, col

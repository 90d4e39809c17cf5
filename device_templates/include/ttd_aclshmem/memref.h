// MLIR C-interface memref descriptor used by every _mlir_ciface_ wrapper.
//
// MLIR passes a memref to (and returns one from) a C-interface function as a
// pointer to this strided descriptor: allocated pointer, aligned pointer,
// element offset, then Rank sizes and Rank strides (all 64-bit).  A result
// memref comes back through an extra first pointer argument.
//
// At the level the lowering works on, a scalar `!tt.ptr<T>` becomes a rank-1
// memref and a `tensor<...x!tt.ptr<T>>` of rank R a rank-R memref, so on the
// device every element pointer lives in global memory: ElemT is spelled
// `__gm__ T` by the wrappers.
#ifndef TTD_ACLSHMEM_MEMREF_H
#define TTD_ACLSHMEM_MEMREF_H

#include <cstddef>
#include <cstdint>

#include "ttd_aclshmem/platform.h"

template <typename ElemT, std::size_t Rank>
struct memref_t {
  ElemT *allocated;
  ElemT *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

// The layout is an ABI contract with the MLIR-generated callers.
typedef memref_t<int32_t, 2> ttd_memref_layout_check_t;
static_assert(sizeof(memref_t<int32_t, 1>) == 5 * 8, "rank-1 memref is 40 bytes");
static_assert(offsetof(ttd_memref_layout_check_t, offset) == 16, "offset follows the pointers");
static_assert(offsetof(ttd_memref_layout_check_t, strides) == 40, "strides follow sizes[2]");

// Address of the first element a descriptor designates.
template <typename ElemT, std::size_t Rank>
TTD_DEVICE_INLINE ElemT *ttd_memref_data(const memref_t<ElemT, Rank> *m) {
  return m->aligned + m->offset;
}

// Copy a descriptor field by field (used by consume_token: seed 002 section
// 4.2, "CONSUME_TOKEN_*_WRAPPER returns its input unchanged").
template <typename ElemT, std::size_t Rank>
TTD_DEVICE_INLINE void ttd_memref_copy(memref_t<ElemT, Rank> *dst, const memref_t<ElemT, Rank> *src) {
  dst->allocated = src->allocated;
  dst->aligned = src->aligned;
  dst->offset = src->offset;
  for (std::size_t d = 0; d < Rank; ++d) {
    dst->sizes[d] = src->sizes[d];
    dst->strides[d] = src->strides[d];
  }
}

#endif  // TTD_ACLSHMEM_MEMREF_H

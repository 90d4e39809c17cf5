// Symmetric-address families over the 12 types: aclshmem_ptr_<T>
// (distributed.symm_at and extern_call "aclshmem_ptr") and aclshmem_<T>_p
// (distributed.notify on i64/ui64 signals uses aclshmem_int64_p /
// aclshmem_uint64_p).
#include "ttd_aclshmem/templates.h"

// Remote address of a symmetric pointer on PE pe, as a new rank-1 descriptor
// (seed 002 section 4.2: ACLSHMEM_PTR_WRAPPER wraps aclshmem_ptr()'s result
// back into a memref).  aclshmem_ptr maps "local address - local heap base +
// heap base of pe" (seed 002 section 5.3).  The descriptor points straight at
// the translated element (offset 0); size and stride are kept.
#define ACLSHMEM_PTR_WRAPPER(NAME, CTYPE)                                             \
  TTD_WRAPPER void _mlir_ciface_aclshmem_ptr_##NAME(                                  \
      TTD_PTR_MEMREF(CTYPE) *result, TTD_PTR_MEMREF(CTYPE) *symm_ptr, int32_t pe) {   \
    __gm__ CTYPE *remote = (__gm__ CTYPE *)aclshmem_ptr(TTD_GM_VOID(symm_ptr), pe);   \
    result->allocated = remote;                                                       \
    result->aligned = remote;                                                         \
    result->offset = 0;                                                               \
    result->sizes[0] = symm_ptr->sizes[0];                                            \
    result->strides[0] = symm_ptr->strides[0];                                        \
  }

// Single-element put.  Same mechanism as a signal SET: translate the address
// with aclshmem_ptr, store the scalar, then dcci_cacheline to write the line
// back to global memory so the other PE sees it (seed 002 section 6.2).
// This is the peer-to-peer (HCCS, MTE) path.
template <typename T>
TTD_DEVICE_INLINE void ttd_remote_store(__gm__ T *symm_addr, T value, int32_t pe) {
  __gm__ T *remote = (__gm__ T *)aclshmem_ptr((__gm__ void *)symm_addr, pe);
  *remote = value;
  TTD_COMPILER_BARRIER();
  dcci_cacheline((__gm__ uint8_t *)remote);
}

#define ACLSHMEM_P_WRAPPER(NAME, CTYPE)                                               \
  TTD_WRAPPER void _mlir_ciface_aclshmem_##NAME##_p(TTD_PTR_MEMREF(CTYPE) *dst,       \
                                                    CTYPE value, int32_t pe) {        \
    ttd_remote_store<CTYPE>(ttd_memref_data(dst), value, pe);                         \
  }

TTD_FOR_EACH_SHMEM_TYPE(ACLSHMEM_PTR_WRAPPER)
TTD_FOR_EACH_SHMEM_TYPE(ACLSHMEM_P_WRAPPER)
#undef ACLSHMEM_PTR_WRAPPER
#undef ACLSHMEM_P_WRAPPER

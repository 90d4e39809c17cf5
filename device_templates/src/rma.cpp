// Contiguous RMA over the 12 types, named as libshmem_device's extern_calls
// name them: aclshmem_<T>_getmem, _putmem, _getmem_nbi, _putmem_nbi,
// _putmem_signal, _putmem_signal_nbi.
//
// The count operand is a number of BYTES, whatever <T> is (SPEC 5).  Each
// wrapper forwards it unchanged to the byte-wise `void *` device API of CANN
// SHMEM, aclshmem_{get,put}mem[_nbi] / aclshmem_putmem_signal[_nbi], which
// copies chars, as AscendNPU-IR's own wrappers do (Shmem.cpp,
// ACLSHMEM_GETMEM_WRAPPER ... ACLSHMEM_PUTMEM_SIGNAL_NBI_WRAPPER, in v1.2.0,
// v1.2.0-post and master alike).  <T> only types the descriptors.
#include "ttd_aclshmem/templates.h"

// void _mlir_ciface_aclshmem_<NAME>_<OP>(dst, src, nbytes, pe)
#define ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, OP, DEVICE_FN)                              \
  TTD_WRAPPER void _mlir_ciface_aclshmem_##NAME##_##OP(                               \
      TTD_PTR_MEMREF(CTYPE) *dst, TTD_PTR_MEMREF(CTYPE) *src, uint32_t nbytes,        \
      int32_t pe) {                                                                   \
    DEVICE_FN(TTD_GM_VOID(dst), TTD_GM_VOID(src), nbytes, pe);                        \
  }

// void _mlir_ciface_aclshmem_<NAME>_<OP>(dst, src, nbytes, sig_addr, signal,
//                                        sig_op, pe): put nbytes bytes, then
// update the int32 signal at sig_addr on pe (sig_op: ACLSHMEM_SIGNAL_SET=0 /
// ADD=1).  The API takes the count as size_t.
#define ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, OP, DEVICE_FN)                       \
  TTD_WRAPPER void _mlir_ciface_aclshmem_##NAME##_##OP(                               \
      TTD_PTR_MEMREF(CTYPE) *dst, TTD_PTR_MEMREF(CTYPE) *src, uint32_t nbytes,        \
      TTD_PTR_MEMREF(int32_t) *sig_addr, int32_t signal, int32_t sig_op, int32_t pe) { \
    DEVICE_FN(TTD_GM_VOID(dst), TTD_GM_VOID(src), (size_t)nbytes,                     \
              ttd_memref_data(sig_addr), signal, sig_op, pe);                         \
  }

#define ACLSHMEM_RMA_WRAPPERS(NAME, CTYPE)                                            \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, getmem, aclshmem_getmem)                          \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, putmem, aclshmem_putmem)                          \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, getmem_nbi, aclshmem_getmem_nbi)                  \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, putmem_nbi, aclshmem_putmem_nbi)                  \
  ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, putmem_signal, aclshmem_putmem_signal)     \
  ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, putmem_signal_nbi, aclshmem_putmem_signal_nbi)

TTD_FOR_EACH_SHMEM_TYPE(ACLSHMEM_RMA_WRAPPERS)
#undef ACLSHMEM_RMA_WRAPPER
#undef ACLSHMEM_RMA_SIGNAL_WRAPPER
#undef ACLSHMEM_RMA_WRAPPERS

// Contiguous RMA over the 12 types, named as libshmem_device's extern_calls
// name them: aclshmem_<T>_getmem, _putmem, _getmem_nbi, _putmem_nbi,
// _putmem_signal, _putmem_signal_nbi.  Each forwards to the typed device API
// aclshmem_{get,put}_<T>_mem[_nbi|_signal[_nbi]], whose counts are elements.
#include "ttd_aclshmem/templates.h"

// void _mlir_ciface_aclshmem_<NAME>_<OP>(dst, src, nelems, pe)
#define ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, OP, DEVICE_FN)                              \
  TTD_WRAPPER void _mlir_ciface_aclshmem_##NAME##_##OP(                               \
      TTD_PTR_MEMREF(CTYPE) *dst, TTD_PTR_MEMREF(CTYPE) *src, uint32_t nelems,        \
      int32_t pe) {                                                                   \
    DEVICE_FN(ttd_memref_data(dst), ttd_memref_data(src), nelems, pe);                \
  }

// void _mlir_ciface_aclshmem_<NAME>_<OP>(dst, src, nelems, sig_addr, signal,
//                                        sig_op, pe): put, then update the
// int32 signal at sig_addr on pe (sig_op: ACLSHMEM_SIGNAL_SET=0 / ADD=1).
#define ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, OP, DEVICE_FN)                       \
  TTD_WRAPPER void _mlir_ciface_aclshmem_##NAME##_##OP(                               \
      TTD_PTR_MEMREF(CTYPE) *dst, TTD_PTR_MEMREF(CTYPE) *src, uint32_t nelems,        \
      TTD_PTR_MEMREF(int32_t) *sig_addr, int32_t signal, int32_t sig_op, int32_t pe) { \
    DEVICE_FN(ttd_memref_data(dst), ttd_memref_data(src), (size_t)nelems,             \
              ttd_memref_data(sig_addr), signal, sig_op, pe);                         \
  }

#define ACLSHMEM_RMA_WRAPPERS(NAME, CTYPE)                                            \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, getmem, aclshmem_get_##NAME##_mem)                \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, putmem, aclshmem_put_##NAME##_mem)                \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, getmem_nbi, aclshmem_get_##NAME##_mem_nbi)        \
  ACLSHMEM_RMA_WRAPPER(NAME, CTYPE, putmem_nbi, aclshmem_put_##NAME##_mem_nbi)        \
  ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, putmem_signal, aclshmem_put_##NAME##_mem_signal) \
  ACLSHMEM_RMA_SIGNAL_WRAPPER(NAME, CTYPE, putmem_signal_nbi,                         \
                              aclshmem_put_##NAME##_mem_signal_nbi)

TTD_FOR_EACH_SHMEM_TYPE(ACLSHMEM_RMA_WRAPPERS)
#undef ACLSHMEM_RMA_WRAPPER
#undef ACLSHMEM_RMA_SIGNAL_WRAPPER
#undef ACLSHMEM_RMA_WRAPPERS

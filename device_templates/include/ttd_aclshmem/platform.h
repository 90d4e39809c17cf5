// Device/host platform glue for the aclshmem device template library.
//
// On the NPU the sources are compiled by CANN's `bisheng -x cce`, which knows
// `__gm__` (global-memory address space), `__aicore__` (device function),
// `half` and `bfloat16_t`.  With -DTTD_HOST_BUILD the host stand-in header
// (device_templates/host/ascend_stub.h, found through -I) supplies these so
// that g++ can check and preprocess the very same sources.
#ifndef TTD_ACLSHMEM_PLATFORM_H
#define TTD_ACLSHMEM_PLATFORM_H

#if defined(TTD_HOST_BUILD)
#include "ascend_stub.h"
#endif

// Wrappers are forced inline into the kernel once bishengir-compile has linked
// the bitcode in (like every template-library function).  The host stand-in
// sets this to nothing: g++ warns about always_inline on non-inline functions.
#ifndef TTD_ALWAYS_INLINE
#define TTD_ALWAYS_INLINE __attribute__((always_inline))
#endif

// Every exported wrapper starts with this.  It must stay a plain (non-inline,
// non-static) extern "C" definition: an inline one would not be emitted into
// the bitcode, and a C++-mangled one would not match `_mlir_ciface_<symbol>`.
// gen_symbols.py relies on each definition carrying its own `extern "C"`.
#define TTD_WRAPPER extern "C" __aicore__ TTD_ALWAYS_INLINE

// Internal helpers shared by the wrappers.
#define TTD_DEVICE_INLINE __aicore__ inline

// Keeps the compiler from moving memory accesses across this point.
#define TTD_COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

#endif  // TTD_ACLSHMEM_PLATFORM_H

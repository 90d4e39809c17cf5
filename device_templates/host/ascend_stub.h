// Host stand-in for the CCE (bisheng -x cce) language extensions.
//
// CANN is not installable here (it is not on PyPI), so the library sources
// are checked and preprocessed with g++ instead: compile with
//   g++ -std=c++17 -DTTD_HOST_BUILD -I device_templates/include -I device_templates/host
// and ttd_aclshmem/platform.h pulls this header in.  It only replaces the
// language pieces; the aclshmem API itself is declared by
// ttd_aclshmem/aclshmem_api.h (the same declarations the device build uses
// without the real headers).  aclshmem_host_impl.cpp gives those functions
// trivial host bodies for the tests.
#ifndef TTD_HOST_ASCEND_STUB_H
#define TTD_HOST_ASCEND_STUB_H

#include <cstdint>

#if defined(__CCE__) || defined(__CCE_AICORE__)
#error "ascend_stub.h is for host builds only; do not define TTD_HOST_BUILD under bisheng"
#endif

// Address-space qualifier of NPU global memory.  gen_symbols.py predefines it
// as itself (-D__gm__=__gm__) so that it stays visible in symbols.txt.
#ifndef __gm__
#define __gm__
#endif

// Device-function specifier.
#ifndef __aicore__
#define __aicore__
#endif

// g++ warns about always_inline on functions not declared inline.
#define TTD_ALWAYS_INLINE

// 16-bit floating-point types: only their size and bits matter to the
// wrappers (they are stored, copied and returned, never computed on).
struct half {
  uint16_t bits;
};
struct bfloat16_t {
  uint16_t bits;
};
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit stand-ins");

#endif  // TTD_HOST_ASCEND_STUB_H

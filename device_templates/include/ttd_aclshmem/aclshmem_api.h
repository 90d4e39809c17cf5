// The part of the aclshmem device API (hicann/shmem, "ACLSHMEM") that the
// wrappers call.
//
// With -DTTD_USE_ACLSHMEM_HEADERS (build.sh --shmem-home) the real library
// headers are included and they alone declare (and, being header-only inline
// code, define) the API.  Otherwise the declarations below are used: they
// follow the real signatures, so the sources type-check on the host and the
// device bitcode references the API as external symbols.
#ifndef TTD_ACLSHMEM_API_H
#define TTD_ACLSHMEM_API_H

#include <cstddef>
#include <cstdint>

#include "ttd_aclshmem/platform.h"
#include "ttd_aclshmem/types.h"

#if defined(TTD_USE_ACLSHMEM_HEADERS)

#include "aclshmem.h"

#else  // declarations matching the real headers

typedef int aclshmem_team_t;

enum { ACLSHMEM_TEAM_INVALID = -1, ACLSHMEM_TEAM_WORLD = 0 };
// Signal operations of aclshmemx_signal_op: note SET=0, ADD=1, unlike the
// Distributed dialect's set=1, add=2 (the lowering renumbers, SPEC 2.2).
enum { ACLSHMEM_SIGNAL_SET = 0, ACLSHMEM_SIGNAL_ADD = 1 };
enum {
  ACLSHMEM_CMP_EQ = 0,
  ACLSHMEM_CMP_NE,
  ACLSHMEM_CMP_GT,
  ACLSHMEM_CMP_GE,
  ACLSHMEM_CMP_LT,
  ACLSHMEM_CMP_LE
};

extern "C" {
// PE and team queries (device/team).
__aicore__ int aclshmem_my_pe(void);
__aicore__ int aclshmem_n_pes(void);
__aicore__ int aclshmem_team_my_pe(aclshmem_team_t team);
__aicore__ int aclshmem_team_n_pes(aclshmem_team_t team);
__aicore__ int aclshmem_team_translate_pe(aclshmem_team_t src_team, int src_pe,
                                          aclshmem_team_t dest_team);

// Symmetric address translation (device/gm2gm/engine, MTE).
__aicore__ __gm__ void *aclshmem_ptr(__gm__ void *ptr, int pe);

// Collectives and memory ordering (device/gm2gm cc, mo).
__aicore__ void aclshmem_barrier(aclshmem_team_t team);
__aicore__ void aclshmem_barrier_all(void);
__aicore__ void aclshmemx_barrier_vec(aclshmem_team_t team);
__aicore__ void aclshmemx_barrier_all_vec(void);
__aicore__ void aclshmem_quiet(void);
__aicore__ void aclshmem_fence(void);

// Point-to-point signals (device/gm2gm p2p_sync).
__aicore__ void aclshmemx_signal_op(__gm__ int32_t *sig_addr, int32_t signal, int sig_op,
                                    int pe);
__aicore__ int32_t aclshmem_signal_wait_until(__gm__ int32_t *sig_addr, int cmp,
                                              int32_t cmp_val);
}  // extern "C"

// Data-cache clean+invalidate of the 64-byte line holding addr (internal
// device arch header of the library; DataCacheCleanAndInvalid underneath).
__aicore__ void dcci_cacheline(__gm__ uint8_t *addr);

// Typed contiguous RMA (device/gm2gm rma).  C++ linkage: the real library
// overloads these names.  elem_size counts elements.
#define TTD_DECLARE_TYPED_RMA(NAME, CTYPE)                                               \
  __aicore__ void aclshmem_get_##NAME##_mem(__gm__ CTYPE *dst, __gm__ CTYPE *src,      \
                                            uint32_t elem_size, int32_t pe);           \
  __aicore__ void aclshmem_put_##NAME##_mem(__gm__ CTYPE *dst, __gm__ CTYPE *src,      \
                                            uint32_t elem_size, int32_t pe);           \
  __aicore__ void aclshmem_get_##NAME##_mem_nbi(__gm__ CTYPE *dst, __gm__ CTYPE *src,  \
                                                uint32_t elem_size, int32_t pe);       \
  __aicore__ void aclshmem_put_##NAME##_mem_nbi(__gm__ CTYPE *dst, __gm__ CTYPE *src,  \
                                                uint32_t elem_size, int32_t pe);       \
  __aicore__ void aclshmem_put_##NAME##_mem_signal(                                    \
      __gm__ CTYPE *dst, __gm__ CTYPE *src, size_t elem_size, __gm__ int32_t *sig_addr, \
      int32_t signal, int sig_op, int pe);                                             \
  __aicore__ void aclshmem_put_##NAME##_mem_signal_nbi(                                \
      __gm__ CTYPE *dst, __gm__ CTYPE *src, size_t elem_size, __gm__ int32_t *sig_addr, \
      int32_t signal, int sig_op, int pe);

TTD_FOR_EACH_SHMEM_TYPE(TTD_DECLARE_TYPED_RMA)
#undef TTD_DECLARE_TYPED_RMA

#endif  // TTD_USE_ACLSHMEM_HEADERS

#endif  // TTD_ACLSHMEM_API_H

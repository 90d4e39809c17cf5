// The part of the CANN SHMEM device API (hicann/shmem, "ACLSHMEM") that the
// wrappers call.
//
// With -DTTD_USE_ACLSHMEM_HEADERS (build.sh --shmem-home) the library's own
// umbrella header, shmem.h (named so since December 2025, before its first
// tagged release; aclshmem.h before), is included and it alone declares (and,
// being header-only inline code, defines) the API.  Otherwise the
// declarations below are used: they follow the signatures of SHMEM's device
// headers (include/device/gm2gm/*.h, v1.0.0 to v1.5.1 alike), so the sources
// type-check on the host and the device bitcode references the API as
// external symbols.
#ifndef TTD_ACLSHMEM_API_H
#define TTD_ACLSHMEM_API_H

#include <cstddef>
#include <cstdint>

#include "ttd_aclshmem/platform.h"
#include "ttd_aclshmem/types.h"

#if defined(TTD_USE_ACLSHMEM_HEADERS)

#include "shmem.h"

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

// Contiguous RMA (device/gm2gm/shmem_device_rma.h, shmem_device_so.h): the
// byte-wise `void *` functions.  elem_size is SHMEM's name for the count; the
// implementation copies that many chars (it casts dst and src to char), so it
// counts bytes.  The typed aclshmem_<T>_{get,put}[_nbi] and
// aclshmem_<T>_put_signal[_nbi] (count in elements) are not used.  C++
// linkage, as in SHMEM's headers (no extern "C" around them).
__aicore__ void aclshmem_getmem(__gm__ void *dst, __gm__ void *src, uint32_t elem_size, int32_t pe);
__aicore__ void aclshmem_putmem(__gm__ void *dst, __gm__ void *src, uint32_t elem_size, int32_t pe);
__aicore__ void aclshmem_getmem_nbi(__gm__ void *dst, __gm__ void *src, uint32_t elem_size,
                                    int32_t pe);
__aicore__ void aclshmem_putmem_nbi(__gm__ void *dst, __gm__ void *src, uint32_t elem_size,
                                    int32_t pe);
__aicore__ void aclshmem_putmem_signal(__gm__ void *dst, __gm__ void *src, size_t elem_size,
                                       __gm__ int32_t *sig_addr, int32_t signal, int sig_op,
                                       int pe);
__aicore__ void aclshmem_putmem_signal_nbi(__gm__ void *dst, __gm__ void *src, size_t elem_size,
                                           __gm__ int32_t *sig_addr, int32_t signal, int sig_op,
                                           int pe);

#endif  // TTD_USE_ACLSHMEM_HEADERS

#endif  // TTD_ACLSHMEM_API_H

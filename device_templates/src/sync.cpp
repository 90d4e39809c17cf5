// Collective and point-to-point synchronisation: barriers, quiet/fence,
// signals, and the aclshmem_wait_<T> family that distributed.wait lowers to.
#include "ttd_aclshmem/templates.h"
#include "ttd_aclshmem/wait.h"

// ---- barriers, quiet, fence: forwarded as they are ------------------------

// void _mlir_ciface_<FN>(): FN().
#define ACLSHMEM_VOID_WRAPPER(FN) \
  TTD_WRAPPER void _mlir_ciface_##FN() { FN(); }

// void _mlir_ciface_<FN>(team): FN(team).
#define ACLSHMEM_TEAM_VOID_WRAPPER(FN) \
  TTD_WRAPPER void _mlir_ciface_##FN(int32_t team) { FN(team); }

ACLSHMEM_VOID_WRAPPER(aclshmem_barrier_all)
ACLSHMEM_TEAM_VOID_WRAPPER(aclshmem_barrier)
ACLSHMEM_VOID_WRAPPER(aclshmemx_barrier_all_vec)
ACLSHMEM_TEAM_VOID_WRAPPER(aclshmemx_barrier_vec)
ACLSHMEM_VOID_WRAPPER(aclshmem_quiet)
ACLSHMEM_VOID_WRAPPER(aclshmem_fence)

// ---- int32 signals ---------------------------------------------------------

// distributed.notify on an i32 signal (set and add) lowers to this, with the
// sig op already renumbered to ACLSHMEM_SIGNAL_SET=0 / ACLSHMEM_SIGNAL_ADD=1
// (SPEC 2.2).  The library does SET as a scalar store plus dcci_cacheline and
// ADD as a hardware atomic add through UB (seed 002 section 6.2).
TTD_WRAPPER void _mlir_ciface_aclshmemx_signal_op(TTD_PTR_MEMREF(int32_t) *sig_addr,
                                                  int32_t signal, int32_t sig_op, int32_t pe) {
  aclshmemx_signal_op(ttd_memref_data(sig_addr), signal, sig_op, pe);
}

// Blocks until *sig_addr <cmp> cmp_val (ACLSHMEM_CMP_EQ=0 ... ACLSHMEM_CMP_LE=5)
// and returns *sig_addr as read after the wait.  SHMEM spins while the negated
// comparison holds and returns at once for a code outside 0-5 (the same rule
// as ttd_wait_until in ttd_aclshmem/wait.h).
TTD_WRAPPER int32_t _mlir_ciface_aclshmem_signal_wait_until(TTD_PTR_MEMREF(int32_t) *sig_addr,
                                                            int32_t cmp, int32_t cmp_val) {
  return aclshmem_signal_wait_until(ttd_memref_data(sig_addr), cmp, cmp_val);
}

// ---- distributed.wait ------------------------------------------------------

// Spins until each of the num_barriers barriers equals wait_value, in order.
// Barrier i sits at element i * 64 / sizeof(T) of the barrier array: one
// 64-byte cache line per barrier, because the NPU does not keep concurrent
// writes to one line coherent (seed 002 section 4.2).  Each barrier is an
// ACLSHMEM_CMP_EQ wait (ttd_wait_until: invalidate, then read, until equal;
// seed 002 section 6.3), as AscendNPU-IR's ACLSHMEM_WAIT_WRAPPER calls
// aclshmem_<T>_wait_until(ptr, 0, waitVal).  It only reads, so many waiters
// may watch one barrier.  num_barriers stays int32_t (SPEC 5: the link check
// widens it for the releases, which take int64_t).
template <typename T>
TTD_DEVICE_INLINE int32_t ttd_wait_barriers(__gm__ T *barriers, int32_t num_barriers,
                                            T wait_value) {
  const int64_t stride = TTD_SIGNAL_SLOT_STRIDE(T);
  for (int32_t i = 0; i < num_barriers; ++i)
    ttd_wait_until<T>(barriers + i * stride, ACLSHMEM_CMP_EQ, wait_value);
  return 0;  // the token: only a data dependency for consume_token
}

// int32_t _mlir_ciface_aclshmem_wait_<NAME>(barriers, num_barriers, wait_value)
#define ACLSHMEM_WAIT_WRAPPER(NAME, CTYPE)                                            \
  TTD_WRAPPER int32_t _mlir_ciface_aclshmem_wait_##NAME(                              \
      TTD_PTR_MEMREF(CTYPE) *barriers, int32_t num_barriers, CTYPE wait_value) {      \
    return ttd_wait_barriers<CTYPE>(ttd_memref_data(barriers), num_barriers, wait_value); \
  }

TTD_FOR_EACH_WAIT_TYPE(ACLSHMEM_WAIT_WRAPPER)
#undef ACLSHMEM_WAIT_WRAPPER

// ---- aclshmem_wait_until_<T> -----------------------------------------------

// Blocks until *ivar <cmp> cmp_value, as SHMEM's aclshmem_<T>_wait_until
// does (which AscendNPU-IR's ACLSHMEM_WAIT_UNTIL_WRAPPER calls, in v1.2.0,
// v1.2.0-post and master): poll while the negated comparison holds, so a NaN
// under GT/GE/LT/LE, or a code outside 0-5, returns at once
// (ttd_aclshmem/wait.h).
// void _mlir_ciface_aclshmem_wait_until_<NAME>(ivar, cmp, cmp_value)
#define ACLSHMEM_WAIT_UNTIL_WRAPPER(NAME, CTYPE)                                    \
  TTD_WRAPPER void _mlir_ciface_aclshmem_wait_until_##NAME(                         \
      TTD_PTR_MEMREF(CTYPE) *ivar, int32_t cmp, CTYPE cmp_value) {                  \
    ttd_wait_until<CTYPE>(ttd_memref_data(ivar), cmp, cmp_value);                   \
  }

TTD_FOR_EACH_WAIT_UNTIL_TYPE(ACLSHMEM_WAIT_UNTIL_WRAPPER)
#undef ACLSHMEM_WAIT_UNTIL_WRAPPER

// Collective and point-to-point synchronisation: barriers, quiet/fence,
// signals, and the aclshmem_wait_<T> family that distributed.wait lowers to.
#include "ttd_aclshmem/templates.h"

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
// and returns the value that satisfied it.
TTD_WRAPPER int32_t _mlir_ciface_aclshmem_signal_wait_until(TTD_PTR_MEMREF(int32_t) *sig_addr,
                                                            int32_t cmp, int32_t cmp_val) {
  return aclshmem_signal_wait_until(ttd_memref_data(sig_addr), cmp, cmp_val);
}

// ---- distributed.wait ------------------------------------------------------

// Spins until each of the num_barriers barriers equals wait_value.  Barrier i
// sits at element i * 64 / sizeof(T) of the barrier array: one 64-byte cache
// line per barrier, because the NPU does not keep concurrent writes to one
// line coherent (seed 002 section 4.2).  Each round first invalidates the
// line, then reads it: the wait is a local spin with no hardware blocking and
// relies on dropping the cached copy every time (seed 002 section 6.3).  It
// only reads, so many waiters may watch one barrier.
template <typename T>
TTD_DEVICE_INLINE int32_t ttd_wait_barriers(__gm__ T *barriers, int32_t num_barriers,
                                            T wait_value) {
  const int64_t stride = TTD_SIGNAL_SLOT_STRIDE(T);
  for (int32_t i = 0; i < num_barriers; ++i) {
    __gm__ T *slot = barriers + i * stride;
    do {
      dcci_cacheline((__gm__ uint8_t *)slot);
    } while (*(__gm__ volatile T *)slot != wait_value);
  }
  // Later loads of the data the barriers guard must not move above the spin.
  TTD_COMPILER_BARRIER();
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

// True when v <cmp> value (ACLSHMEM_CMP_EQ=0, NE, GT, GE, LT, LE=5).
template <typename T>
TTD_DEVICE_INLINE bool ttd_compare(T v, int32_t cmp, T value) {
  switch (cmp) {
    case ACLSHMEM_CMP_EQ: return v == value;
    case ACLSHMEM_CMP_NE: return v != value;
    case ACLSHMEM_CMP_GT: return v > value;
    case ACLSHMEM_CMP_GE: return v >= value;
    case ACLSHMEM_CMP_LT: return v < value;
    default: return v <= value;
  }
}

// Blocks until *ivar <cmp> cmp_value, as the library's aclshmem_<T>_wait_until
// does: the same invalidate-then-read spin as the wait above, on one element.
// AscendNPU-IR master's Shmem.cpp has this family (ACLSHMEM_WAIT_UNTIL_WRAPPER).
template <typename T>
TTD_DEVICE_INLINE void ttd_wait_until(__gm__ T *ivar, int32_t cmp, T cmp_value) {
  for (;;) {
    dcci_cacheline((__gm__ uint8_t *)ivar);
    if (ttd_compare<T>(*(__gm__ volatile T *)ivar, cmp, cmp_value)) break;
  }
  TTD_COMPILER_BARRIER();
}

// void _mlir_ciface_aclshmem_wait_until_<NAME>(ivar, cmp, cmp_value)
#define ACLSHMEM_WAIT_UNTIL_WRAPPER(NAME, CTYPE)                                    \
  TTD_WRAPPER void _mlir_ciface_aclshmem_wait_until_##NAME(                         \
      TTD_PTR_MEMREF(CTYPE) *ivar, int32_t cmp, CTYPE cmp_value) {                  \
    ttd_wait_until<CTYPE>(ttd_memref_data(ivar), cmp, cmp_value);                   \
  }

TTD_FOR_EACH_WAIT_UNTIL_TYPE(ACLSHMEM_WAIT_UNTIL_WRAPPER)
#undef ACLSHMEM_WAIT_UNTIL_WRAPPER

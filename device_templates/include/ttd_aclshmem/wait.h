// The spin of a point-to-point wait, as CANN SHMEM spins: used by the wrappers
// aclshmem_wait_<T> and aclshmem_wait_until_<T> (src/sync.cpp), and by the
// host emulation's aclshmem_signal_wait_until (host/aclshmem_host_impl.cpp),
// so that all three follow one rule.
#ifndef TTD_ACLSHMEM_WAIT_H
#define TTD_ACLSHMEM_WAIT_H

#include <cstdint>

#include "ttd_aclshmem/aclshmem_api.h"
#include "ttd_aclshmem/platform.h"

// True while a wait for `v <cmp> value` goes on polling: the NEGATED
// comparison, spelt out per code as SHMEM spells its loops
// (src/device/gm2gm/shmem_device_p2p_sync.hpp, aclshmemi_signal_wait_until_eq
// ... _le: GT polls `while (*ivar <= cmp_value)`, and so on), not as
// `!(v > value)`.  The two differ for a float NaN, where every ordered
// comparison is false: GT, GE, LT and LE stop at once, NE stops, EQ polls for
// ever.
template <typename T>
TTD_DEVICE_INLINE bool ttd_wait_goes_on(T v, int32_t cmp, T value) {
  switch (cmp) {
    case ACLSHMEM_CMP_EQ: return v != value;
    case ACLSHMEM_CMP_NE: return v == value;
    case ACLSHMEM_CMP_GT: return v <= value;
    case ACLSHMEM_CMP_GE: return v < value;
    case ACLSHMEM_CMP_LT: return v >= value;
    case ACLSHMEM_CMP_LE: return v > value;
    default: return false;
  }
}

// Blocks until the wait on *ivar ends (see above).  Each round invalidates
// the 64-byte line (dcci_cacheline), then reads the element: a local spin
// that relies on dropping the cached copy every time (seed 002 section 6.3),
// at least one round for a code in 0-5.  A code outside 0-5 returns at once
// without reading, as SHMEM's aclshmemi_wait_until (a switch over the six
// codes with no default) does.
template <typename T>
TTD_DEVICE_INLINE void ttd_wait_until(__gm__ T *ivar, int32_t cmp, T cmp_value) {
  if (cmp < ACLSHMEM_CMP_EQ || cmp > ACLSHMEM_CMP_LE) return;
  do {
    dcci_cacheline((__gm__ uint8_t *)ivar);
  } while (ttd_wait_goes_on<T>(*(__gm__ volatile T *)ivar, cmp, cmp_value));
  // Later loads of the data the wait guards must not move above the spin.
  TTD_COMPILER_BARRIER();
}

#endif  // TTD_ACLSHMEM_WAIT_H

// Controls of the host implementation of the aclshmem device API
// (aclshmem_host_impl.cpp), for tests that run the wrappers on the host: the
// self-test executable (selftest.cpp) and the shared library that
// tests/tools/host_library.py loads with ctypes (hence extern "C").
#ifndef TTD_HOST_ACLSHMEM_HOST_IMPL_H
#define TTD_HOST_ACLSHMEM_HOST_IMPL_H

#include <cstddef>
#include <cstdint>

extern "C" {
// Simulated symmetric heaps: heap_bases[p] is PE p's copy, each heap_size
// bytes; the calling PE is my_pe.  aclshmem_ptr(ptr, pe) maps ptr's offset
// inside the calling PE's heap onto PE pe's heap.  With no heaps set,
// aclshmem_ptr is the identity.  The array is copied.
void ttd_host_set_heaps(void *const *heap_bases, int n_pes, std::size_t heap_size, int my_pe);

// Called on every dcci_cacheline (a wait's poll, a _p's flush) with the
// address; lets a test play the remote writer.  nullptr removes it.
typedef void (*ttd_host_dcci_hook_t)(void *addr);
void ttd_host_set_dcci_hook(ttd_host_dcci_hook_t hook);

// dcci_cacheline gives up after this many calls (default 1000000) and resets
// the count, so that a wait that never ends fails instead of hanging: see
// ttd_host_set_throw.
void ttd_host_set_dcci_limit(long limit);

// Calls of dcci_cacheline since the last ttd_host_set_dcci_limit.
long ttd_host_dcci_calls(void);

// How the emulation fails.  0 (default): print a message and abort the
// program.  1: throw ttd_host_stuck (the dcci limit was reached: a wait that
// never ends) or ttd_host_error (an address outside the heaps, a bad pe),
// for a caller that catches them (the guards host_library.py generates), and
// check in addition that every polled address and every RMA range lies in
// the heaps.
void ttd_host_set_throw(int on);

// The message of the last ttd_host_error ("" if none).
const char *ttd_host_last_error(void);
}  // extern "C"

struct ttd_host_stuck {};
struct ttd_host_error {};

#endif  // TTD_HOST_ACLSHMEM_HOST_IMPL_H

// Controls of the host implementation of the aclshmem device API
// (aclshmem_host_impl.cpp), for tests that run the wrappers on the host.
#ifndef TTD_HOST_ACLSHMEM_HOST_IMPL_H
#define TTD_HOST_ACLSHMEM_HOST_IMPL_H

#include <cstddef>
#include <cstdint>

// Simulated symmetric heaps: heap_bases[p] is PE p's copy, each heap_size
// bytes.  aclshmem_ptr(ptr, pe) maps ptr's offset inside the calling PE's
// heap onto PE pe's heap.  With no heaps set, aclshmem_ptr is the identity.
void ttd_host_set_heaps(void *const *heap_bases, int n_pes, std::size_t heap_size, int my_pe);

// Called on every dcci_cacheline (a wait's poll, a _p's flush) with the
// address; lets a test play the remote writer.  nullptr removes it.
typedef void (*ttd_host_dcci_hook_t)(void *addr);
void ttd_host_set_dcci_hook(ttd_host_dcci_hook_t hook);

// dcci_cacheline aborts the program after this many calls (default 1000000),
// so that a wait polling the wrong element fails instead of hanging.
void ttd_host_set_dcci_limit(long limit);

#endif  // TTD_HOST_ACLSHMEM_HOST_IMPL_H

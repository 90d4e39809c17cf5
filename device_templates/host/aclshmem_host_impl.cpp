// Trivial host bodies for the aclshmem device API declared by
// ttd_aclshmem/aclshmem_api.h, so the wrappers can run in host tests:
// PEs are simulated by plain arrays (ttd_host_set_heaps), barriers and
// quiet/fence do nothing, RMA is memcpy, and dcci_cacheline only counts and
// calls the test's hook.  Build with -DTTD_HOST_BUILD, like the sources.
#include "aclshmem_host_impl.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ttd_aclshmem/templates.h"

namespace {
void *const *g_heaps = nullptr;
int g_n_pes = 1;
int g_my_pe = 0;
std::size_t g_heap_size = 0;
ttd_host_dcci_hook_t g_hook = nullptr;
long g_dcci_calls = 0;
long g_dcci_limit = 1000000;
}  // namespace

void ttd_host_set_heaps(void *const *heap_bases, int n_pes, std::size_t heap_size, int my_pe) {
  g_heaps = heap_bases;
  g_n_pes = n_pes;
  g_heap_size = heap_size;
  g_my_pe = my_pe;
}

void ttd_host_set_dcci_hook(ttd_host_dcci_hook_t hook) { g_hook = hook; }

void ttd_host_set_dcci_limit(long limit) {
  g_dcci_limit = limit;
  g_dcci_calls = 0;
}

extern "C" {
int aclshmem_my_pe(void) { return g_my_pe; }
int aclshmem_n_pes(void) { return g_n_pes; }
int aclshmem_team_my_pe(aclshmem_team_t team) { return team == ACLSHMEM_TEAM_WORLD ? g_my_pe : -1; }
int aclshmem_team_n_pes(aclshmem_team_t team) { return team == ACLSHMEM_TEAM_WORLD ? g_n_pes : -1; }
int aclshmem_team_translate_pe(aclshmem_team_t src_team, int src_pe, aclshmem_team_t dest_team) {
  return src_team == ACLSHMEM_TEAM_WORLD && dest_team == ACLSHMEM_TEAM_WORLD ? src_pe : -1;
}

void *aclshmem_ptr(void *ptr, int pe) {
  if (g_heaps == nullptr) return ptr;
  const char *local = static_cast<const char *>(g_heaps[g_my_pe]);
  const std::size_t offset = static_cast<std::size_t>(static_cast<char *>(ptr) - local);
  if (offset >= g_heap_size || pe < 0 || pe >= g_n_pes) {
    std::fprintf(stderr, "aclshmem_ptr: %p is not in the symmetric heap or pe %d is invalid\n",
                 ptr, pe);
    std::abort();
  }
  return static_cast<char *>(g_heaps[pe]) + offset;
}

void aclshmem_barrier(aclshmem_team_t) {}
void aclshmem_barrier_all(void) {}
void aclshmemx_barrier_vec(aclshmem_team_t) {}
void aclshmemx_barrier_all_vec(void) {}
void aclshmem_quiet(void) {}
void aclshmem_fence(void) {}

void aclshmemx_signal_op(int32_t *sig_addr, int32_t signal, int sig_op, int pe) {
  int32_t *remote = static_cast<int32_t *>(aclshmem_ptr(sig_addr, pe));
  *remote = sig_op == ACLSHMEM_SIGNAL_ADD ? *remote + signal : signal;
}

int32_t aclshmem_signal_wait_until(int32_t *sig_addr, int cmp, int32_t cmp_val) {
  for (;;) {
    dcci_cacheline(reinterpret_cast<uint8_t *>(sig_addr));
    const int32_t v = *static_cast<volatile int32_t *>(sig_addr);
    const bool done = cmp == ACLSHMEM_CMP_EQ   ? v == cmp_val
                      : cmp == ACLSHMEM_CMP_NE ? v != cmp_val
                      : cmp == ACLSHMEM_CMP_GT ? v > cmp_val
                      : cmp == ACLSHMEM_CMP_GE ? v >= cmp_val
                      : cmp == ACLSHMEM_CMP_LT ? v < cmp_val
                                               : v <= cmp_val;
    if (done) return v;
  }
}
}  // extern "C"

void dcci_cacheline(uint8_t *addr) {
  if (++g_dcci_calls > g_dcci_limit) {
    std::fprintf(stderr, "dcci_cacheline: more than %ld calls, a wait never finished\n",
                 g_dcci_limit);
    std::abort();
  }
  if (g_hook != nullptr) g_hook(addr);
}

#define TTD_HOST_TYPED_RMA(NAME, CTYPE)                                                      \
  void aclshmem_get_##NAME##_mem(CTYPE *dst, CTYPE *src, uint32_t n, int32_t pe) {          \
    std::memcpy(dst, aclshmem_ptr(src, pe), n * sizeof(CTYPE));                             \
  }                                                                                         \
  void aclshmem_put_##NAME##_mem(CTYPE *dst, CTYPE *src, uint32_t n, int32_t pe) {          \
    std::memcpy(aclshmem_ptr(dst, pe), src, n * sizeof(CTYPE));                             \
  }                                                                                         \
  void aclshmem_get_##NAME##_mem_nbi(CTYPE *dst, CTYPE *src, uint32_t n, int32_t pe) {      \
    aclshmem_get_##NAME##_mem(dst, src, n, pe);                                             \
  }                                                                                         \
  void aclshmem_put_##NAME##_mem_nbi(CTYPE *dst, CTYPE *src, uint32_t n, int32_t pe) {      \
    aclshmem_put_##NAME##_mem(dst, src, n, pe);                                             \
  }                                                                                         \
  void aclshmem_put_##NAME##_mem_signal(CTYPE *dst, CTYPE *src, size_t n, int32_t *sig_addr, \
                                        int32_t signal, int sig_op, int pe) {               \
    aclshmem_put_##NAME##_mem(dst, src, static_cast<uint32_t>(n), pe);                      \
    aclshmemx_signal_op(sig_addr, signal, sig_op, pe);                                      \
  }                                                                                         \
  void aclshmem_put_##NAME##_mem_signal_nbi(CTYPE *dst, CTYPE *src, size_t n,               \
                                            int32_t *sig_addr, int32_t signal, int sig_op,  \
                                            int pe) {                                       \
    aclshmem_put_##NAME##_mem_signal(dst, src, n, sig_addr, signal, sig_op, pe);            \
  }

TTD_FOR_EACH_SHMEM_TYPE(TTD_HOST_TYPED_RMA)
#undef TTD_HOST_TYPED_RMA

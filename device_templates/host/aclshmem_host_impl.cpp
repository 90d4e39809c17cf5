// Host bodies for the aclshmem device API declared by
// ttd_aclshmem/aclshmem_api.h, so the wrappers can run in host tests.  They
// follow CANN SHMEM's device code where its behaviour shows in memory:
// PEs are simulated by plain arrays (ttd_host_set_heaps), barriers and
// quiet/fence do nothing, RMA copies BYTES (aclshmem_getmem and friends cast
// to char and copy elem_size chars), signal_op does SET and ADD and nothing
// for another code, signal_wait_until spins as SHMEM does (ttd_aclshmem/
// wait.h), and dcci_cacheline only counts and calls the test's hook.  Build
// with -DTTD_HOST_BUILD, like the sources.
#include "aclshmem_host_impl.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ttd_aclshmem/templates.h"
#include "ttd_aclshmem/wait.h"

namespace {
std::vector<char *> g_heaps;
int g_my_pe = 0;
std::size_t g_heap_size = 0;
ttd_host_dcci_hook_t g_hook = nullptr;
long g_dcci_calls = 0;
long g_dcci_limit = 1000000;
bool g_throw = false;
char g_last_error[512] = "";

[[noreturn]] void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_last_error, sizeof g_last_error, format, args);
  va_end(args);
  if (g_throw) throw ttd_host_error();
  std::fprintf(stderr, "%s\n", g_last_error);
  std::abort();
}

// PE whose heap holds [p, p + n), or -1 when p is in no heap.  A range that
// starts in a heap and leaves it is an error.
int heap_of(const void *p, std::size_t n) {
  const char *c = static_cast<const char *>(p);
  for (std::size_t pe = 0; pe < g_heaps.size(); ++pe) {
    if (c < g_heaps[pe] || c >= g_heaps[pe] + g_heap_size) continue;
    if (static_cast<std::size_t>(c - g_heaps[pe]) + n > g_heap_size)
      fail("%zu bytes at offset %td of PE %zu's heap run past its end (%zu bytes)", n,
           c - g_heaps[pe], pe, g_heap_size);
    return static_cast<int>(pe);
  }
  return -1;
}

// A local operand of n bytes: in the heaps, or (throw mode off: the self-test's
// own arrays) anywhere.
void check_local(const void *p, std::size_t n) {
  if (heap_of(p, n) < 0 && g_throw && !g_heaps.empty())
    fail("address %p is in no PE's heap", p);
}

// PE pe's copy of the n bytes at symmetric address ptr of the calling PE.
char *remote(void *ptr, int pe, std::size_t n) {
  char *r = static_cast<char *>(aclshmem_ptr(ptr, pe));
  if (!g_heaps.empty()) heap_of(r, n);
  return r;
}
}  // namespace

void ttd_host_set_heaps(void *const *heap_bases, int n_pes, std::size_t heap_size, int my_pe) {
  g_heaps.assign(n_pes, nullptr);
  for (int pe = 0; pe < n_pes; ++pe) g_heaps[pe] = static_cast<char *>(heap_bases[pe]);
  g_heap_size = heap_size;
  g_my_pe = my_pe;
}

void ttd_host_set_dcci_hook(ttd_host_dcci_hook_t hook) { g_hook = hook; }

void ttd_host_set_dcci_limit(long limit) {
  g_dcci_limit = limit;
  g_dcci_calls = 0;
}

long ttd_host_dcci_calls(void) { return g_dcci_calls; }

void ttd_host_set_throw(int on) { g_throw = on != 0; }

const char *ttd_host_last_error(void) { return g_last_error; }

extern "C" {
int aclshmem_my_pe(void) { return g_my_pe; }
int aclshmem_n_pes(void) { return g_heaps.empty() ? 1 : static_cast<int>(g_heaps.size()); }
// The host knows the world team (handle 0) only; any other handle answers -1.
int aclshmem_team_my_pe(aclshmem_team_t team) {
  return team == ACLSHMEM_TEAM_WORLD ? aclshmem_my_pe() : -1;
}
int aclshmem_team_n_pes(aclshmem_team_t team) {
  return team == ACLSHMEM_TEAM_WORLD ? aclshmem_n_pes() : -1;
}
int aclshmem_team_translate_pe(aclshmem_team_t src_team, int src_pe, aclshmem_team_t dest_team) {
  return src_team == ACLSHMEM_TEAM_WORLD && dest_team == ACLSHMEM_TEAM_WORLD ? src_pe : -1;
}

void *aclshmem_ptr(void *ptr, int pe) {
  if (g_heaps.empty()) return ptr;
  const char *local = g_heaps[g_my_pe];
  const char *c = static_cast<const char *>(ptr);
  if (c < local || c >= local + g_heap_size)
    fail("aclshmem_ptr: %p is not in the symmetric heap of the calling PE %d", ptr, g_my_pe);
  if (pe < 0 || pe >= static_cast<int>(g_heaps.size()))
    fail("aclshmem_ptr: pe %d is not in 0..%zu", pe, g_heaps.size() - 1);
  return g_heaps[pe] + (c - local);
}

void aclshmem_barrier(aclshmem_team_t) {}
void aclshmem_barrier_all(void) {}
void aclshmemx_barrier_vec(aclshmem_team_t) {}
void aclshmemx_barrier_all_vec(void) {}
void aclshmem_quiet(void) {}
void aclshmem_fence(void) {}

// SHMEM's aclshmemi_signal_op: a switch over SET and ADD, no default.  ADD
// wraps (it is a hardware atomic add).
void aclshmemx_signal_op(int32_t *sig_addr, int32_t signal, int sig_op, int pe) {
  check_local(sig_addr, sizeof(int32_t));
  int32_t *target = reinterpret_cast<int32_t *>(remote(sig_addr, pe, sizeof(int32_t)));
  if (sig_op == ACLSHMEM_SIGNAL_SET) *target = signal;
  if (sig_op == ACLSHMEM_SIGNAL_ADD)
    *target = static_cast<int32_t>(static_cast<uint32_t>(*target) + static_cast<uint32_t>(signal));
}

// SHMEM: aclshmemi_wait_until<int32_t>, then `return *sig_addr`.
int32_t aclshmem_signal_wait_until(int32_t *sig_addr, int cmp, int32_t cmp_val) {
  check_local(sig_addr, sizeof(int32_t));
  ttd_wait_until<int32_t>(sig_addr, cmp, cmp_val);
  return *static_cast<volatile int32_t *>(sig_addr);
}
}  // extern "C"

void dcci_cacheline(uint8_t *addr) {
  if (++g_dcci_calls > g_dcci_limit) {
    g_dcci_calls = 0;
    if (g_throw) throw ttd_host_stuck();
    std::fprintf(stderr, "dcci_cacheline: more than %ld calls, a wait never finished\n",
                 g_dcci_limit);
    std::abort();
  }
  check_local(addr, 1);
  if (g_hook != nullptr) g_hook(addr);
}

// Contiguous RMA: elem_size BYTES, whatever the wrapper's element type (SHMEM
// casts dst and src to char).  The _nbi forms complete at once.
void aclshmem_getmem(void *dst, void *src, uint32_t elem_size, int32_t pe) {
  check_local(dst, elem_size);
  std::memmove(dst, remote(src, pe, elem_size), elem_size);
}
void aclshmem_putmem(void *dst, void *src, uint32_t elem_size, int32_t pe) {
  check_local(src, elem_size);
  std::memmove(remote(dst, pe, elem_size), src, elem_size);
}
void aclshmem_getmem_nbi(void *dst, void *src, uint32_t elem_size, int32_t pe) {
  aclshmem_getmem(dst, src, elem_size, pe);
}
void aclshmem_putmem_nbi(void *dst, void *src, uint32_t elem_size, int32_t pe) {
  aclshmem_putmem(dst, src, elem_size, pe);
}
// SHMEM: the put, aclshmem_quiet, then the signal op on pe.
void aclshmem_putmem_signal(void *dst, void *src, size_t elem_size, int32_t *sig_addr,
                            int32_t signal, int sig_op, int pe) {
  check_local(src, elem_size);
  std::memmove(remote(dst, pe, elem_size), src, elem_size);
  aclshmem_quiet();
  aclshmemx_signal_op(sig_addr, signal, sig_op, pe);
}
void aclshmem_putmem_signal_nbi(void *dst, void *src, size_t elem_size, int32_t *sig_addr,
                                int32_t signal, int sig_op, int pe) {
  aclshmem_putmem_signal(dst, src, elem_size, sig_addr, signal, sig_op, pe);
}

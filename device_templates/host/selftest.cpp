// Host self-test driver: runs some wrappers against the host implementation
// of the aclshmem API and prints "key: value" lines that
// tests/test_device_templates.py checks.  Build (from device_templates/):
//   g++ -std=c++17 -DTTD_HOST_BUILD -Iinclude -Ihost src/*.cpp
//       host/aclshmem_host_impl.cpp host/selftest.cpp -o selftest
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "aclshmem_host_impl.h"
#include "ttd_aclshmem/templates.h"

#define DECLARE_WAIT(NAME, CTYPE) \
  extern "C" int32_t _mlir_ciface_aclshmem_wait_##NAME(memref_t<CTYPE, 1> *, int32_t, CTYPE);
TTD_FOR_EACH_WAIT_TYPE(DECLARE_WAIT)

extern "C" {
int64_t _mlir_ciface_aclshmem_consume_token_int64(int64_t, int32_t);
half _mlir_ciface_aclshmem_consume_token_half(half, int32_t);
void _mlir_ciface_aclshmem_consume_token_float_ptr_3d(memref_t<float, 3> *, memref_t<float, 3> *,
                                                      int32_t);
void _mlir_ciface_aclshmem_consume_token_bfloat16_ptr_1d(memref_t<bfloat16_t, 1> *,
                                                         memref_t<bfloat16_t, 1> *, int32_t);
void _mlir_ciface_aclshmem_ptr_float(memref_t<float, 1> *, memref_t<float, 1> *, int32_t);
void _mlir_ciface_aclshmem_float_p(memref_t<float, 1> *, float, int32_t);
void _mlir_ciface_aclshmem_int64_p(memref_t<int64_t, 1> *, int64_t, int32_t);
void _mlir_ciface_aclshmem_float_putmem_signal(memref_t<float, 1> *, memref_t<float, 1> *, uint32_t,
                                               memref_t<int32_t, 1> *, int32_t, int32_t, int32_t);
void _mlir_ciface_aclshmem_float_getmem_nbi(memref_t<float, 1> *, memref_t<float, 1> *, uint32_t,
                                            int32_t);
void _mlir_ciface_aclshmemx_signal_op(memref_t<int32_t, 1> *, int32_t, int32_t, int32_t);
void _mlir_ciface_aclshmem_wait_until_int32(memref_t<int32_t, 1> *, int32_t, int32_t);
void _mlir_ciface_aclshmem_wait_until_float(memref_t<float, 1> *, int32_t, float);
int32_t _mlir_ciface_aclshmem_my_pe();
int32_t _mlir_ciface_aclshmem_n_pes();
}

namespace {
// Element offsets (from the first barrier) of every dcci_cacheline call.
std::vector<long> g_polls;
const char *g_base = nullptr;
std::size_t g_elem_size = 1;
std::function<void(void *)> g_on_poll;

void record_poll(void *addr) {
  g_polls.push_back(static_cast<long>((static_cast<const char *>(addr) - g_base) /
                                      static_cast<long>(g_elem_size)));
  if (g_on_poll) g_on_poll(addr);
}

template <typename T>
memref_t<T, 1> rank1(T *data, int64_t offset, int64_t size) {
  return memref_t<T, 1>{data, data, offset, {size}, {1}};
}

// num barriers, one per 64-byte line; every element in between holds
// wait_value + 1.  Barrier `late` (or -1) is written by "the other PE" on
// the third poll of its line.
template <typename T>
void run_wait(const char *name, int32_t (*wait)(memref_t<T, 1> *, int32_t, T), int32_t num,
              T wait_value, int late) {
  const std::size_t stride = 64 / sizeof(T), lead = 3;  // lead: memref offset
  std::vector<T> buf(lead + num * stride, static_cast<T>(wait_value + 1));
  T *first = buf.data() + lead;
  for (int i = 0; i < num; ++i)
    if (i != late) first[i * stride] = wait_value;
  int polls_of_late = 0;
  g_on_poll = [&](void *addr) {
    if (late >= 0 && addr == &first[late * stride] && ++polls_of_late == 3)
      first[late * stride] = wait_value;
  };
  g_base = reinterpret_cast<const char *>(first);
  g_elem_size = sizeof(T);
  g_polls.clear();
  memref_t<T, 1> barriers = rank1(buf.data(), static_cast<int64_t>(lead),
                                  static_cast<int64_t>(buf.size() - lead));
  const int32_t token = wait(&barriers, num, wait_value);
  std::printf("%s: token=%d polled=", name, token);
  for (std::size_t i = 0; i < g_polls.size(); ++i) std::printf(i ? ",%ld" : "%ld", g_polls[i]);
  std::printf("\n");
  g_on_poll = nullptr;
}
}  // namespace

int main() {
  ttd_host_set_dcci_hook(record_poll);
  ttd_host_set_dcci_limit(100000);

  // distributed.wait: slots 64 / sizeof(T) elements apart.
  run_wait<int8_t>("wait_int8", _mlir_ciface_aclshmem_wait_int8, 2, 5, -1);
  run_wait<int16_t>("wait_int16", _mlir_ciface_aclshmem_wait_int16, 3, 5, -1);
  run_wait<int32_t>("wait_int32", _mlir_ciface_aclshmem_wait_int32, 4, 7, -1);
  run_wait<int32_t>("wait_int32_late", _mlir_ciface_aclshmem_wait_int32, 3, 7, 1);
  run_wait<int64_t>("wait_int64", _mlir_ciface_aclshmem_wait_int64, 3, 5000000000LL, 2);
  run_wait<int32_t>("wait_int32_none", _mlir_ciface_aclshmem_wait_int32, 0, 7, -1);

  // wait_until: one invalidate-then-read per round until the comparison holds; here "the
  // other PE" bumps the value at every poll.
  {
    int32_t cell[2] = {7, 1};  // the ivar is element 1 (memref offset 1)
    g_on_poll = [&](void *) { ++cell[1]; };
    g_base = reinterpret_cast<const char *>(&cell[1]);
    g_elem_size = sizeof(int32_t);
    g_polls.clear();
    memref_t<int32_t, 1> ivar = rank1(cell, 1, 1);
    _mlir_ciface_aclshmem_wait_until_int32(&ivar, ACLSHMEM_CMP_GE, 4);
    std::printf("wait_until_int32_ge: value=%d polls=%zu first=%ld\n", cell[1], g_polls.size(), g_polls[0]);
    float f = 0.5f;
    g_on_poll = [&](void *) { f += 1.0f; };
    g_polls.clear();
    memref_t<float, 1> fvar = rank1(&f, 0, 1);
    _mlir_ciface_aclshmem_wait_until_float(&fvar, ACLSHMEM_CMP_EQ, 2.5f);
    std::printf("wait_until_float_eq: value=%.1f polls=%zu\n", static_cast<double>(f), g_polls.size());
    g_on_poll = nullptr;
  }
  ttd_host_set_dcci_hook(nullptr);

  // consume_token: input returned unchanged.
  std::printf("consume_token_int64: %lld\n",
              static_cast<long long>(_mlir_ciface_aclshmem_consume_token_int64(-1234567890123LL, 9)));
  half h{0x3c01};
  std::printf("consume_token_half: 0x%04x\n", _mlir_ciface_aclshmem_consume_token_half(h, 9).bits);
  float cells[64] = {};
  memref_t<float, 3> in3{cells, cells + 2, 5, {2, 3, 4}, {12, 4, 1}}, out3;
  std::memset(&out3, 0xAB, sizeof out3);
  _mlir_ciface_aclshmem_consume_token_float_ptr_3d(&out3, &in3, 9);
  std::printf("consume_token_float_ptr_3d: same=%d\n", std::memcmp(&in3, &out3, sizeof in3) == 0);
  bfloat16_t bcells[8] = {};
  memref_t<bfloat16_t, 1> in1 = rank1(bcells, 1, 7), out1;
  std::memset(&out1, 0, sizeof out1);
  _mlir_ciface_aclshmem_consume_token_bfloat16_ptr_1d(&out1, &in1, 9);
  std::printf("consume_token_bfloat16_ptr_1d: same=%d\n", std::memcmp(&in1, &out1, sizeof in1) == 0);

  // Two simulated PEs; this one is PE 0.
  struct Heap {
    float data[16];
    int64_t word[4];
    int32_t sig[16];
  } heaps[2] = {};
  void *bases[2] = {&heaps[0], &heaps[1]};
  ttd_host_set_heaps(bases, 2, sizeof(Heap), 0);
  std::printf("my_pe: %d n_pes: %d\n", _mlir_ciface_aclshmem_my_pe(), _mlir_ciface_aclshmem_n_pes());

  memref_t<float, 1> sym = rank1(heaps[0].data, 4, 12), remote;
  _mlir_ciface_aclshmem_ptr_float(&remote, &sym, 1);
  std::printf("ptr_float: at_pe1=%d offset=%lld size=%lld stride=%lld\n",
              remote.aligned + remote.offset == &heaps[1].data[4] && remote.allocated == remote.aligned,
              static_cast<long long>(remote.offset), static_cast<long long>(remote.sizes[0]),
              static_cast<long long>(remote.strides[0]));

  _mlir_ciface_aclshmem_float_p(&sym, 2.5f, 1);
  memref_t<int64_t, 1> word = rank1(heaps[0].word, 1, 3);
  _mlir_ciface_aclshmem_int64_p(&word, -77, 1);
  std::printf("p: pe1=%g,%lld pe0=%g,%lld\n", heaps[1].data[4], static_cast<long long>(heaps[1].word[1]),
              heaps[0].data[4], static_cast<long long>(heaps[0].word[1]));

  float local[4] = {1, 2, 3, 4};
  memref_t<float, 1> dst = rank1(heaps[0].data, 8, 8), src = rank1(local, 0, 4);
  memref_t<int32_t, 1> sig = rank1(heaps[0].sig, 0, 16);
  _mlir_ciface_aclshmem_float_putmem_signal(&dst, &src, 4, &sig, 9, ACLSHMEM_SIGNAL_SET, 1);
  _mlir_ciface_aclshmemx_signal_op(&sig, 2, ACLSHMEM_SIGNAL_ADD, 1);
  std::printf("putmem_signal: pe1=%g,%g,%g,%g sig=%d pe0_sig=%d\n", heaps[1].data[8],
              heaps[1].data[9], heaps[1].data[10], heaps[1].data[11], heaps[1].sig[0], heaps[0].sig[0]);

  float back[4] = {};
  memref_t<float, 1> into = rank1(back, 0, 4);
  _mlir_ciface_aclshmem_float_getmem_nbi(&into, &dst, 4, 1);
  std::printf("getmem_nbi: %g,%g,%g,%g\n", back[0], back[1], back[2], back[3]);
  return 0;
}

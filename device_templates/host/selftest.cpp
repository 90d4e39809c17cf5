// Host self-test driver: runs the wrappers against the host implementation
// of the aclshmem API and prints "key: value" lines that
// tests/test_device_templates.py checks: the wait, consume_token, ptr and _p
// wrappers on examples; wait_until (every type), signal_wait_until and the
// RMA wrappers (every type, every op) over a grid of cases whose expected
// lines the test computes from SPEC 5/7's rules.  Build (from device_templates/):
//   g++ -std=c++17 -DTTD_HOST_BUILD -Iinclude -Ihost src/*.cpp
//       host/aclshmem_host_impl.cpp host/selftest.cpp -o selftest
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <vector>

#include "aclshmem_host_impl.h"
#include "ttd_aclshmem/templates.h"

#define DECLARE_WAIT(NAME, CTYPE) \
  extern "C" int32_t _mlir_ciface_aclshmem_wait_##NAME(memref_t<CTYPE, 1> *, int32_t, CTYPE);
TTD_FOR_EACH_WAIT_TYPE(DECLARE_WAIT)

#define DECLARE_WAIT_UNTIL(NAME, CTYPE) \
  extern "C" void _mlir_ciface_aclshmem_wait_until_##NAME(memref_t<CTYPE, 1> *, int32_t, CTYPE);
TTD_FOR_EACH_WAIT_UNTIL_TYPE(DECLARE_WAIT_UNTIL)

// RMA wrappers: (dst, src, nbytes, pe) and (dst, src, nbytes, sig_addr, signal, sig_op, pe).
#define DECLARE_RMA(NAME, CTYPE)                                                                  \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_getmem(memref_t<CTYPE, 1> *, memref_t<CTYPE, 1> *, \
                                                        uint32_t, int32_t);                       \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_putmem(memref_t<CTYPE, 1> *, memref_t<CTYPE, 1> *, \
                                                        uint32_t, int32_t);                       \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_getmem_nbi(memref_t<CTYPE, 1> *,                  \
                                                            memref_t<CTYPE, 1> *, uint32_t, int32_t); \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_putmem_nbi(memref_t<CTYPE, 1> *,                  \
                                                            memref_t<CTYPE, 1> *, uint32_t, int32_t); \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_putmem_signal(                                    \
      memref_t<CTYPE, 1> *, memref_t<CTYPE, 1> *, uint32_t, memref_t<int32_t, 1> *, int32_t, int32_t, \
      int32_t);                                                                                   \
  extern "C" void _mlir_ciface_aclshmem_##NAME##_putmem_signal_nbi(                                \
      memref_t<CTYPE, 1> *, memref_t<CTYPE, 1> *, uint32_t, memref_t<int32_t, 1> *, int32_t, int32_t, \
      int32_t);
TTD_FOR_EACH_SHMEM_TYPE(DECLARE_RMA)

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
void _mlir_ciface_aclshmemx_signal_op(memref_t<int32_t, 1> *, int32_t, int32_t, int32_t);
int32_t _mlir_ciface_aclshmem_signal_wait_until(memref_t<int32_t, 1> *, int32_t, int32_t);
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

// ---- wait_until grid ----------------------------------------------------------------------
// Cases (start value, comparison value, change per poll); "the other PE" applies the change on
// every poll, before the read.  Codes -1..7: 6, 7 and -1 are outside ACLSHMEM_CMP_EQ..LE.
struct WaitCase {
  const char *name;
  double start, value, step;
};
const WaitCase kWaitCases[] = {
    {"up", 1, 4, 1},    {"down", 6, 4, -1}, {"eq", 4, 4, 0},
    {"below", 3, 4, 0}, {"above", 5, 4, 0},
};
const int kFirstCode = -1, kLastCode = 7;
const long kWaitLimit = 50;  // polls before a wait counts as never ending

template <typename T>
void print_wait_outcome(const char *what, int32_t cmp, const char *case_name, bool stuck,
                        long polls, T value) {
  std::printf("%s_cmp%d_%s: ", what, cmp, case_name);
  if (stuck)
    std::printf("stuck\n");
  else
    std::printf("polls=%ld value=%g\n", polls, static_cast<double>(value));
}

// Runs one wait on cell (its ivar), the peer adding step on every poll; false if it never ends.
template <typename T, typename Wait>
bool run_one_wait(T *cell, T step, Wait wait) {
  g_on_poll = [cell, step](void *) { *cell = static_cast<T>(*cell + step); };
  g_base = reinterpret_cast<const char *>(cell);
  g_elem_size = sizeof(T);
  ttd_host_set_dcci_hook(record_poll);
  ttd_host_set_dcci_limit(kWaitLimit);
  bool stuck = false;
  try {
    wait();
  } catch (const ttd_host_stuck &) {
    stuck = true;
  }
  ttd_host_set_dcci_hook(nullptr);
  g_on_poll = nullptr;
  return !stuck;
}

template <typename T>
void run_wait_until_grid(const char *name, void (*wait_until)(memref_t<T, 1> *, int32_t, T)) {
  char what[64];
  std::snprintf(what, sizeof what, "wait_until_%s", name);
  std::vector<WaitCase> cases(std::begin(kWaitCases), std::end(kWaitCases));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::numeric_limits<T>::has_quiet_NaN) {  // float: a NaN in the cell, or as the value
    cases.push_back({"nan_cell", nan, 4, 0});
    cases.push_back({"nan_value", 4, nan, 0});
  }
  for (const WaitCase &c : cases) {
    for (int32_t cmp = kFirstCode; cmp <= kLastCode; ++cmp) {
      T cell[2] = {static_cast<T>(0), static_cast<T>(c.start)};  // ivar: element 1 (offset 1)
      memref_t<T, 1> ivar = rank1(cell, 1, 1);
      g_polls.clear();
      const T value = static_cast<T>(c.value);
      const bool done = run_one_wait(&cell[1], static_cast<T>(c.step),
                                     [&] { wait_until(&ivar, cmp, value); });
      print_wait_outcome(what, cmp, c.name, !done, static_cast<long>(g_polls.size()), cell[1]);
    }
  }
}

void run_signal_wait_until_grid() {
  for (const WaitCase &c : kWaitCases) {
    for (int32_t cmp = kFirstCode; cmp <= kLastCode; ++cmp) {
      int32_t cell[2] = {0, static_cast<int32_t>(c.start)};
      memref_t<int32_t, 1> sig = rank1(cell, 1, 1);
      g_polls.clear();
      int32_t got = 0;
      const bool done = run_one_wait(&cell[1], static_cast<int32_t>(c.step), [&] {
        got = _mlir_ciface_aclshmem_signal_wait_until(&sig, cmp, static_cast<int32_t>(c.value));
      });
      print_wait_outcome("signal_wait_until", cmp, c.name, !done,
                         static_cast<long>(g_polls.size()), got);
    }
  }
}

// ---- RMA grid -------------------------------------------------------------------------------
// Two heaps of kHeapBytes; PE 0 calls.  The source bytes are 1, 2, 3, ... (never 0), the
// destination starts as zeros; each op moves nbytes, for nbytes in {0, 1, 5, 3 * sizeof(T)}.
// Printed: how many leading destination bytes equal the source, whether every byte after them
// is still 0 and whether the other copies are untouched, and the signal (putmem_signal: SET 9).
const std::size_t kHeapBytes = 256, kDstOffset = 64, kSrcOffset = 128, kSigOffset = 192;

template <typename T>
void run_rma(const char *name, const char *op,
             void (*plain)(memref_t<T, 1> *, memref_t<T, 1> *, uint32_t, int32_t),
             void (*signal)(memref_t<T, 1> *, memref_t<T, 1> *, uint32_t, memref_t<int32_t, 1> *,
                            int32_t, int32_t, int32_t)) {
  const bool get = op[0] == 'g';
  const uint32_t counts[] = {0, 1, 5, static_cast<uint32_t>(3 * sizeof(T))};
  std::printf("rma_%s_%s:", name, op);
  for (uint32_t nbytes : counts) {
    alignas(64) static unsigned char heap[2][kHeapBytes];
    std::memset(heap, 0, sizeof heap);
    // The source: the remote copy for a get, the local one for a put.
    unsigned char *source = heap[get ? 1 : 0] + kSrcOffset;
    for (std::size_t i = 0; i < 48; ++i) source[i] = static_cast<unsigned char>(i + 1);
    void *bases[2] = {heap[0], heap[1]};
    ttd_host_set_heaps(bases, 2, kHeapBytes, 0);
    const int64_t elems = 48 / static_cast<int64_t>(sizeof(T));
    memref_t<T, 1> dst = rank1(reinterpret_cast<T *>(heap[0] + kDstOffset), 0, elems);
    memref_t<T, 1> src = rank1(reinterpret_cast<T *>(heap[0] + kSrcOffset), 0, elems);
    memref_t<int32_t, 1> sig = rank1(reinterpret_cast<int32_t *>(heap[0] + kSigOffset), 0, 16);
    if (plain != nullptr) plain(&dst, &src, nbytes, 1);
    else signal(&dst, &src, nbytes, &sig, 9, ACLSHMEM_SIGNAL_SET, 1);
    // The destination: the local copy for a get, the remote one for a put.
    const unsigned char *landed = heap[get ? 0 : 1] + kDstOffset;
    std::size_t moved = 0;
    while (moved < 48 && landed[moved] == source[moved]) ++moved;
    bool rest_zero = true;
    for (std::size_t i = moved; i < 64; ++i) rest_zero = rest_zero && landed[i] == 0;
    const unsigned char *other = heap[get ? 1 : 0] + kDstOffset;  // must stay zero
    bool other_zero = true;
    for (std::size_t i = 0; i < 64; ++i) other_zero = other_zero && other[i] == 0;
    int32_t sig_value;
    std::memcpy(&sig_value, heap[1] + kSigOffset, sizeof sig_value);
    std::printf(" %u:moved=%zu,rest_zero=%d,other_zero=%d,sig=%d", nbytes, moved, rest_zero,
                other_zero, sig_value);
  }
  std::printf("\n");
  ttd_host_set_heaps(nullptr, 0, 0, 0);
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

  // wait_until (every type) and signal_wait_until over the grid of cases.
  ttd_host_set_dcci_hook(nullptr);
  ttd_host_set_throw(1);
#define RUN_WAIT_UNTIL(NAME, CTYPE) \
  run_wait_until_grid<CTYPE>(#NAME, _mlir_ciface_aclshmem_wait_until_##NAME);
  TTD_FOR_EACH_WAIT_UNTIL_TYPE(RUN_WAIT_UNTIL)
  run_signal_wait_until_grid();
  ttd_host_set_throw(0);
  ttd_host_set_dcci_limit(100000);
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
  _mlir_ciface_aclshmem_float_putmem_signal(&dst, &src, 4 * sizeof(float), &sig, 9, ACLSHMEM_SIGNAL_SET, 1);
  _mlir_ciface_aclshmemx_signal_op(&sig, 2, ACLSHMEM_SIGNAL_ADD, 1);
  std::printf("putmem_signal: pe1=%g,%g,%g,%g sig=%d pe0_sig=%d\n", heaps[1].data[8],
              heaps[1].data[9], heaps[1].data[10], heaps[1].data[11], heaps[1].sig[0], heaps[0].sig[0]);

  float back[4] = {};
  memref_t<float, 1> into = rank1(back, 0, 4);
  _mlir_ciface_aclshmem_float_getmem_nbi(&into, &dst, 4 * sizeof(float), 1);
  std::printf("getmem_nbi: %g,%g,%g,%g\n", back[0], back[1], back[2], back[3]);

  // Every RMA wrapper of every type, on the bytes of two simulated heaps.
#define RUN_RMA(NAME, CTYPE)                                                                     \
  run_rma<CTYPE>(#NAME, "getmem", _mlir_ciface_aclshmem_##NAME##_getmem, nullptr);               \
  run_rma<CTYPE>(#NAME, "putmem", _mlir_ciface_aclshmem_##NAME##_putmem, nullptr);               \
  run_rma<CTYPE>(#NAME, "getmem_nbi", _mlir_ciface_aclshmem_##NAME##_getmem_nbi, nullptr);       \
  run_rma<CTYPE>(#NAME, "putmem_nbi", _mlir_ciface_aclshmem_##NAME##_putmem_nbi, nullptr);       \
  run_rma<CTYPE>(#NAME, "putmem_signal", nullptr, _mlir_ciface_aclshmem_##NAME##_putmem_signal); \
  run_rma<CTYPE>(#NAME, "putmem_signal_nbi", nullptr,                                            \
                 _mlir_ciface_aclshmem_##NAME##_putmem_signal_nbi);
  TTD_FOR_EACH_SHMEM_TYPE(RUN_RMA)
  return 0;
}

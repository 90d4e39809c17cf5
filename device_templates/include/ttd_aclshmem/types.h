// Element-type lists of the library, as X-macros: X(NAME, CTYPE).
//
// NAME is what appears in the symbol (aclshmem_ptr_<NAME>, aclshmem_<NAME>_p,
// ...), CTYPE the device C type.  The lowering names types the same way
// (SPEC 2.1): bf16 -> bfloat16, f16 -> half, f32 -> float, iN -> intN.
#ifndef TTD_ACLSHMEM_TYPES_H
#define TTD_ACLSHMEM_TYPES_H

// The 12 types of the symmetric-memory API families (seed 002 section 4.2:
// "ACLSHMEM_PTR_WRAPPER expands to 12 type variants of aclshmem_ptr_<T>"):
// aclshmem_ptr_<T>, aclshmem_<T>_p and the get/put (RMA) families.
#define TTD_FOR_EACH_SHMEM_TYPE(X) \
  X(half, half)                    \
  X(float, float)                  \
  X(int8, int8_t)                  \
  X(int16, int16_t)                \
  X(int32, int32_t)                \
  X(int64, int64_t)                \
  X(uint8, uint8_t)                \
  X(uint16, uint16_t)              \
  X(uint32, uint32_t)              \
  X(uint64, uint64_t)              \
  X(char, char)                    \
  X(bfloat16, bfloat16_t)

// Barrier (signal) types that distributed.wait accepts: signed integers only.
#define TTD_FOR_EACH_WAIT_TYPE(X) \
  X(int8, int8_t)                 \
  X(int16, int16_t)               \
  X(int32, int32_t)               \
  X(int64, int64_t)

// The 10 types of aclshmem_wait_until_<T> (AscendNPU-IR v1.2.0, v1.2.0-post
// and master alike, Shmem.cpp: ACLSHMEM_WAIT_UNTIL_WRAPPER; CANN SHMEM's
// ACLSHMEM_P2P_SYNC_TYPE_FUNC): no half, no bfloat16.
#define TTD_FOR_EACH_WAIT_UNTIL_TYPE(X) \
  X(float, float)                       \
  X(int8, int8_t)                       \
  X(int16, int16_t)                     \
  X(int32, int32_t)                     \
  X(int64, int64_t)                     \
  X(uint8, uint8_t)                     \
  X(uint16, uint16_t)                   \
  X(uint32, uint32_t)                   \
  X(uint64, uint64_t)                   \
  X(char, char)

// The 8 scalar types of consume_token, for values and for pointees.
#define TTD_FOR_EACH_TOKEN_TYPE(X) \
  X(int8, int8_t)                  \
  X(int16, int16_t)                \
  X(int32, int32_t)                \
  X(int64, int64_t)                \
  X(half, half)                    \
  X(float, float)                  \
  X(char, char)                    \
  X(bfloat16, bfloat16_t)

// Signal slots sit one 64-byte data-cache line apart: the NPU does not keep
// concurrent writes from several cores to one 64-byte line coherent, so each
// barrier gets a line of its own (seed 002 section 4.2, "dl.wait ... 64 byte
// stride"; the application side calls it SIGNAL_SLOT_STRIDE).  In elements:
// 16 for int32, 8 for int64.
#define TTD_DATA_CACHE_LINE_BYTES 64
#define TTD_SIGNAL_SLOT_STRIDE(CTYPE) (TTD_DATA_CACHE_LINE_BYTES / sizeof(CTYPE))

#endif  // TTD_ACLSHMEM_TYPES_H

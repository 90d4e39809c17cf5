// aclshmem_consume_token_<T> and aclshmem_consume_token_<T>_ptr_<R>d.
//
// distributed.consume_token only ties a value to the token of a wait so that
// the compiler keeps the order; the wrappers return their input unchanged and
// cost nothing once inlined (seed 002 section 4.2, CONSUME_TOKEN_*_WRAPPER).
#include "ttd_aclshmem/templates.h"

// Scalar value: T _mlir_ciface_aclshmem_consume_token_<NAME>(value, token).
#define CONSUME_TOKEN_SCALAR_WRAPPER(NAME, CTYPE)                                     \
  TTD_WRAPPER CTYPE _mlir_ciface_aclshmem_consume_token_##NAME(CTYPE value,           \
                                                               int32_t token) {       \
    (void)token;                                                                      \
    return value;                                                                     \
  }

// Pointer (rank 1) or tensor of pointers of rank RANK: the result descriptor
// (first argument, MLIR C-interface convention for a memref result) becomes
// a copy of the input descriptor.
#define CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, RANK)                                  \
  TTD_WRAPPER void _mlir_ciface_aclshmem_consume_token_##NAME##_ptr_##RANK##d(        \
      memref_t<__gm__ CTYPE, RANK> *result, memref_t<__gm__ CTYPE, RANK> *input,      \
      int32_t token) {                                                                \
    (void)token;                                                                      \
    ttd_memref_copy(result, input);                                                   \
  }

// Ranks 1 to 5, what the lowering may emit (SPEC 2.1).
#define CONSUME_TOKEN_PTR_WRAPPERS(NAME, CTYPE) \
  CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, 1)     \
  CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, 2)     \
  CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, 3)     \
  CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, 4)     \
  CONSUME_TOKEN_PTR_WRAPPER(NAME, CTYPE, 5)

TTD_FOR_EACH_TOKEN_TYPE(CONSUME_TOKEN_SCALAR_WRAPPER)
TTD_FOR_EACH_TOKEN_TYPE(CONSUME_TOKEN_PTR_WRAPPERS)
#undef CONSUME_TOKEN_SCALAR_WRAPPER
#undef CONSUME_TOKEN_PTR_WRAPPER
#undef CONSUME_TOKEN_PTR_WRAPPERS

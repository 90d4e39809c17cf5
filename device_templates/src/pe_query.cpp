// PE and team queries: aclshmem_my_pe, aclshmem_n_pes (the lowering of
// distributed.get_rank / get_num_ranks, SPEC 2.1) and the team queries that
// extern_call can name.  They read the device state the library keeps at a
// fixed global-memory address, so they take no context argument (seed 000,
// "How Symbols Become Real Code").  Teams are int32 handles.
#include "ttd_aclshmem/templates.h"

// int32_t _mlir_ciface_<FN>(): FN's result.
#define ACLSHMEM_QUERY_WRAPPER(FN) \
  TTD_WRAPPER int32_t _mlir_ciface_##FN() { return FN(); }

// int32_t _mlir_ciface_<FN>(team): FN(team)'s result.
#define ACLSHMEM_TEAM_QUERY_WRAPPER(FN) \
  TTD_WRAPPER int32_t _mlir_ciface_##FN(int32_t team) { return FN(team); }

ACLSHMEM_QUERY_WRAPPER(aclshmem_my_pe)
ACLSHMEM_QUERY_WRAPPER(aclshmem_n_pes)
ACLSHMEM_TEAM_QUERY_WRAPPER(aclshmem_team_my_pe)
ACLSHMEM_TEAM_QUERY_WRAPPER(aclshmem_team_n_pes)

TTD_WRAPPER int32_t _mlir_ciface_aclshmem_team_translate_pe(int32_t src_team, int32_t src_pe,
                                                            int32_t dest_team) {
  return aclshmem_team_translate_pe(src_team, src_pe, dest_team);
}

// Single include for the library sources: platform glue, the memref
// descriptor, the element-type lists and the aclshmem device API.
#ifndef TTD_ACLSHMEM_TEMPLATES_H
#define TTD_ACLSHMEM_TEMPLATES_H

#include "ttd_aclshmem/platform.h"
#include "ttd_aclshmem/memref.h"
#include "ttd_aclshmem/types.h"
#include "ttd_aclshmem/aclshmem_api.h"

// Descriptor of a `!tt.ptr<CTYPE>` operand or result (SPEC 5: scalar pointers
// are rank-1 memrefs).
#define TTD_PTR_MEMREF(CTYPE) memref_t<__gm__ CTYPE, 1>

// Element address a pointer descriptor designates, as the API's void pointer.
#define TTD_GM_VOID(DESC) ((__gm__ void *)ttd_memref_data(DESC))

#endif  // TTD_ACLSHMEM_TEMPLATES_H

// RUN: not ttd-lower %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NOFALLBACK
// RUN: ttd-lower %s --strip-comments --core-type-fallback=symbol-table --no-link-check | FileCheck %s --check-prefix=FALLBACK

// An unannotated extern_call (older frontends) is an error that names the opt-in; with
// --core-type-fallback=symbol-table its core type comes from the symbol table.

// NOFALLBACK: error: 'distributed.extern_call' op extern_call 'aclshmem_barrier_all' has no 'distributed.core_type' attribute{{.*}}--core-type-fallback=symbol-table
// NOFALLBACK: error: 'distributed.extern_call' op extern_call 'aclshmemx_barrier_vec' has no
// NOFALLBACK: error: 'distributed.extern_call' op extern_call 'aclshmem_int32_getmem' has no
// NOFALLBACK: error: 'distributed.extern_call' op extern_call 'aclshmem_fence' has no

// FALLBACK-LABEL: tt.func public @legacy
// FALLBACK: tcore_type<CUBE_AND_VECTOR>{{.*}}"dist.aclshmem_barrier_all"
// FALLBACK: tcore_type<VECTOR>{{.*}}"dist.aclshmemx_barrier_vec"
// FALLBACK: tcore_type<VECTOR>{{.*}}"dist.aclshmem_int32_getmem"
// FALLBACK: tcore_type<VECTOR>{{.*}}"dist.aclshmem_fence"
// FALLBACK: tcore_type<CUBE>{{.*}}"dist.annotated_wins"
module {
  tt.func public @legacy(%a: !tt.ptr<i32>, %b: !tt.ptr<i32>) {
    %c4 = arith.constant 4 : i32
    %c1 = arith.constant 1 : i32
    distributed.extern_call {libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} : () -> ()
    distributed.extern_call {libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmemx_barrier_vec"} : () -> ()
    distributed.extern_call %a, %b, %c4, %c1 {libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_int32_getmem"} : (!tt.ptr<i32>, !tt.ptr<i32>, i32, i32) -> ()
    distributed.extern_call {libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_fence"} : () -> ()
    distributed.extern_call {distributed.core_type = "cube", libname = "l", libpath = "", pure = false, symbol = "annotated_wins"} : () -> ()
    tt.return
  }
}

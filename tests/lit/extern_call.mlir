// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// extern_call: the symbol is the op's own; every attribute but distributed.core_type is
// copied; no_side_effect exactly when pure = true; the bare aclshmem_ptr (remote_ptr) takes
// the type of operand 0's pointee.

// CHECK-LABEL: tt.func public @calls
// CHECK: %me = hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, libname = "libshmem_device", libpath = "", no_side_effect, pure = true, symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<CUBE_AND_VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} "dist.aclshmem_barrier_all"{{$}}
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32: 0, 1>, {{.*}}tcore_type<VECTOR>{{.*}}symbol = "aclshmem_float_putmem_nbi"} "dist.aclshmem_float_putmem_nbi" ins(%dst, %src, %c64_i32, %peer : !tt.ptr<f32>, !tt.ptr<f32>, i32, i32){{$}}
// CHECK: %remote = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}pure = false, symbol = "aclshmem_ptr_float"} "dist.aclshmem_ptr_float" ins(%src, %peer : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
// CHECK-NOT: distributed.core_type
module {
  tt.func public @calls(%dst: !tt.ptr<f32>, %src: !tt.ptr<f32>, %peer: i32) {
    %c64_i32 = arith.constant 64 : i32
    %me = distributed.extern_call {distributed.core_type = "cube_or_vector", libname = "libshmem_device", libpath = "", pure = true, symbol = "aclshmem_my_pe"} : () -> i32
    distributed.extern_call {distributed.core_type = "cube_and_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} : () -> ()
    distributed.extern_call %dst, %src, %c64_i32, %peer {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_float_putmem_nbi"} : (!tt.ptr<f32>, !tt.ptr<f32>, i32, i32) -> ()
    %remote = distributed.extern_call %src, %peer {distributed.core_type = "cube_or_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_ptr"} : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// wait: aclshmem_wait_<barrier pointee>; scope/semantic copied as `N : i32`; Read effect.

// CHECK-LABEL: tt.func public @waits
// CHECK: %t32 = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, scope = 1 : i32, semantic = 2 : i32, symbol = "aclshmem_wait_int32"} "dist.aclshmem_wait_int32" ins(%f32, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// CHECK: %t64 = hivm.hir.custom {{{.*}}scope = 2 : i32, semantic = 1 : i32, symbol = "aclshmem_wait_int64"} "dist.aclshmem_wait_int64" ins(%f64, %n, %c1_i64 : !tt.ptr<i64>, i32, i64) -> i32
// CHECK: %t8 = hivm.hir.custom {{{.*}}scope = 3 : i32, semantic = 4 : i32, symbol = "aclshmem_wait_int8"} "dist.aclshmem_wait_int8" ins(%f8, %n, %c1_i8 : !tt.ptr<i8>, i32, i8) -> i32
// CHECK: %t16 = hivm.hir.custom {{{.*}}semantic = 3 : i32, symbol = "aclshmem_wait_int16"} "dist.aclshmem_wait_int16"
// CHECK-NOT: no_side_effect
module {
  tt.func public @waits(%f32: !tt.ptr<i32>, %f64: !tt.ptr<i64>, %f8: !tt.ptr<i8>, %f16: !tt.ptr<i16>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c1_i8 = arith.constant 1 : i8
    %c1_i16 = arith.constant 1 : i16
    %t32 = distributed.wait %f32, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %t64 = distributed.wait %f64, %n, %c1_i64, scope = cta semantic = relaxed : !tt.ptr<i64>, i32, i64 -> i32
    %t8 = distributed.wait %f8, %n, %c1_i8, scope = sys semantic = acq_rel : !tt.ptr<i8>, i32, i8 -> i32
    %t16 = distributed.wait %f16, %n, %c1_i16, scope = gpu semantic = release : !tt.ptr<i16>, i32, i16 -> i32
    tt.return
  }
}

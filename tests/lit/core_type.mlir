// RUN: ttd-lower %s --split-input-file --strip-comments --no-link-check | FileCheck %s

// (--no-link-check: the extern_calls name made-up symbols to show each annotation.)

// Core types (SPEC.md 2.3): the six core ops take existDot ? CUBE_AND_VECTOR : VECTOR, with
// existDot true when a tt.dot is anywhere in the module (here, in another function);
// extern_calls take their distributed.core_type annotation.

// CHECK-LABEL: tt.func public @uses_rank
// CHECK: tcore_type<CUBE_AND_VECTOR>{{.*}}"dist.aclshmem_my_pe"
// CHECK: tcore_type<CUBE>{{.*}}"dist.cube_only"
// CHECK: tcore_type<VECTOR>{{.*}}"dist.vector_only"
// CHECK: tcore_type<CUBE_AND_VECTOR>{{.*}}"dist.both"
// CHECK: tcore_type<CUBE_AND_VECTOR>{{.*}}"dist.inferred"
module {
  tt.func public @uses_rank(%out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %r = distributed.get_rank %c0 : i32
    distributed.extern_call {distributed.core_type = "cube", libname = "l", libpath = "", pure = false, symbol = "cube_only"} : () -> ()
    distributed.extern_call {distributed.core_type = "vector", libname = "l", libpath = "", pure = false, symbol = "vector_only"} : () -> ()
    distributed.extern_call {distributed.core_type = "cube_and_vector", libname = "l", libpath = "", pure = false, symbol = "both"} : () -> ()
    distributed.extern_call {distributed.core_type = "cube_or_vector", libname = "l", libpath = "", pure = false, symbol = "inferred"} : () -> ()
    tt.store %out, %r : !tt.ptr<i32>
    tt.return
  }
  tt.func private @gemm_tile(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
}

// -----

// Without a dot: VECTOR, and cube_or_vector infers VECTOR too.

// CHECK-LABEL: tt.func public @vector_kernel
// CHECK: tcore_type<VECTOR>{{.*}}"dist.aclshmem_n_pes"
// CHECK: tcore_type<VECTOR>{{.*}}"dist.inferred"
module {
  tt.func public @vector_kernel(%out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %n = distributed.get_num_ranks %c0 : i32
    distributed.extern_call {distributed.core_type = "cube_or_vector", libname = "l", libpath = "", pure = false, symbol = "inferred"} : () -> ()
    tt.store %out, %n : !tt.ptr<i32>
    tt.return
  }
}

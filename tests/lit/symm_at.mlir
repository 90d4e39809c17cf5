// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// symm_at: aclshmem_ptr_<pointee>; Read effect, so no no_side_effect; a kernel argument
// pointer is a GM address (gm_addr_args_indices = [0]).

// CHECK-LABEL: tt.func public @peer_ptrs
// CHECK: %h = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "aclshmem_ptr_half"} "dist.aclshmem_ptr_half" ins(%hp, %peer : !tt.ptr<f16>, i32) -> !tt.ptr<f16>
// CHECK: %b = hivm.hir.custom {{.*}}symbol = "aclshmem_ptr_bfloat16"} "dist.aclshmem_ptr_bfloat16" ins(%bp, %peer : !tt.ptr<bf16>, i32) -> !tt.ptr<bf16>
// CHECK: %f = hivm.hir.custom {{.*}}symbol = "aclshmem_ptr_float"} "dist.aclshmem_ptr_float" ins(%fp, %peer : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
// CHECK: %i8 = hivm.hir.custom {{.*}}"dist.aclshmem_ptr_int8" ins(%bytes, %peer : !tt.ptr<i8>, i32)
// CHECK: %i16 = hivm.hir.custom {{.*}}"dist.aclshmem_ptr_int16"
// CHECK: %i32 = hivm.hir.custom {{.*}}"dist.aclshmem_ptr_int32"
// CHECK: %i64 = hivm.hir.custom {{.*}}"dist.aclshmem_ptr_int64"
module {
  tt.func public @peer_ptrs(%hp: !tt.ptr<f16>, %bp: !tt.ptr<bf16>, %fp: !tt.ptr<f32>, %bytes: !tt.ptr<i8>, %s: !tt.ptr<i16>, %w: !tt.ptr<i32>, %l: !tt.ptr<i64>, %peer: i32) {
    %h = distributed.symm_at %hp, %peer, : !tt.ptr<f16>
    %b = distributed.symm_at %bp, %peer, : !tt.ptr<bf16>
    %f = distributed.symm_at %fp, %peer, : !tt.ptr<f32>
    %i8 = distributed.symm_at %bytes, %peer, : !tt.ptr<i8>
    %i16 = distributed.symm_at %s, %peer, : !tt.ptr<i16>
    %i32 = distributed.symm_at %w, %peer, : !tt.ptr<i32>
    %i64 = distributed.symm_at %l, %peer, : !tt.ptr<i64>
    tt.return
  }
}

// -----

// A pointer computed by tt.addptr, or carried by a loop, is not a kernel argument.

// CHECK-LABEL: tt.func public @not_arguments
// CHECK: %far = hivm.hir.custom {gm_addr_args_indices = array<i32>, {{.*}}"dist.aclshmem_ptr_float" ins(%moved, %peer : !tt.ptr<f32>, i32)
// CHECK: %far2 = hivm.hir.custom {gm_addr_args_indices = array<i32>, {{.*}}"dist.aclshmem_ptr_float" ins(%p, %peer : !tt.ptr<f32>, i32)
module {
  tt.func public @not_arguments(%base: !tt.ptr<f32>, %peer: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %moved = tt.addptr %base, %c4_i32 : !tt.ptr<f32>, i32
    %far = distributed.symm_at %moved, %peer, : !tt.ptr<f32>
    %r = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%p = %base) -> (!tt.ptr<f32>)  : i32 {
      %far2 = distributed.symm_at %p, %peer, : !tt.ptr<f32>
      scf.yield %far2 : !tt.ptr<f32>
    }
    tt.return
  }
}

// -----

// In a helper function, arguments are the helper's own.

// CHECK-LABEL: tt.func private @helper
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}ins(%q, %who : !tt.ptr<f32>, i32)
// CHECK-LABEL: tt.func public @kernel
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}ins(%p, %peer : !tt.ptr<f32>, i32)
module {
  tt.func private @helper(%q: !tt.ptr<f32>, %who: i32) -> !tt.ptr<f32> {
    %x = distributed.symm_at %q, %who, : !tt.ptr<f32>
    tt.return %x : !tt.ptr<f32>
  }
  tt.func public @kernel(%p: !tt.ptr<f32>, %peer: i32) {
    %y = distributed.symm_at %p, %peer, : !tt.ptr<f32>
    %z = tt.call @helper(%y, %peer) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// get_rank / get_num_ranks: no operands (the axis is dropped), an i32 result, Pure so
// no_side_effect, core type from existDot (none here: VECTOR).

// CHECK-LABEL: tt.func public @rank_queries
// CHECK-NEXT: %[[C:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %rank = hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect, symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32 loc(#loc1)
// CHECK-NEXT: %world = hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect, symbol = "aclshmem_n_pes"} "dist.aclshmem_n_pes" -> i32 loc(#loc2)
// CHECK-NEXT: arith.addi %rank, %world : i32
// CHECK-NOT: distributed.
#loc1 = loc("k.py":3:10)
#loc2 = loc("k.py":4:10)
module {
  tt.func public @rank_queries(%out: !tt.ptr<i32>) {
    %c-1_i32 = arith.constant -1 : i32
    %rank = distributed.get_rank %c-1_i32 : i32 loc(#loc1)
    %world = distributed.get_num_ranks %c-1_i32 : i32 loc(#loc2)
    %sum = arith.addi %rank, %world : i32
    tt.store %out, %sum : !tt.ptr<i32>
    tt.return
  }
}

// -----

// The generic form lowers exactly like the custom form.

// CHECK-LABEL: tt.func public @generic_rank
// CHECK: %r = hivm.hir.custom {{.*}}symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32
// CHECK: %n = hivm.hir.custom {{.*}}symbol = "aclshmem_n_pes"} "dist.aclshmem_n_pes" -> i32
module {
  tt.func public @generic_rank(%out: !tt.ptr<i32>) {
    %c0_i32 = arith.constant 0 : i32
    %r = "distributed.get_rank"(%c0_i32) : (i32) -> i32
    %n = "distributed.get_num_ranks"(%c0_i32) : (i32) -> i32
    %s = arith.addi %r, %n : i32
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }
}

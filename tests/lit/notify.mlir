// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// notify on an i32 signal: aclshmemx_signal_op with operands [sigAddr, signal as i32,
// ACLSHMEM sig op, rank]; SET -> 0, ADD -> 1.  A constant signal becomes a new i32 constant,
// any other signal an arith.trunci.  sigOp/commScope are copied; Read+Write (no no_side_effect).

// CHECK-LABEL: tt.func public @set_constant
// CHECK: %[[S:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[OP:.*]] = arith.constant 0 : i32
// CHECK-NEXT: hivm.hir.custom {commScope = 3 : i32, gm_addr_args_indices = array<i32: 0>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, sigOp = 1 : i32, symbol = "aclshmemx_signal_op"} "dist.aclshmemx_signal_op" ins(%flag, %[[S]], %[[OP]], %peer : !tt.ptr<i32>, i32, i32, i32){{$}}
module {
  tt.func public @set_constant(%flag: !tt.ptr<i32>, %peer: i32) {
    %c7_i64 = arith.constant 7 : i64
    "distributed.notify"(%flag, %c7_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @add_computed
// CHECK: %w64 = arith.extsi %w : i32 to i64
// CHECK-NEXT: %[[T:.*]] = arith.trunci %w64 : i64 to i32
// CHECK-NEXT: %[[OP:.*]] = arith.constant 1 : i32
// CHECK-NEXT: hivm.hir.custom {commScope = 2 : i32, gm_addr_args_indices = array<i32>, {{.*}}sigOp = 2 : i32, symbol = "aclshmemx_signal_op"} "dist.aclshmemx_signal_op" ins(%slot, %[[T]], %[[OP]], %peer : !tt.ptr<i32>, i32, i32, i32)
module {
  tt.func public @add_computed(%flag: !tt.ptr<i32>, %peer: i32, %w: i32) {
    %c16_i32 = arith.constant 16 : i32
    %slot = tt.addptr %flag, %c16_i32 : !tt.ptr<i32>, i32
    %w64 = arith.extsi %w : i32 to i64
    "distributed.notify"(%slot, %w64, %peer) <{commScope = 2 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// i64 and ui64 signals, set only: aclshmem_int64_p / aclshmem_uint64_p with the i64 signal as is.
// The attribute-dictionary spelling of the enums is accepted too.

// CHECK-LABEL: tt.func public @wide_signals
// CHECK-NOT: arith.trunci
// CHECK: hivm.hir.custom {commScope = 1 : i32, gm_addr_args_indices = array<i32: 0>, {{.*}}sigOp = 1 : i32, symbol = "aclshmem_int64_p"} "dist.aclshmem_int64_p" ins(%f64, %c5_i64, %peer : !tt.ptr<i64>, i64, i32)
// CHECK: hivm.hir.custom {{{.*}}symbol = "aclshmem_uint64_p"} "dist.aclshmem_uint64_p" ins(%fu64, %c5_i64, %peer : !tt.ptr<ui64>, i64, i32)
module {
  tt.func public @wide_signals(%f64: !tt.ptr<i64>, %fu64: !tt.ptr<ui64>, %peer: i32) {
    %c5_i64 = arith.constant 5 : i64
    "distributed.notify"(%f64, %c5_i64, %peer) {sigOp = 1 : i32, commScope = 1 : i32} : (!tt.ptr<i64>, i64, i32) -> ()
    "distributed.notify"(%fu64, %c5_i64, %peer) <{commScope = 1 : i32, sigOp = 1 : i32}> : (!tt.ptr<ui64>, i64, i32) -> ()
    tt.return
  }
}

// -----

// The largest and smallest constants that fit in i32 are kept exactly.

// CHECK-LABEL: tt.func public @limits
// CHECK: arith.constant 2147483647 : i32
// CHECK: arith.constant -2147483648 : i32
module {
  tt.func public @limits(%flag: !tt.ptr<i32>, %peer: i32) {
    %hi = arith.constant 2147483647 : i64
    %lo = arith.constant -2147483648 : i64
    "distributed.notify"(%flag, %hi, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    "distributed.notify"(%flag, %lo, %peer) <{commScope = 3 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --split-input-file --lint-only 2>&1 | FileCheck %s

// Lint rule rank-out-of-range (issue 17, rule 5): a constant rank given to symm_at or notify
// that is negative names no PE (get_rank's -1 is an axis, not a rank).

// CHECK: {{.*}}lint_rank_out_of_range.mlir:15:5: warning: 'distributed.symm_at' op rank -1 is negative: no PE has it (ranks are 0 to get_num_ranks - 1) [rank-out-of-range]
// CHECK: {{.*}}lint_rank_out_of_range.mlir:12:5: note: the rank is this constant
module {
  tt.func public @minus_one(%buf: !tt.ptr<f32>, %flags: !tt.ptr<i32>) {
    // expected-note@+1 {{the rank is this constant}}
    %c-1_i32 = arith.constant -1 : i32
    %c1_i64 = arith.constant 1 : i64
    // expected-warning@+1 {{'distributed.symm_at' op rank -1 is negative}}
    %far = distributed.symm_at %buf, %c-1_i32, : !tt.ptr<f32>
    // expected-warning@+1 {{'distributed.notify' op rank -1 is negative}}
    "distributed.notify"(%flags, %c1_i64, %c-1_i32) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %x = tt.load %far : !tt.ptr<f32>
    tt.store %buf, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The close variant: rank 0 exists; get_rank's axis -1 is not a rank.
module {
  tt.func public @rank_zero(%buf: !tt.ptr<f32>, %flags: !tt.ptr<i32>) {
    %c-1_i32 = arith.constant -1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %me = distributed.get_rank %c-1_i32 : i32
    %far = distributed.symm_at %buf, %c0_i32, : !tt.ptr<f32>
    "distributed.notify"(%flags, %c1_i64, %c0_i32) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %x = tt.load %far : !tt.ptr<f32>
    tt.store %buf, %x : !tt.ptr<f32>
    tt.return
  }
}

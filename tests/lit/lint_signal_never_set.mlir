// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --split-input-file --lint-only 2>&1 | FileCheck %s

// Lint rule signal-never-set (issue 17, rule 3): a wait for a constant value on slots of a
// kernel argument, where the module's SET notifies on that argument all write other values
// and no ADD notify targets it: the wait never returns.

// CHECK: {{.*}}lint_signal_never_set.mlir:18:5: warning: 'distributed.wait' op waits for 2 on slots of %flags, but no notify sets that value: the SET notifies on %flags write 1 and no ADD notify targets it, so this wait never returns [signal-never-set]
// CHECK: {{.*}}lint_signal_never_set.mlir:16:5: note: this notify sets 1
module {
  tt.func public @epoch_mismatch(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c2_i32 = arith.constant 2 : i32
    %c1_i64 = arith.constant 1 : i64
    %slot = tt.addptr %flags, %peer : !tt.ptr<i32>, i32
    // expected-note@+1 {{this notify sets 1}}
    "distributed.notify"(%slot, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    // expected-warning@+1 {{'distributed.wait' op waits for 2 on slots of %flags, but no notify sets that value}}
    %tok = distributed.wait %flags, %n, %c2_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The close variant: the notify sets the value the wait expects.
module {
  tt.func public @epoch_match(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c2_i32 = arith.constant 2 : i32
    %c2_i64 = arith.constant 2 : i64
    %slot = tt.addptr %flags, %peer : !tt.ptr<i32>, i32
    "distributed.notify"(%slot, %c2_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %tok = distributed.wait %flags, %n, %c2_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Silent too: an ADD notify (counters reach any value), a signal known only at run time, and
// a flag also written by an atomic the lint cannot reason about.
module {
  tt.func public @counter(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c4_i32 = arith.constant 4 : i32
    %c1_i64 = arith.constant 1 : i64
    "distributed.notify"(%flags, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    "distributed.notify"(%flags, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %tok = distributed.wait %flags, %n, %c4_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
  tt.func public @run_time_signal(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %peer: i32, %epoch: i64) {
    %c2_i32 = arith.constant 2 : i32
    "distributed.notify"(%flags, %epoch, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %tok = distributed.wait %flags, %c2_i32, %c2_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
  tt.func public @atomic_writer(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c2_i32 = arith.constant 2 : i32
    %c1_i64 = arith.constant 1 : i64
    "distributed.notify"(%flags, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %old = tt.atomic_rmw add, acq_rel, gpu, %flags, %c2_i32 : (!tt.ptr<i32>, i32) -> i32
    %tok = distributed.wait %flags, %n, %c2_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --split-input-file --lint-only 2>&1 | FileCheck %s

// Lint rule unused-wait-token (issue 17, rule 2): a wait whose token no consume_token uses
// orders nothing: every access that depends on the wait may be moved above it.

// CHECK: {{.*}}lint_unused_wait_token.mlir:14:5: warning: 'distributed.wait' op token %tok is used by no 'distributed.consume_token': nothing orders the accesses that depend on this wait after it [unused-wait-token]
// CHECK-NEXT: %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
// CHECK-NEXT: ^
module {
  tt.func public @forgotten(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    // expected-warning@+1 {{'distributed.wait' op token %tok is used by no 'distributed.consume_token'}}
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %x = tt.load %data : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The close variant: the token orders the pointer of the load.
module {
  tt.func public @consumed(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Also silent: the token is carried out of a loop and consumed there, carried into a while
// loop's body, passed along a branch, or handed to a helper (whose consume_token may use it).
module {
  tt.func public @through_a_loop(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %last = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%t = %c0_i32) -> (i32)  : i32 {
      %tok = distributed.wait %flag, %c1_i32, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
      scf.yield %tok : i32
    }
    %ready = distributed.consume_token %data, %last, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
  tt.func public @into_a_while(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32, %c: i1) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %r = scf.while (%t = %tok) : (i32) -> i32 {
      scf.condition(%c) %t : i32
    } do {
    ^bb0(%t2: i32):
      %ready = distributed.consume_token %data, %t2, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
      %x = tt.load %ready : !tt.ptr<f32>
      tt.store %data, %x : !tt.ptr<f32>
      scf.yield %t2 : i32
    }
    tt.return
  }
  tt.func public @along_a_branch(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    cf.br ^bb1(%tok : i32)
  ^bb1(%t: i32):
    %ready = distributed.consume_token %data, %t, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
  tt.func public @to_a_helper(%data: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.call @helper(%data, %tok) : (!tt.ptr<f32>, i32) -> ()
    tt.return
  }
  tt.func private @helper(%data: !tt.ptr<f32>, %tok: i32) {
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

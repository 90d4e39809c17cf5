// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --split-input-file --lint-only 2>&1 | FileCheck %s

// Lint rule unordered-remote-load (issue 17, rule 1): after a wait, a load through a pointer
// derived from a symmetric buffer (a symm_at result, or a value also passed to symm_at) by
// tt.addptr / tt.splat / tt.broadcast / loop-carried values, with no consume_token of the
// wait's token on the way and no barrier between: the load may be moved above the wait.

// CHECK: {{.*}}lint_unordered_remote_load.mlir:23:5: warning: 'tt.load' op reads symmetric memory after a 'distributed.wait', but its pointer %far does not depend on the wait's token (no 'distributed.consume_token' on its derivation), so the load may be moved above the wait and read the buffer before the peers wrote it [unordered-remote-load]
// CHECK-NEXT: %x = tt.load %far : !tt.ptr<f32>
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}lint_unordered_remote_load.mlir:20:5: note: the wait it must be ordered after
// CHECK: {{.*}}lint_unordered_remote_load.mlir:18:5: note: the symmetric buffer comes from this 'distributed.symm_at'
module {
  tt.func public @token_on_the_value(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    // expected-note@+1 {{the symmetric buffer comes from this 'distributed.symm_at'}}
    %far = distributed.symm_at %buf, %peer, : !tt.ptr<f32>
    // expected-note@+1 {{the wait it must be ordered after}}
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    // the token orders the loaded value, not the load: the load itself may move above the wait
    // expected-warning@+1 {{'tt.load' op reads symmetric memory after a 'distributed.wait', but its pointer %far does not depend on the wait's token}}
    %x = tt.load %far : !tt.ptr<f32>
    %y = distributed.consume_token %x, %tok, : f32, i32 -> f32
    tt.store %buf, %y : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The close variant: the pointer goes through consume_token, so the load depends on the token.
module {
  tt.func public @token_on_the_pointer(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %far = distributed.symm_at %buf, %peer, : !tt.ptr<f32>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %far, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %buf, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The push pattern: peers write into my %buf (which I also pass to symm_at) and set my flag;
// the block of pointers is derived by tt.splat / tt.addptr and carried through a loop.
module {
  tt.func public @push_pattern(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %cst = arith.constant dense<1.000000e+00> : tensor<64xf32>
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    // expected-note@+1 {{%buf is a symmetric buffer: this 'distributed.symm_at' takes it}}
    %far = distributed.symm_at %buf, %peer, : !tt.ptr<f32>
    %fars = tt.splat %far : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %farp = tt.addptr %fars, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %farp, %cst : tensor<64x!tt.ptr<f32>>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %mine = tt.splat %buf : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %mine_0 = tt.addptr %mine, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %sum = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%p = %mine_0) -> (tensor<64x!tt.ptr<f32>>)  : i32 {
      // expected-warning@+1 {{'tt.load' op reads symmetric memory after a 'distributed.wait', but its pointer %p does not depend}}
      %v = tt.load %p : tensor<64x!tt.ptr<f32>>
      %q = tt.addptr %p, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      scf.yield %q : tensor<64x!tt.ptr<f32>>
    }
    %t = distributed.consume_token %n, %tok, : i32, i32 -> i32
    tt.return
  }
}

// -----

// Close variants that stay silent: a barrier between the wait and the load, a load before the
// wait (nothing to order it after), an address whose offset depends on the token.
module {
  tt.func public @barrier_between(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %far = distributed.symm_at %buf, %peer, : !tt.ptr<f32>
    %x0 = tt.load %far : !tt.ptr<f32>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    distributed.extern_call {distributed.core_type = "cube_and_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} : () -> ()
    %x = tt.load %far : !tt.ptr<f32>
    %y = distributed.consume_token %x, %tok, : f32, i32 -> f32
    tt.store %buf, %y : !tt.ptr<f32>
    tt.return
  }
  tt.func public @offset_consumed(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %peer: i32, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %far = distributed.symm_at %buf, %peer, : !tt.ptr<f32>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %i = distributed.consume_token %n, %tok, : i32, i32 -> i32
    %at = tt.addptr %far, %i : !tt.ptr<f32>, i32
    %x = tt.load %at : !tt.ptr<f32>
    tt.store %buf, %x : !tt.ptr<f32>
    tt.return
  }
}

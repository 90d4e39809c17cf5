// RUN: not ttd-lower %s --split-input-file -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

// Unsupported types are errors at the op, naming the op, the type and what is supported;
// nothing is written.

// CHECK: within split at {{.*}}errors.mlir:1 offset :10:5: error: 'distributed.symm_at' op unsupported type f64 (supported: i8, i16, i32, i64, f16, bf16, f32)
module {
  tt.func public @f64(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

// CHECK: error: 'distributed.consume_token' op unsupported type f8E4M3FN
module {
  tt.func public @fp8(%p: !tt.ptr<f8E4M3FN>, %t: i32) {
    %x = distributed.consume_token %p, %t, : !tt.ptr<f8E4M3FN>, i32 -> !tt.ptr<f8E4M3FN>
    tt.return
  }
}

// -----

// CHECK: error: 'distributed.consume_token' op unsupported type tensor<2x2x2x2x2x2x!tt.ptr<f32>>: pointer tensors of rank 1 to 5 have wrappers, this one has rank 6
module {
  tt.func public @rank6(%p: tensor<2x2x2x2x2x2x!tt.ptr<f32>>, %t: i32) {
    %x = distributed.consume_token %p, %t, : tensor<2x2x2x2x2x2x!tt.ptr<f32>>, i32 -> tensor<2x2x2x2x2x2x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// CHECK: error: 'distributed.wait' op barrier tensor<4x!tt.ptr<i32>> is a tensor of pointers
module {
  tt.func public @tensor_barrier(%b: tensor<4x!tt.ptr<i32>>, %n: i32, %v: i32) {
    %t = distributed.wait %b, %n, %v, scope = gpu semantic = acquire : tensor<4x!tt.ptr<i32>>, i32, i32 -> i32
    tt.return
  }
}

// -----

// CHECK: error: 'distributed.notify' op constant signal 4294967296 does not fit
module {
  tt.func public @too_big(%f: !tt.ptr<i32>, %r: i32) {
    %c = arith.constant 4294967296 : i64
    "distributed.notify"(%f, %c, %r) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// CHECK: error: custom op 'distributed.wait' uses the obsolete two-operand form
module {
  tt.func public @old_wait(%ptrs: tensor<4x!tt.ptr<f32>>, %bar: !tt.ptr<i32>) {
    distributed.wait %ptrs, %bar, scope = gpu semantic = acquire : tensor<4x!tt.ptr<f32>>, !tt.ptr<i32>
    tt.return
  }
}

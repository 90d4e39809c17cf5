// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o %t
// RUN: not ttd-lower %s --split-input-file -o %t.fail 2>&1 | FileCheck %s
// RUN: not test -e %t.fail

// Every distributed-op rule of SPEC.md sections 1-2 that can fail, as expected diagnostics.
// Without --verify-diagnostics the same file fails and writes nothing.

// CHECK: {{.*}}errors.mlir:17:5: error: 'distributed.symm_at' op unsupported type f64 (supported: i8, i16, i32, i64, f16, bf16, f32)
// CHECK-NEXT: %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
// CHECK-NEXT: ^
// CHECK-NEXT: note: in @f64, defined here

module {
  tt.func public @f64(%p: !tt.ptr<f64>, %r: i32) {
    // expected-error@+2 {{'distributed.symm_at' op unsupported type f64 (supported: i8, i16, i32, i64, f16, bf16, f32)}}
    // expected-note@-2 {{in @f64, defined here}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

module {
  tt.func public @fp8(%p: !tt.ptr<f8E4M3FN>, %t: i32) {
    // expected-error@+1 {{unsupported type f8E4M3FN}}
    %x = distributed.consume_token %p, %t, : !tt.ptr<f8E4M3FN>, i32 -> !tt.ptr<f8E4M3FN>
    tt.return
  }
}

// -----

module {
  tt.func public @i1(%p: tensor<8x!tt.ptr<i1>>, %t: i32) {
    // expected-error@+1 {{unsupported type i1 (supported: i8, i16, i32, i64, f16, bf16, f32), in operand type tensor<8x!tt.ptr<i1>>}}
    %x = distributed.consume_token %p, %t, : tensor<8x!tt.ptr<i1>>, i32 -> tensor<8x!tt.ptr<i1>>
    tt.return
  }
}

// -----

module {
  tt.func public @rank6(%p: tensor<2x2x2x2x2x2x!tt.ptr<f32>>, %t: i32) {
    // expected-error@+1 {{pointer tensors of rank 1 to 5 have wrappers, this one has rank 6}}
    %x = distributed.consume_token %p, %t, : tensor<2x2x2x2x2x2x!tt.ptr<f32>>, i32 -> tensor<2x2x2x2x2x2x!tt.ptr<f32>>
    tt.return
  }
}

// -----

module {
  tt.func public @tensor_of_values(%v: tensor<8xf32>, %t: i32) {
    // expected-error@+1 {{only scalars and tensors of pointers have wrappers}}
    %x = distributed.consume_token %v, %t, : tensor<8xf32>, i32 -> tensor<8xf32>
    tt.return
  }
}

// -----

module {
  tt.func public @tensor_barrier(%b: tensor<4x!tt.ptr<i32>>, %n: i32, %v: i32) {
    // expected-error@+1 {{barrier tensor<4x!tt.ptr<i32>> is a tensor of pointers: the dialect allows it but the device library has no wrapper for it}}
    %t = distributed.wait %b, %n, %v, scope = gpu semantic = acquire : tensor<4x!tt.ptr<i32>>, i32, i32 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @wait_value_type(%b: !tt.ptr<i32>, %n: i32, %v: i64) {
    // expected-error@+1 {{waitValue has type i64 but the barrier points to i32}}
    %t = distributed.wait %b, %n, %v, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i64 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @float_barrier(%b: !tt.ptr<f32>, %n: i32, %v: f32) {
    // expected-error@+1 {{barrier must be a !tt.ptr to an integer type, found !tt.ptr<f32>}}
    %t = distributed.wait %b, %n, %v, scope = gpu semantic = acquire : !tt.ptr<f32>, i32, f32 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @unknown_scope(%b: !tt.ptr<i32>, %n: i32, %v: i32) {
    // expected-error@+1 {{expected MemSyncScope keyword (gpu, cta, sys), found 'warp'}}
    %t = distributed.wait %b, %n, %v, scope = warp semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @old_wait(%ptrs: tensor<4x!tt.ptr<f32>>, %bar: !tt.ptr<i32>) {
    // expected-error@+1 {{uses the obsolete two-operand form}}
    distributed.wait %ptrs, %bar, scope = gpu semantic = acquire : tensor<4x!tt.ptr<f32>>, !tt.ptr<i32>
    tt.return
  }
}

// -----

module {
  tt.func public @rank_type(%p: !tt.ptr<f32>, %r: i64) {
    // expected-error@+1 {{use of value '%r' expects different type than prior uses: 'i32' vs 'i64'}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @too_big(%f: !tt.ptr<i32>, %r: i32) {
    %c = arith.constant 4294967296 : i64
    // expected-error@+1 {{constant signal 4294967296 does not fit in the i32 signal of aclshmemx_signal_op}}
    "distributed.notify"(%f, %c, %r) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @bad_sig_op(%f: !tt.ptr<i32>, %v: i64, %r: i32) {
    // expected-error@+1 {{'sigOp' = 3 is not a SignalOp value (set = 1, add = 2)}}
    "distributed.notify"(%f, %v, %r) <{commScope = 3 : i32, sigOp = 3 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @missing_comm_scope(%f: !tt.ptr<i32>, %v: i64, %r: i32) {
    // expected-error@+1 {{requires the 'commScope' attribute}}
    "distributed.notify"(%f, %v, %r) <{sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @tensor_signal(%f: tensor<2x!tt.ptr<i32>>, %v: i64, %r: i32) {
    // expected-error@+1 {{sigAddr must be a scalar !tt.ptr, found tensor<2x!tt.ptr<i32>>}}
    "distributed.notify"(%f, %v, %r) <{commScope = 3 : i32, sigOp = 1 : i32}> : (tensor<2x!tt.ptr<i32>>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @add_on_i64(%f: !tt.ptr<i64>, %v: i64, %r: i32) {
    // expected-error@+1 {{only int32 signals support add on Ascend}}
    "distributed.notify"(%f, %v, %r) <{commScope = 3 : i32, sigOp = 2 : i32}> : (!tt.ptr<i64>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @bad_core_type() {
    // expected-error@+1 {{invalid 'distributed.core_type' value "simt"}}
    distributed.extern_call {distributed.core_type = "simt", libname = "l", libpath = "", pure = false, symbol = "s"} : () -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @no_symbol() {
    // expected-error@+1 {{requires a string attribute 'symbol'}}
    distributed.extern_call {distributed.core_type = "vector", libname = "l", libpath = "", pure = false} : () -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @generic_arity(%p: !tt.ptr<f32>, %r: i32) {
    // expected-error@+1 {{has 2 operands but 1 operand types}}
    %x = "distributed.symm_at"(%p, %r) : (!tt.ptr<f32>) -> !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @undeclared(%p: !tt.ptr<f32>) {
    // expected-error@+1 {{use of undeclared SSA value '%nope'}}
    %x = distributed.symm_at %p, %nope, : !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @used_outside_its_loop(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1  : i32 {
      %r = distributed.get_rank %c0 : i32
    }
    // expected-error@+1 {{use of undeclared SSA value '%r'}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    tt.return
  }
}

// -----

!fptr = !tt.ptr<f32>
module {
  tt.func public @type_alias(%p: !fptr, %r: i32) {
    // expected-error@+1 {{'distributed.symm_at' op type alias '!fptr' is not expanded by ttd-lower: write the type in full}}
    %x = distributed.symm_at %p, %r, : !fptr
    tt.return
  }
}

// -----

module {
  tt.func public @pred_not_i1(%bar: !tt.ptr<i32>, %n: i32, %v: i32, %p: i32) {
    // expected-error@+1 {{'distributed.wait' op the predicate 'pred' must be i1, found i32}}
    %t = "distributed.wait"(%bar, %n, %v, %p) <{scope = 1 : i32, semantic = 2 : i32}> : (!tt.ptr<i32>, i32, i32, i32) -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @pred_not_i1_custom(%bar: !tt.ptr<i32>, %n: i32, %v: i32, %p: i32) {
    // custom form: the format gives pred the type i1, so this is MLIR's use-type error
    // expected-error@+1 {{use of value '%p' expects different type than prior uses: 'i1' vs 'i32'}}
    %t = distributed.wait %bar, %n, %v, scope = gpu semantic = acquire pred = %p : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @wait_five_operands(%bar: !tt.ptr<i32>, %n: i32, %v: i32, %p: i1) {
    // expected-error@+1 {{'distributed.wait' op expects 3 operands, found 5 (up to 4 with the optional 'pred')}}
    %t = "distributed.wait"(%bar, %n, %v, %p, %p) <{scope = 1 : i32, semantic = 2 : i32}> : (!tt.ptr<i32>, i32, i32, i1, i1) -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @tensordesc_custom(%d: !tt.tensordesc<tensor<16x16xf16>>, %t: i32) {
    // expected-error@+1 {{'distributed.consume_token' op no device wrapper exists for a tensor descriptor (!tt.tensordesc<tensor<16x16xf16>>)}}
    %q = distributed.consume_token %d, %t, : !tt.tensordesc<tensor<16x16xf16>>, i32 -> !tt.tensordesc<tensor<16x16xf16>>
    tt.return
  }
}

// -----

module {
  tt.func public @tensordesc_generic(%d: !tt.tensordesc<tensor<16x16xf16>>, %t: i32) {
    // expected-error@+1 {{'distributed.consume_token' op no device wrapper exists for a tensor descriptor (!tt.tensordesc<tensor<16x16xf16>>)}}
    %q = "distributed.consume_token"(%d, %t) : (!tt.tensordesc<tensor<16x16xf16>>, i32) -> !tt.tensordesc<tensor<16x16xf16>>
    tt.return
  }
}

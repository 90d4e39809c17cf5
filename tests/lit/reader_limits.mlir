// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o %t
// RUN: not ttd-lower %s --split-input-file -o %t.fail 2>&1 | FileCheck %s
// RUN: not test -e %t.fail

// Input past what MLIR reads is a located error, never an internal one (exit 3) nor a guess
// (attack of session 42): MLIR's integer width limit, a dimension past int64, a malformed escape
// in a generic op's name; a vector pointee is named in the message as written.

// CHECK: reader_limits.mlir:[[# @LINE + 4]]:36: error: custom op 'distributed.get_rank' integer bitwidth is limited to 16777215 bits
module {
  tt.func @width(%a: i32) {
    // expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
    %0 = distributed.get_rank %a : i16777216
    tt.return
  }
}

// -----

// CHECK: error: custom op 'distributed.get_rank' integer bitwidth is limited to 16777215 bits
module {
  tt.func @width_digits(%a: i32) {
    // expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
    %0 = distributed.get_rank %a : i99999999999999999999
    tt.return
  }
}

// -----

// CHECK: error: custom op 'distributed.symm_at' invalid dimension: it does not fit in a 64-bit signed integer
module {
  tt.func @dimension(%a: i32, %p: tensor<4x!tt.ptr<f32>>) {
    // expected-error@+1 {{invalid dimension: it does not fit in a 64-bit signed integer}}
    %0 = distributed.symm_at %p, %a, : tensor<9223372036854775808x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// CHECK: error: invalid escape '\q' in string literal
module {
  tt.func @escape() {
    // expected-error@+1 {{invalid escape '\q' in string literal}}
    "foo.b\q"() : () -> ()
    tt.return
  }
}

// -----

// CHECK: error: 'distributed.symm_at' op unsupported type vector<4xf32> (supported: i8, i16, i32, i64, f16, bf16, f32), in operand type !tt.ptr<vector<4xf32>>
module {
  tt.func @vector_pointee(%a: i32, %p: !tt.ptr<vector<4xf32>>) {
    // expected-error@+1 {{unsupported type vector<4xf32>}}
    %0 = distributed.symm_at %p, %a, : !tt.ptr<vector<4xf32>>
    tt.return
  }
}

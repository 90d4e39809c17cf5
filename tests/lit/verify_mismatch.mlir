// RUN: not ttd-lower %s -split-input-file -verify-diagnostics 2>&1 | FileCheck %s

// Mismatches are reported as mlir-opt words them, each at its place in the file.

// CHECK: verify_mismatch.mlir:[[# @LINE + 11]]:5: error: unexpected error: 'distributed.symm_at' op unsupported type f64
// CHECK: verify_mismatch.mlir:[[# @LINE + 19]]:8: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: verify_mismatch.mlir:[[# @LINE + 28]]:8: error: expected error "never produced" was not produced
// CHECK: verify_mismatch.mlir:[[# @LINE + 35]]:4: error: invalid regex:
// CHECK: verify_mismatch.mlir:[[# @LINE + 40]]:4: error: found start of regex with no end '}}'
// CHECK: verify_mismatch.mlir:[[# @LINE + 45]]:4: warning: 'expected{{.}}error' is not a designator
// CHECK-NOT: error:
// CHECK-NOT: warning:

module {
  tt.func public @unexpected(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

module {
  tt.func public @wrong_kind(%p: !tt.ptr<f64>, %r: i32) {
    // expected-warning@+1 {{unsupported type f64}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

module {
  tt.func public @never(%c: i32) {
    // expected-error@+1 {{never produced}}
    %r = distributed.get_rank %c : i32
    tt.return
  }
}

// -----

// expected-error-re {{a{{[}}}}
module {
}

// -----

// expected-error-re {{a {{b}}
module {
}

// -----

// expected-error@+1 {{a typo: one brace short}
module {
}

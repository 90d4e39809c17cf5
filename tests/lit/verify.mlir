// RUN: ttd-lower %s -split-input-file -verify-diagnostics -o %t
// RUN: FileCheck %s --input-file %t

// MLIR's designators, as mlir-opt -verify-diagnostics reads them: @+N, @-N, @above, @below,
// a designator on its own line, -re with {{regex}} parts, notes.  The
// chunks with expected errors print nothing; the good chunk is printed.
// CHECK: tt.func public @good
// CHECK: "dist.aclshmem_my_pe"

module {
  tt.func public @plus(%p: !tt.ptr<f64>, %r: i32) {
    // expected-error-re@+1 {{unsupported type {{f[0-9]+}} (supported: {{.*}}), in operand type !tt.ptr<{{f64}}>}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

module {
  // expected-note@+1 {{in @minus, defined here}}
  tt.func public @minus(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    // expected-error@-1 {{unsupported type f64}}
    tt.return
  }
}

// -----

module {
  tt.func public @above(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    // expected-error@above {{'distributed.symm_at' op unsupported type}}
    tt.return
  }
}

// -----

module {
  // expected-note @below {{in @below, defined here}}
  tt.func public @below(%p: !tt.ptr<f64>, %r: i32) {
    // expected-error@below {{unsupported type f64}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

// -----

module {
  tt.func public @same_line(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64> // expected-error {{unsupported type f64}}
    tt.return
  }
}

// -----

module {
  tt.func public @good(%c: i32) {
    %r = distributed.get_rank %c : i32
    tt.return
  }
}

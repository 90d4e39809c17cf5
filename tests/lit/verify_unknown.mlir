// RUN: rm -rf %t.d && mkdir -p %t.d/verify_unknown.ttadapter.mlir
// RUN: ttd-lower %s --override-dir %t.d -verify-diagnostics -o /dev/null

// @unknown matches a diagnostic that has no place in a file: here the override file of the
// ttadapter stage is a folder, so it cannot be read.

// expected-error@unknown {{cannot read the override file}}
module {
  tt.func public @f() {
    tt.return
  }
}

// RUN: ttd-lower %s -split-input-file="// ==" --strip-comments | FileCheck %s
// RUN: ttd-lower %s -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=NEAR

// --split-input-file=MARKER splits at lines starting with MARKER (here '// =='): two modules.
// A line that starts like the default marker less its last two characters ('// ---') is a
// near miss: mlir-opt warns about it, and so does ttd-lower.
// CHECK: tt.func @a
// CHECK: // ==
// CHECK: tt.func @b

// NEAR: {{.*}}split_marker.mlir:[[# @LINE + 7]]:1: warning: near miss with file split marker

module {
  tt.func @a() {
    tt.return
  }
}
// ---
// ==
module {
  tt.func @b() {
    tt.return
  }
}

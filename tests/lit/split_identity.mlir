// RUN: ttd-lower %s -split-input-file -o %t && diff %s %t
// RUN: ttd-lower %s --split-input-file=// -o %t.one && diff %s %t.one
// RUN: ttd-lower %s -split-input-file --output-split-marker="// ===" | FileCheck %s

// A file without distributed ops comes back byte-identical with --split-input-file: the
// separators, blank lines and comments around them stay as written.  With
// --output-split-marker the chunks are joined by that line instead, as mlir-opt does.
// CHECK: tt.func @a
// CHECK: {{^}}// ==={{$}}
// CHECK-NEXT: {{^$}}
// CHECK-NEXT: // the second chunk
// CHECK: tt.func @b

module {
  tt.func @a() {
    tt.return
  }
}

// -----

// the second chunk
module {
  tt.func @b() {
    tt.return
  }
}

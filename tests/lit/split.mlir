// RUN: not ttd-lower %s -split-input-file --strip-comments 2>%t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR --input-file %t.err
// RUN: not ttd-lower %s -split-input-file -o %t.out
// RUN: not test -e %t.out

// --split-input-file as mlir-opt: every chunk on its own; the good ones are printed in order,
// joined by the marker lines as written (the trailing text of a marker line is kept); the bad
// chunk is reported at the line of the file and prints nothing; the exit status is 1.  With -o
// nothing is written (mlir-opt deletes its output file on failure; ttd-lower never starts it).

// OUT: tt.func public @first
// OUT: "dist.aclshmem_my_pe"
// OUT-NEXT: tt.return
// OUT: // ----- the second chunk is bad
// OUT-NOT: @second
// OUT: // -----
// OUT-NEXT: module {
// OUT-NEXT: tt.func public @third
// OUT: "dist.aclshmem_n_pes"

// ERR: {{.*}}split.mlir:[[# @LINE + 14]]:5: error: 'distributed.symm_at' op unsupported type f64
// ERR-NEXT: {{^}}    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
// ERR-NEXT: {{^}}    ^
// ERR-NEXT: {{.*}}split.mlir:[[# @LINE + 10]]:3: note: in @second, defined here

module {
  tt.func public @first(%c: i32) {
    %r = distributed.get_rank %c : i32
    tt.return
  }
}
// ----- the second chunk is bad
module {
  tt.func public @second(%p: !tt.ptr<f64>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}
// -----
module {
  tt.func public @third(%c: i32) {
    %n = distributed.get_num_ranks %c : i32
    tt.return
  }
}

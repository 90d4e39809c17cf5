// RUN: ttd-lower %s -allow-unregistered-dialect -mlir-print-debuginfo -strip-comments -o %t
// RUN: FileCheck %s --input-file %t
// RUN: ttd-lower %s --allow-unregistered-dialect --mlir-print-debuginfo --strip-comments | diff %t -
// RUN: ttd-lower -split-input-file %s -strip-comments -o %t.split
// RUN: FileCheck %s --check-prefix=SPLIT --input-file %t.split
// RUN: not ttd-lower %s -mlir-print-debuginfo -strip-debuginfo 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: ttd-lower -help | FileCheck %s --check-prefix=HELP

// mlir-opt's spellings: every long option with one dash too; --allow-unregistered-dialect is
// accepted (ops of any dialect are always kept); --split-input-file takes a marker only after
// '=' (so the file after it stays the input); --mlir-print-debuginfo gives every op written
// without loc(...) the location MLIR gives it (the position of its name).

// CHECK: %r = hivm.hir.custom {{.*}} "dist.aclshmem_my_pe" -> i32 loc("{{.*}}options.mlir":[[# @LINE + 28]]:10)
// CHECK: "foo.unregistered"() : () -> () loc("{{.*}}options.mlir":[[# @LINE + 28]]:5)
// CHECK: tt.return loc("kept.py":1:2)
// CHECK: } loc("{{.*}}options.mlir":[[# @LINE + 24]]:3)
// CHECK: } loc("{{.*}}options.mlir":[[# @LINE + 22]]:1)

// SPLIT: "dist.aclshmem_my_pe"

// BOTH: {{^}}ttd-lower: error: --mlir-print-debuginfo and --strip-debuginfo exclude each other. Try 'ttd-lower --help'{{$}}

// HELP: OVERVIEW: ttd-lower:
// HELP: USAGE: ttd-lower [options] <input file>
// HELP: General options:
// HELP: --allow-unregistered-dialect
// HELP: -o <filename>
// HELP: --split-input-file[=<marker>]
// HELP: Lowering options:
// HELP: Diagnostics options:
// HELP: --verify-diagnostics[=<value>]
// HELP: Printing options:
// HELP: --mlir-print-debuginfo
// HELP: Stage and IR dump options:
// HELP: --mlir-print-ir-after-all
// HELP: Generic Options:
// HELP: --version

module {
  tt.func public @f(%c: i32) {
    %r = distributed.get_rank %c : i32
    "foo.unregistered"() : () -> ()
    tt.return loc("kept.py":1:2)
  }
}

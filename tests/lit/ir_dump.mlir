// RUN: ttd-lower %s -mlir-print-ir-before-all -mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: env MLIR_ENABLE_DUMP=1 ttd-lower %s -o /dev/null 2>&1 | FileCheck %s
// RUN: env MLIR_ENABLE_DUMP=dumped_kernel ttd-lower %s -o /dev/null 2>&1 | FileCheck %s
// RUN: env MLIR_ENABLE_DUMP=other_kernel ttd-lower %s -o /dev/null 2>&1 | not grep "IR Dump"
// RUN: rm -f %t.log && env MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH=%t.log ttd-lower %s -o /dev/null
// RUN: FileCheck %s --input-file %t.log
// RUN: rm -rf %t.d && ttd-lower %s -dump-dir %t.d -o /dev/null && ls %t.d | FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.e && cp %s %t.k.ttir && ttd-lower %t.k.ttir --dump-dir %t.e -o /dev/null && ls %t.e | FileCheck %s --check-prefix=TTIR

// The IR around each stage on stderr, under mlir-opt's headers: with the two options, with
// Triton's MLIR_ENABLE_DUMP=1 (or the name of a kernel the input defines), or into
// MLIR_DUMP_PATH.  --dump-dir writes every stage, and the parsed input as the output of the
// stage that made it (k.ttir -> k.ttir.mlir, although the walk starts after ttir).
// CHECK: // -----// IR Dump Before VerifyDistributedOps (ttir) ('builtin.module' operation) //----- //
// CHECK: distributed.get_rank
// CHECK: // -----// IR Dump After VerifyDistributedOps (ttir) ('builtin.module' operation) //----- //
// CHECK: distributed.get_rank
// CHECK: // -----// IR Dump Before ConvertDistributedToHIVM (ttadapter) ('builtin.module' operation) //----- //
// CHECK: distributed.get_rank
// CHECK: // -----// IR Dump After ConvertDistributedToHIVM (ttadapter) ('builtin.module' operation) //----- //
// CHECK: "dist.aclshmem_my_pe"

// DUMP: ir_dump.ttadapter.mlir
// DUMP-NEXT: ir_dump.ttir.mlir

// TTIR: ir_dump.mlir.tmp.k.ttadapter.mlir
// TTIR-NEXT: ir_dump.mlir.tmp.k.ttir.mlir

module {
  tt.func public @dumped_kernel(%c: i32) {
    %r = distributed.get_rank %c : i32
    tt.return
  }
}

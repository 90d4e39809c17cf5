// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments | FileCheck %s --check-prefix=BUNDLED
// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments --device-library=1.2.0 | FileCheck %s --check-prefix=RELEASE
// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments --device-library=1.2.0-post | FileCheck %s --check-prefix=RELEASE
// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments --device-library=master | FileCheck %s --check-prefix=RELEASE
// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments --device-library=master --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ttd-lower %s --no-warn=unused-wait-token --strip-comments --no-link-check --device-library=master | FileCheck %s --check-prefix=BUNDLED
// RUN: ttd-lower %inputs/device_library_errors.mlir --no-warn=unused-wait-token --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %inputs/device_library_release.mlir --no-warn=unused-wait-token --split-input-file --verify-diagnostics --device-library=1.2.0 -o /dev/null
// RUN: ttd-lower %inputs/device_library_release.mlir --no-warn=unused-wait-token --split-input-file --device-library=master --strip-comments | FileCheck %s --check-prefix=MASTER
// RUN: not ttd-lower %inputs/device_library_release.mlir --no-warn=unused-wait-token --device-library=1.2.0 -o %t 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: ttd-lower --list-symbols --device-library=1.2.0 | FileCheck %s --check-prefix=LIST

// The operands of each custom op are checked against the C signature of its symbol in the
// selected device library (SPEC.md section 5).  AscendNPU-IR's aclshmem_wait_<T> takes
// `int64_t numBarriers`: under each of its releases an i32 count is extended (arith.extsi, or
// an i64 constant for a constant); the bundled library's wrapper takes int32_t: left as is.
// --no-link-check compares nothing and extends nothing.

// BUNDLED: %t = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// BUNDLED: %t2 = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %c4_i32, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// BUNDLED-NOT: i64
// RELEASE: %n_i64 = arith.extsi %n : i32 to i64
// RELEASE-NEXT: %t = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %n_i64, %c1_i32 : !tt.ptr<i32>, i64, i32) -> i32
// RELEASE-NEXT: %c4_i64 = arith.constant 4 : i64
// RELEASE-NEXT: %t2 = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %c4_i64, %c1_i32 : !tt.ptr<i32>, i64, i32) -> i32
// GENERIC: %n_i64 = "arith.extsi"(%n) : (i32) -> i64
// GENERIC: %c4_i64 = "arith.constant"() <{value = 4 : i64}> : () -> i64
// LIST: aclshmem_wait_int32{{[[:space:]]}}int _mlir_ciface_aclshmem_wait_int32(memref_t<__gm__ int32_t, 1> barrierPtr, int64_t numBarriers, int32_t waitVal)
// LIST-NOT: aclshmem_barrier{{[[:space:]]}}
module {
  tt.func public @waits(%bar: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %t = distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %t2 = "distributed.wait"(%bar, %c4_i32, %c1_i32) <{scope = 1 : i32, semantic = 2 : i32}> : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}

// REFUSED: error: this op lowers to symbol 'aclshmem_barrier', which is not in the device template library AscendNPU-IR 1.2.0 (commit 8796a8ac1508) ({{.*}}ascendnpu-ir-1.2.0.txt); it is in --device-library=bundled, 1.2.0-post, master
// MASTER-LABEL: tt.func public @team_barrier
// MASTER: hivm.hir.custom {{.*}}"dist.aclshmem_barrier" ins(%team : i32)

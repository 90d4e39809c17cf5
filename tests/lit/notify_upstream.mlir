// RUN: ttd-lower %s --split-input-file --verify-diagnostics --strip-comments | FileCheck %s
// RUN: not ttd-lower %s --split-input-file -o %t 2>&1 | FileCheck %s --check-prefix=WARN

// notify on a signal pointer to neither i32 nor i64/ui64 (SPEC.md section 2.2): as the upstream
// pass does (its own test uses !tt.ptr<f32>), the symbol comes from the signal value type, i64:
// aclshmem_int64_p with the operands unchanged, and a located warning; exit status 0.  Add on
// such a pointer is an error, as on i64.  The enum attributes mean the same as a dictionary and
// as properties.

// Without --verify-diagnostics: the warnings are printed, the add is an error (exit 1).
// WARN: notify_upstream.mlir:20:5: warning: 'distributed.notify' op the signal pointer's element type f32 is not the signal's type (i64)
// WARN: error: 'distributed.notify' op signal add is not supported on an f32 signal

// CHECK-LABEL: tt.func public @dictionary
// CHECK: hivm.hir.custom {commScope = 2 : i32, gm_addr_args_indices = array<i32: 0>, {{.*}}sigOp = 1 : i32, symbol = "aclshmem_int64_p"} "dist.aclshmem_int64_p" ins(%data, %c1_i64, %peer : !tt.ptr<f32>, i64, i32)
module {
  tt.func public @dictionary(%data: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %peer: i32) {
    %c1_i64 = arith.constant 1 : i64
    // expected-warning@+1 {{'distributed.notify' op the signal pointer's element type f32 is not the signal's type (i64): lowered as the upstream pass does, to aclshmem_int64_p}}
    "distributed.notify"(%data, %c1_i64, %peer) {sigOp = 1 : i32, commScope = 2 : i32} : (!tt.ptr<f32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @properties
// CHECK: hivm.hir.custom {commScope = 1 : i32, gm_addr_args_indices = array<i32>, {{.*}}sigOp = 1 : i32, symbol = "aclshmem_int64_p"} "dist.aclshmem_int64_p" ins(%q, %v, %peer : !tt.ptr<bf16>, i64, i32)
module {
  tt.func public @properties(%data: !tt.ptr<bf16>, %v: i64, %peer: i32) {
    %c4_i32 = arith.constant 4 : i32
    %q = tt.addptr %data, %c4_i32 : !tt.ptr<bf16>, i32
    // expected-warning@+1 {{element type bf16 is not the signal's type (i64)}}
    "distributed.notify"(%q, %v, %peer) <{commScope = 1 : i32, sigOp = 1 : i32}> : (!tt.ptr<bf16>, i64, i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @add(%data: !tt.ptr<f32>, %v: i64, %peer: i32) {
    // expected-error@+1 {{signal add is not supported on an f32 signal: only int32 signals support add on Ascend}}
    "distributed.notify"(%data, %v, %peer) <{commScope = 1 : i32, sigOp = 2 : i32}> : (!tt.ptr<f32>, i64, i32) -> ()
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s
// RUN: ttd-lower %s --split-input-file --strip-comments --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// wait with the Triton 3.7 predicate (SPEC.md section 1): `pred = %p` in custom form, a fourth
// operand in generic form; no wrapper takes a predicate, so the wait custom op sits in an
// scf.if on %p that yields its token, and the skipped path yields a zero token.

// CHECK-LABEL: tt.func public @custom_form
// CHECK:      %tok = scf.if %p -> (i32) {
// CHECK-NEXT:   %tok_wait = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}scope = 1 : i32, semantic = 2 : i32, symbol = "aclshmem_wait_int32"} "dist.aclshmem_wait_int32" ins(%bar, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT:   scf.yield %tok_wait : i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:   scf.yield %c0_i32 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %q = hivm.hir.custom {{.*}}"dist.aclshmem_consume_token_float_ptr_1d" ins(%data, %tok : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
// GENERIC-LABEL: sym_name = "custom_form"
// GENERIC:      %tok = "scf.if"(%p) ({
// GENERIC-NEXT:   %tok_wait = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// GENERIC-NEXT:   "scf.yield"(%tok_wait) : (i32) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT:   %c0_i32 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:   "scf.yield"(%c0_i32) : (i32) -> ()
// GENERIC-NEXT: }) : (i1) -> i32
module {
  tt.func public @custom_form(%bar: !tt.ptr<i32>, %n: i32, %p: i1, %data: !tt.ptr<f32>) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire pred = %p : !tt.ptr<i32>, i32, i32 -> i32
    %q = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    tt.return
  }
}

// -----

// The generic form gives the same ops; an i64 barrier yields an i32 token all the same.
// CHECK-LABEL: tt.func public @generic_form
// CHECK:      %t = scf.if %p -> (i32) {
// CHECK-NEXT:   %t_wait = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}scope = 3 : i32, semantic = 4 : i32, symbol = "aclshmem_wait_int64"} "dist.aclshmem_wait_int64" ins(%bar, %n, %c1_i64 : !tt.ptr<i64>, i32, i64) -> i32
// CHECK-NEXT:   scf.yield %t_wait : i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:   scf.yield %c0_i32 : i32
// CHECK-NEXT: }
// CHECK-NOT: distributed.
module {
  tt.func public @generic_form(%bar: !tt.ptr<i64>, %n: i32, %x: i32) {
    %c1_i64 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %c0 : i32
    %t = "distributed.wait"(%bar, %n, %c1_i64, %p) <{scope = 3 : i32, semantic = 4 : i32}> : (!tt.ptr<i64>, i32, i64, i1) -> i32
    tt.return
  }
}

// -----

// Inside a loop, with a predicate computed there; the names it creates stay unique.
// CHECK-LABEL: tt.func public @in_loop
// CHECK: scf.for
// CHECK:   %t = scf.if %on -> (i32) {
// CHECK:     %t_wait = hivm.hir.custom
// CHECK:     %c0_i32_0 = arith.constant 0 : i32
module {
  tt.func public @in_loop(%bar: !tt.ptr<i32>, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    scf.for %i = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
      %on = arith.cmpi eq, %i, %c0_i32 : i32
      %t = distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire pred = %on : !tt.ptr<i32>, i32, i32 -> i32
    }
    tt.return
  }
}

// -----

// A token nobody binds still gets the guard (its result is named, as MLIR's printer would).
// CHECK-LABEL: tt.func public @unbound
// CHECK:      %unused = scf.if %p -> (i32) {
// CHECK-NEXT:   %wait = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32" ins(%bar, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT:   scf.yield %wait : i32
module {
  tt.func public @unbound(%bar: !tt.ptr<i32>, %n: i32, %p: i1) {
    %c1_i32 = arith.constant 1 : i32
    distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire pred = %p : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}

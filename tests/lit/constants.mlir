// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// Integer literals are read at their type's width (SPEC.md section 3): the i64 constant signal
// 18446744073709551615 is -1, the same as 0xFFFFFFFFFFFFFFFF, so it fits the i32 signal of
// aclshmemx_signal_op (section 2.2), in custom and in generic form.

// CHECK-LABEL: tt.func public @decimal
// CHECK: %c-1_i32 = arith.constant -1 : i32
// CHECK: "dist.aclshmemx_signal_op" ins(%flag, %c-1_i32, %c0_i32, %peer : !tt.ptr<i32>, i32, i32, i32)
module {
  tt.func public @decimal(%flag: !tt.ptr<i32>, %peer: i32) {
    %big = arith.constant 18446744073709551615 : i64
    "distributed.notify"(%flag, %big, %peer) <{commScope = 1 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @generic_and_hex
// CHECK: %c-1_i32 = arith.constant -1 : i32
// CHECK: "dist.aclshmemx_signal_op" ins(%flag, %c-1_i32, %c1_i32, %peer : !tt.ptr<i32>, i32, i32, i32)
// CHECK: %c-1_i32_0 = arith.constant -1 : i32
// CHECK: "dist.aclshmemx_signal_op" ins(%flag, %c-1_i32_0, %c0_i32, %peer : !tt.ptr<i32>, i32, i32, i32)
module {
  tt.func public @generic_and_hex(%flag: !tt.ptr<i32>, %peer: i32) {
    %big = "arith.constant"() <{value = 18446744073709551615 : i64}> : () -> i64
    "distributed.notify"(%flag, %big, %peer) <{commScope = 1 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %hex = arith.constant 0xFFFFFFFFFFFFFFFF : i64
    "distributed.notify"(%flag, %hex, %peer) {commScope = 1 : i32, sigOp = 1 : i32} : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

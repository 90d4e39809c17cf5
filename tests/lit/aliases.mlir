// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// Attribute aliases in the distributed ops' attributes are read as their values, as mlir-opt
// reads them (issue 30); the definitions pass through.

// CHECK: #add = 2 : i32
// CHECK: #sys = 3 : i32
// CHECK-LABEL: tt.func public @notify_aliases
// CHECK: hivm.hir.custom {commScope = 3 : i32, {{.*}}sigOp = 2 : i32, symbol = "aclshmemx_signal_op"} "dist.aclshmemx_signal_op"
#add = 2 : i32
#sys = 3 : i32
module {
  tt.func public @notify_aliases(%flag: !tt.ptr<i32>, %peer: i32) {
    %c7_i64 = arith.constant 7 : i64
    "distributed.notify"(%flag, %c7_i64, %peer) <{commScope = #sys, sigOp = #add}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// CHECK: #lib = "libshmem_device"
// CHECK: #sym = "aclshmem_my_pe"
// CHECK-LABEL: tt.func public @extern_call_aliases
// CHECK: hivm.hir.custom {{.*}}hivm.tcore_type = #hivm.tcore_type<VECTOR>{{.*}}symbol = "aclshmem_my_pe"
#lib = "libshmem_device"
#sym = "aclshmem_my_pe"
#yes = true
#vec = "vector"
module {
  tt.func public @extern_call_aliases() {
    %me = distributed.extern_call {distributed.core_type = #vec, libname = #lib, libpath = "", pure = #yes, symbol = #sym} : () -> i32
    tt.return
  }
}

// RUN: ttd-lower %s --strip-comments --no-link-check | FileCheck %s

// (--no-link-check: no library symbol has several results; these are made up.)

// Several results are parenthesised; a tensor result gets a tensor.empty destination.

// CHECK-LABEL: tt.func public @multi
// CHECK: %pair:2 = hivm.hir.custom {{.*}}"dist.my_lib_pair" ins(%n : i32) -> (i32, i64)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %vec = hivm.hir.custom {{.*}}"dist.my_lib_vec" ins(%n : i32) outs(%[[E]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: annotation.mark
module {
  tt.func public @multi(%n: i32) {
    %pair:2 = distributed.extern_call %n {distributed.core_type = "cube", libname = "my_lib", libpath = "", pure = true, symbol = "my_lib_pair"} : (i32) -> (i32, i64)
    %vec = distributed.extern_call %n {distributed.core_type = "vector", libname = "my_lib", libpath = "", pure = true, symbol = "my_lib_vec"} : (i32) -> tensor<4xf32>
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --verify-diagnostics --strip-comments --no-warn=unused-wait-token | FileCheck %s

// Properties and attributes mean the same wherever a rule reads them (SPEC.md section 2.4 item
// 1): `pure = true` given as a property (the generic form MLIR prints) makes an extern_call
// effect-free exactly as in custom form.  An attribute whose name hivm.hir.custom uses for
// itself (`name`, segment sizes written by hand) cannot be carried: a located error.

// CHECK-LABEL: tt.func public @pure_custom
// CHECK: %r = hivm.hir.custom {{{.*}}no_side_effect, pure = true, symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32
module {
  tt.func public @pure_custom() {
    %r = distributed.extern_call {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", pure = true, symbol = "aclshmem_my_pe"} : () -> i32
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @pure_generic
// CHECK: %r = hivm.hir.custom {{{.*}}no_side_effect, pure = true, symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32
// CHECK: hivm.hir.custom {{{.*}}pure = false, symbol = "aclshmem_quiet"} "dist.aclshmem_quiet"
// CHECK-NOT: no_side_effect
module {
  tt.func public @pure_generic() {
    %r = "distributed.extern_call"() <{libname = "libshmem_device", libpath = "", pure = true, symbol = "aclshmem_my_pe"}> {distributed.core_type = "vector"} : () -> i32
    "distributed.extern_call"() <{libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_quiet"}> {distributed.core_type = "vector"} : () -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @name_custom(%p: !tt.ptr<f32>, %r: i32) {
    // expected-error@+1 {{'distributed.symm_at' op has an attribute 'name', which cannot be copied onto hivm.hir.custom: that op uses 'name' for its own name string}}
    %x = distributed.symm_at %p, %r, {name = "mine"} : !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @name_generic(%bar: !tt.ptr<i32>, %n: i32, %v: i32) {
    // expected-error@+1 {{'distributed.wait' op has an attribute 'name', which cannot be copied onto hivm.hir.custom}}
    %t = "distributed.wait"(%bar, %n, %v) <{scope = 1 : i32, semantic = 2 : i32}> {name = "w"} : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @segments(%p: !tt.ptr<f32>, %n: i32) {
    // expected-error@+1 {{'distributed.extern_call' op has an attribute 'operandSegmentSizes', which cannot be copied onto hivm.hir.custom: that op uses 'operandSegmentSizes' for its own operand segment sizes}}
    "distributed.extern_call"(%p, %n) <{libname = "libshmem_device", libpath = "", operandSegmentSizes = array<i32: 2>, pure = false, symbol = "aclshmem_ptr"}> {distributed.core_type = "vector"} : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @segments_custom(%p: !tt.ptr<f32>, %n: i32) {
    // expected-error@+1 {{'distributed.extern_call' op has an attribute 'operandSegmentSizes', which cannot be copied onto hivm.hir.custom}}
    %r = distributed.extern_call %p, %n {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", operandSegmentSizes = array<i32: 2>, pure = false, symbol = "aclshmem_ptr"} : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func public @name_property(%bar: !tt.ptr<i32>, %v: i64, %r: i32) {
    // expected-error@+1 {{'distributed.notify' op has an attribute 'name', which cannot be copied onto hivm.hir.custom}}
    "distributed.notify"(%bar, %v, %r) <{commScope = 1 : i32, name = "n", sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// What the lowering sets itself (items 2-9) is refused too: a hand-written value was replaced
// without a word, and `no_side_effect` on a wait would let canonicalize delete it.

module {
  tt.func public @pipe(%n: i32) {
    // expected-error@+1 {{'distributed.get_rank' op has an attribute 'hivm.pipe', which the lowering sets itself on hivm.hir.custom (SPEC.md section 2.4); drop it}}
    %r = distributed.get_rank %n {hivm.pipe = #hivm.pipe<PIPE_V>} : i32
    tt.return
  }
}

// -----

module {
  tt.func public @indices_property(%bar: !tt.ptr<i32>, %n: i32, %v: i32) {
    // expected-error@+1 {{'distributed.wait' op has an attribute 'gm_addr_args_indices', which the lowering sets itself}}
    %t = "distributed.wait"(%bar, %n, %v) <{gm_addr_args_indices = array<i32>, scope = 1 : i32, semantic = 2 : i32, waitValue = 1 : i32}> : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @symbol_on_a_wait(%bar: !tt.ptr<i32>, %n: i32, %v: i32) {
    // expected-error@+1 {{'distributed.symm_at' op has an attribute 'symbol', which the lowering sets itself}}
    %x = distributed.symm_at %bar, %n, {symbol = "aclshmem_ptr_float"} : !tt.ptr<i32>
    tt.return
  }
}

// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// The reader finds where each op ends from its tokens, as mlir-opt does: these are all
// valid MLIR that a line-based reader refused or mis-read (issue 12).

// A signature one argument per line, `attributes` and the region's `{` on lines of their own.
// CHECK-LABEL: tt.func public @signature_per_line(
// CHECK: %far = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}symbol = "aclshmem_ptr_float"} "dist.aclshmem_ptr_float" ins(%src, %peer : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
module {
  tt.func public @signature_per_line(
      %src: !tt.ptr<f32> {tt.divisibility = 16 : i32},
      %peer: i32)
      attributes {noinline = false}
  {
    %far = distributed.symm_at %src, %peer, : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A dictionary over several lines, an op continued by `:` and `->` lines, comments between
// tokens, and an alias named only in a comment (#map9 is no use).
// CHECK-LABEL: tt.func @multi_line_op
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32>, {{.*}}libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_quiet"} "dist.aclshmem_quiet"
// CHECK-NEXT: tt.return
module {
  tt.func @multi_line_op() {
    distributed.extern_call {
        distributed.core_type = "vector", // see #map9
        libname = "libshmem_device",
        libpath = "",
        pure = false,
        symbol = "aclshmem_quiet"}
      : ()
      -> ()
    tt.return
  }
}

// -----

// `return` and `call` of func.func without their dialect prefix; a generic op name without
// a dot uses the lowered value.
// CHECK-LABEL: func.func @default_dialect
// CHECK: %rank = hivm.hir.custom {{.*}}"dist.aclshmem_my_pe" -> i32
// CHECK-NEXT: "some_use"(%rank) : (i32) -> ()
// CHECK-NEXT: %n = call @helper(%rank) : (i32) -> i32
// CHECK-NEXT: return %n : i32
func.func private @helper(i32) -> i32
func.func @default_dialect(%axis: i32) -> i32 {
  %rank = distributed.get_rank %axis : i32
  "some_use"(%rank) : (i32) -> ()
  %n = call @helper(%rank) : (i32) -> i32
  return %n : i32
}

// -----

// Region keywords of a custom printer (`case 2 {`, `default {`) on their own lines.
// CHECK-LABEL: tt.func @switch
// CHECK: case 2{{$}}
// CHECK-NEXT: {
// CHECK-NEXT: %r = hivm.hir.custom {{.*}}"dist.aclshmem_n_pes" -> i32
// CHECK: default{{$}}
module {
  tt.func @switch(%i: index, %axis: i32) {
    %0 = scf.index_switch %i -> i32
    case 2
    {
      %r = distributed.get_num_ranks %axis : i32
      scf.yield %r : i32
    }
    default
    {
      scf.yield %axis : i32
    }
    tt.return
  }
}

// -----

// Result groups stay as written; `{-# ... #-}` file metadata is kept.
// CHECK-LABEL: tt.func @groups
// CHECK: %r:1 = hivm.hir.custom {{.*}}"dist.aclshmem_my_pe" -> i32
// CHECK-NEXT: %s = arith.addi %r#0, %r#0 : i32
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
module {
  tt.func @groups(%axis: i32) {
    %r:1 = distributed.get_rank %axis : i32
    %s = arith.addi %r#0, %r#0 : i32
    tt.return
  }
}
{-#
  dialect_resources: {
    builtin: {}
  }
#-}

// -----

// Ops outside any function (an implicit module): new names are unique in the whole module.
// CHECK-LABEL: %c1_i32 = arith.constant 1 : i32
// CHECK: %[[SIGNAL:c7_i32[_0-9]*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[ADD:c1_i32_[0-9]+]] = arith.constant 1 : i32
// CHECK-NEXT: hivm.hir.custom {{.*}}"dist.aclshmemx_signal_op" ins(%sig, %[[SIGNAL]], %[[ADD]], %c1_i32 : !tt.ptr<i32>, i32, i32, i32)
%c1_i32 = arith.constant 1 : i32
%c7_i64 = arith.constant 7 : i64
%sig = "test.pointer"() : () -> !tt.ptr<i32>
"distributed.notify"(%sig, %c7_i64, %c1_i32) <{commScope = 1 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()

// -----

// Symbols, strings and attributes that contain `distributed.` or `tt.dot` are no ops: no
// error, and no dot, so the core type stays VECTOR.
// CHECK-LABEL: tt.func @"distributed.not_an_op"
// CHECK: "foo.mark"() {note = "tt.dot distributed.wait", ref = @distributed.wait} : () -> ()
// CHECK: hivm.tcore_type = #hivm.tcore_type<VECTOR>
module {
  tt.func @"distributed.not_an_op"(%axis: i32) {
    "foo.mark"() {note = "tt.dot distributed.wait", ref = @distributed.wait} : () -> ()
    %r = distributed.get_rank %axis : i32
    tt.return
  }
}

// -----

// A name defined in a nested region is gone when the region closes: the enclosing region
// may define it again.  A string keeps its bytes ("\FF").
// CHECK-LABEL: tt.func @scopes
// CHECK: %r = hivm.hir.custom {{.*}}"dist.aclshmem_my_pe" -> i32
// CHECK: %r = arith.addi %axis, %axis : i32
// CHECK: libname = "\FF"
module {
  tt.func @scopes(%axis: i32, %b: i1) {
    scf.if %b {
      %r = distributed.get_rank %axis : i32
    }
    %r = arith.addi %axis, %axis : i32
    distributed.extern_call {distributed.core_type = "vector", libname = "\FF", libpath = "", pure = false, symbol = "aclshmem_quiet"} : () -> ()
    tt.return
  }
}

// -----

// An i64 constant in unsigned decimal spelling is read at its width: -1.
// CHECK-LABEL: tt.func @unsigned_spelling
// CHECK: %c-1_i32 = arith.constant -1 : i32
// CHECK: "dist.aclshmemx_signal_op" ins(%sig, %c-1_i32,
module {
  tt.func @unsigned_spelling(%sig: !tt.ptr<i32>, %peer: i32) {
    %all = arith.constant 18446744073709551615 : i64
    "distributed.notify"(%sig, %all, %peer) <{commScope = 1 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// Two ops on one line, and a region on one line: each custom op on a line of its own (SPEC.md
// section 2.6), the ops around it on lines of their own.
// CHECK-LABEL: tt.func @one_line
// CHECK: %c0 = arith.constant 0 : i32{{$}}
// CHECK-NEXT: %r = hivm.hir.custom {{.*}}"dist.aclshmem_my_pe" -> i32{{$}}
// CHECK-NEXT: scf.if %b {{{$}}
// CHECK-NEXT: %n = hivm.hir.custom {{.*}}"dist.aclshmem_n_pes" -> i32{{$}}
// CHECK-NEXT: }
module {
  tt.func @one_line(%b: i1) {
    %c0 = arith.constant 0 : i32 %r = distributed.get_rank %c0 : i32
    scf.if %b { %n = distributed.get_num_ranks %c0 : i32 }
    tt.return
  }
}

// -----

// Two alias definitions on one line; `%x#0` names the only result of `%x = ...`; braces that
// hold values in a custom syntax are no region.
// CHECK: #a = 1 : i32#b = 2 : i64
// CHECK-LABEL: tt.func @value_forms
// CHECK: %q = hivm.hir.custom {{.*}}"dist.aclshmem_ptr_float" ins(%p, %x : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
// CHECK-NEXT: foo.check %r {%x} : i32
#a = 1 : i32#b = 2 : i64
module attributes {x = #a, y = #b} {
  tt.func @value_forms(%p: !tt.ptr<f32>, %r: i32) {
    %x = arith.addi %r, %r : i32
    %q = distributed.symm_at %p, %x#0, : !tt.ptr<f32>
    foo.check %r {%x} : i32
    tt.return
  }
}

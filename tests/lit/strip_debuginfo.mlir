// RUN: ttd-lower %s --strip-debuginfo --strip-comments | FileCheck %s

// --strip-debuginfo drops the locations of ops and arguments and the aliases only they use;
// a location used as an attribute value is data: it stays, with its alias.

// CHECK-NOT: #loc =
// CHECK: #loc2 = loc("b.py":2:2)
// CHECK-NOT: #loc3
// CHECK: tt.func @f(%x: i32) {
// CHECK-NEXT: %r = hivm.hir.custom {{.*}}"dist.aclshmem_my_pe" -> i32{{$}}
// CHECK-NEXT: "foo.bar"() {w2 = loc("z":1:1), where = loc(#loc2)} : () -> (){{$}}
// CHECK-NEXT: tt.return{{$}}
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: }{{$}}
#loc = loc("a.py":1:1)
#loc2 = loc("b.py":2:2)
#loc3 = loc("c.py":3:3)
module {
  tt.func @f(%x: i32 loc(#loc)) {
    %r = distributed.get_rank %x : i32 loc(#loc)
    "foo.bar"() {w2 = loc("z":1:1), where = loc(#loc2)} : () -> () loc(#loc3)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)

// RUN: ttd-lower %s -o %t && diff %s %t
// RUN: cat %s | ttd-lower - | diff %s -

// A module without distributed ops comes out byte-identical: generic ops with regions and
// properties, hex floats, multi-results, block labels with comments, aliases on both sides.

#loc = loc("k.py":1:0)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @rowmax(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("in"(#loc)), %n: i32 loc("n"(#loc))) attributes {noinline = false} {
    %cst = arith.constant dense<0xFC00> : tensor<256xf16> loc(#loc1)
    %neg = arith.constant 0xFF800000 : f32
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %x = tt.splat %in : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
    %x_1 = tt.addptr %x, %offs : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    %x_2 = tt.load %x_1 : tensor<256x!tt.ptr<f16>>
    %m = "tt.reduce"(%x_2) <{axis = 0 : i32}> ({
    ^bb0(%a: f16 loc(callsite(#loc1 at #loc2)), %b: f16):
      %mx = arith.maxnumf %a, %b : f16
      tt.reduce.return %mx : f16
    }) : (tensor<256xf16>) -> f16 loc(#loc2)
    %got:2 = scf.while (%arg4 = %n, %arg5 = %n) : (i32, i32) -> (i32, i32) {
      %busy = arith.cmpi ne, %arg4, %arg5 : i32
      scf.condition(%busy) %arg4, %arg5 : i32, i32
    } do {
    ^bb0(%arg4: i32, %arg5: i32):
      scf.yield %arg4, %arg5 : i32, i32
    }
    %s = arith.addi %got#0, %got#1 : i32
    cf.br ^bb1
  ^bb1:  // pred: ^bb0
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("k.py":3:4)

// RUN: ttd-lower %s --split-input-file --strip-comments | FileCheck %s

// consume_token: no memory effects (no_side_effect).  Scalar values name the value type;
// pointers name `<T>_ptr_<rank>d`; tensor results get a tensor.empty destination,
// SrcPtrIndex and an annotation.mark after the custom op.

// CHECK-LABEL: tt.func public @tokens
// CHECK: %[[T:.*]] = hivm.hir.custom {{.*}}"dist.aclshmem_wait_int32"
// CHECK: %v = hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect, symbol = "aclshmem_consume_token_int32"} "dist.aclshmem_consume_token_int32" ins(%n, %[[T]] : i32, i32) -> i32
// CHECK: %h = hivm.hir.custom {{.*}}"dist.aclshmem_consume_token_half" ins(%x, %[[T]] : f16, i32) -> f16
// CHECK: %p = hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, {{.*}}no_side_effect, symbol = "aclshmem_consume_token_float_ptr_1d"} "dist.aclshmem_consume_token_float_ptr_1d" ins(%buf, %[[T]] : !tt.ptr<f32>, i32) -> !tt.ptr<f32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x!tt.ptr<bf16>>
// CHECK-NEXT: %ready = hivm.hir.custom {SrcPtrIndex = array<i32: 0>, gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect, symbol = "aclshmem_consume_token_bfloat16_ptr_1d"} "dist.aclshmem_consume_token_bfloat16_ptr_1d" ins(%ptrs, %[[T]] : tensor<64x!tt.ptr<bf16>>, i32) outs(%[[E]] : tensor<64x!tt.ptr<bf16>>) -> tensor<64x!tt.ptr<bf16>>
// CHECK-NEXT: annotation.mark %ready {ContinuousMemAccess} : tensor<64x!tt.ptr<bf16>>
// CHECK-NEXT: tt.load %ready
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<8x8x!tt.ptr<i16>>
// CHECK-NEXT: %ready2 = hivm.hir.custom {SrcPtrIndex = array<i32: 0>, {{.*}}"dist.aclshmem_consume_token_int16_ptr_2d" ins(%grid, %[[T]] : tensor<8x8x!tt.ptr<i16>>, i32) outs(%[[E2]] : tensor<8x8x!tt.ptr<i16>>) -> tensor<8x8x!tt.ptr<i16>>
// CHECK-NEXT: annotation.mark %ready2 {ContinuousMemAccess} : tensor<8x8x!tt.ptr<i16>>
module {
  tt.func public @tokens(%flag: !tt.ptr<i32>, %buf: !tt.ptr<f32>, %bp: !tt.ptr<bf16>, %sp: !tt.ptr<i16>, %n: i32, %x: f16) {
    %c1_i32 = arith.constant 1 : i32
    %tok = distributed.wait %flag, %c1_i32, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %v = distributed.consume_token %n, %tok, : i32, i32 -> i32
    %h = distributed.consume_token %x, %tok, : f16, i32 -> f16
    %p = distributed.consume_token %buf, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %splat = tt.splat %bp : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>>
    %ptrs = tt.addptr %splat, %offs : tensor<64x!tt.ptr<bf16>>, tensor<64xi32>
    %ready = distributed.consume_token %ptrs, %tok, : tensor<64x!tt.ptr<bf16>>, i32 -> tensor<64x!tt.ptr<bf16>>
    %vals = tt.load %ready : tensor<64x!tt.ptr<bf16>>
    %grid = tt.splat %sp : !tt.ptr<i16> -> tensor<8x8x!tt.ptr<i16>>
    %ready2 = distributed.consume_token %grid, %tok, : tensor<8x8x!tt.ptr<i16>>, i32 -> tensor<8x8x!tt.ptr<i16>>
    tt.return
  }
}

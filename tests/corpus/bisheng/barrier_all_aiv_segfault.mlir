// Reduced from allgather_pull through tests/tools/bisheng_compile.py (the triton-adapter-opt
// output with the custom ops restored; no stand-in remnant is left): bishengir-compile 1.2.0
// (ascendnpu-ir wheel, --target=Ascend910B3, the A2/A3 options) dies with a segmentation fault.
// It needs all three: aclshmem_barrier_all with hivm.tcore_type<CUBE_AND_VECTOR> (as upstream's
// pass and AscendNPU-IR's own tests emit it), another custom op with <VECTOR> (aclshmem_my_pe), and
// vector data movement (the copy in the scf.for), in a kernel the adapter made vector-only
// (mix_mode = "aiv", no tt.dot).  The barrier with <VECTOR>, or without the my_pe or the copy,
// reaches "Cannot find hivmc".  tests/test_bisheng_compile.py runs both core types.
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{}, {}, {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, {tt.divisibility = 16 : i32}, {}, {}, {}, {}, {}, {}], function_type = (memref<?xi8>, memref<?xi8>, memref<?xbf16>, memref<?xbf16>, i32, i32, i32, i32, i32, i32, i32) -> (), sym_name = "allgather_pull_kernel"}> ({
  ^bb0(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xbf16>, %arg3: memref<?xbf16>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32):
    %0 = "arith.constant"() <{value = 512 : index}> : () -> index
    %1 = "arith.constant"() <{value = 0 : index}> : () -> index
    %2 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %3 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %4 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %5 = hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect, symbol = "aclshmem_my_pe"} "dist.aclshmem_my_pe" -> i32
    hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<CUBE_AND_VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} "dist.aclshmem_barrier_all"
    %8 = "arith.muli"(%arg8, %4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "scf.for"(%3, %arg6, %2) ({
    ^bb0(%arg11: i32):
      %10 = "arith.addi"(%5, %arg11) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      %11 = "arith.remsi"(%10, %arg6) : (i32, i32) -> i32
      %14 = "arith.constant"() <{value = 0 : i32}> : () -> i32
      %15 = "arith.index_cast"(%14) : (i32) -> index
      %16 = "arith.index_cast"(%8) : (i32) -> index
      %17 = "arith.addi"(%15, %16) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %18 = "memref.reinterpret_cast"(%arg2, %17) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 512>, static_strides = array<i64: 1>}> : (memref<?xbf16>, index) -> memref<512xbf16, strided<[1], offset: ?>>
      %19 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<512xbf16>
      %20 = "arith.addi"(%16, %0) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %21 = "arith.index_cast"(%arg4) : (i32) -> index
      %22 = "arith.maxsi"(%16, %21) : (index, index) -> index
      %23 = "arith.minsi"(%20, %22) : (index, index) -> index
      %24 = "arith.subi"(%23, %16) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %25 = "memref.subview"(%18, %24) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (memref<512xbf16, strided<[1], offset: ?>>, index) -> memref<?xbf16, strided<[1], offset: ?>>
      %26 = "memref.subview"(%19, %24) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (memref<512xbf16>, index) -> memref<?xbf16, strided<[1]>>
      "memref.copy"(%25, %26) : (memref<?xbf16, strided<[1], offset: ?>>, memref<?xbf16, strided<[1]>>) -> ()
      %27 = "bufferization.to_tensor"(%19) <{restrict, writable}> : (memref<512xbf16>) -> tensor<512xbf16>
      %28 = "arith.muli"(%11, %arg4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      %29 = "arith.index_cast"(%28) : (i32) -> index
      %30 = "arith.addi"(%29, %16) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %31 = "memref.reinterpret_cast"(%arg3, %30) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 512>, static_strides = array<i64: 1>}> : (memref<?xbf16>, index) -> memref<512xbf16, strided<[1], offset: ?>>
      %32 = "tensor.extract_slice"(%27, %24) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (tensor<512xbf16>, index) -> tensor<?xbf16>
      %33 = "memref.subview"(%31, %24) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (memref<512xbf16, strided<[1], offset: ?>>, index) -> memref<?xbf16, strided<[1], offset: ?>>
      "bufferization.materialize_in_destination"(%32, %33) <{writable}> : (tensor<?xbf16>, memref<?xbf16, strided<[1], offset: ?>>) -> ()
      "scf.yield"() : () -> ()
    }) : (i32, i32, i32) -> ()
    "func.return"() : () -> ()
  }) {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} : () -> ()
}) : () -> ()

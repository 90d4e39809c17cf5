// Operands that do not fit the bundled library's signatures (device_library.mlir runs this).

module {
  tt.func public @narrower(%bar: !tt.ptr<i32>, %n: i64, %v: i32) {
    // expected-error@+1 {{'distributed.wait' op operand 1 (num_barriers) has type i64 (64 bits), but parameter 'num_barriers' of aclshmem_wait_int32 in the bundled device library is int32_t (32 bits): a narrower parameter would truncate it}}
    %t = distributed.wait %bar, %n, %v, scope = gpu semantic = acquire : !tt.ptr<i32>, i64, i32 -> i32
    tt.return
  }
}

// -----

module {
  tt.func public @count(%x: i32) {
    // expected-error@+1 {{'distributed.extern_call' op aclshmem_quiet takes 0 parameters in the bundled device library (void _mlir_ciface_aclshmem_quiet()), but the op passes 1 operand}}
    "distributed.extern_call"(%x) <{libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_quiet"}> {distributed.core_type = "vector"} : (i32) -> ()
    tt.return
  }
}

// -----

module {
  tt.func public @pointer_for_int(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %n: i32) {
    // expected-error@+1 {{'distributed.extern_call' op operand 2 (nbytes) has type !tt.ptr<f32>, but parameter 'nbytes' of aclshmem_float_getmem in the bundled device library is uint32_t (32 bits)}}
    distributed.extern_call %p, %q, %q, %n {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_float_getmem"} : (!tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>, i32) -> ()
    tt.return
  }
}

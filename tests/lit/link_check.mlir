// RUN: ttd-lower %s --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --no-link-check --strip-comments | FileCheck %s --check-prefix=OFF
// RUN: printf 'aclshmem_float_putmem_nbix\tvoid _mlir_ciface_aclshmem_float_putmem_nbix(float *dst, float *src, uint32_t n, int32_t pe)\n' > %t.symbols
// RUN: ttd-lower %s --symbol-list %t.symbols --strip-comments | FileCheck %s --check-prefix=OTHER
// RUN: ttd-lower --list-symbols | FileCheck %s --check-prefix=LIST

// Every emitted symbol must be in the device template library; an unknown one is an error at
// the op that names the nearest known symbols.  --no-link-check turns the check off and
// --symbol-list points it at another library's list.

// OFF: "dist.aclshmem_float_putmem_nbix"
// OTHER: "dist.aclshmem_float_putmem_nbix"
// LIST: aclshmem_my_pe{{[[:space:]]}}int32_t _mlir_ciface_aclshmem_my_pe()
// LIST: aclshmemx_signal_op{{[[:space:]]}}void _mlir_ciface_aclshmemx_signal_op(

module {
  tt.func public @typo(%dst: !tt.ptr<f32>, %src: !tt.ptr<f32>, %n: i32, %peer: i32) {
    // expected-error@+1 {{this op lowers to symbol 'aclshmem_float_putmem_nbix', which is not in the device template library}}
    distributed.extern_call %dst, %src, %n, %peer {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_float_putmem_nbix"} : (!tt.ptr<f32>, !tt.ptr<f32>, i32, i32) -> ()
    tt.return
  }
}

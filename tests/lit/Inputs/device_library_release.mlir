// A kernel that links under AscendNPU-IR master and is refused under 1.2.0, which lacks
// aclshmem_barrier (device_library.mlir runs this).

module {
  tt.func public @team_barrier(%team: i32) {
    // expected-error@+1 {{this op lowers to symbol 'aclshmem_barrier', which is not in the device template library AscendNPU-IR 1.2.0 (commit 8796a8ac1508)}}
    distributed.extern_call %team {distributed.core_type = "cube_and_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier"} : (i32) -> ()
    tt.return
  }
}

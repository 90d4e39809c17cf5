// RUN: ttd-lower %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: ttd-lower %s --split-input-file --lint-only 2>&1 | FileCheck %s

// Lint rule barrier-slot-stride (issue 17, rule 4; SPEC.md section 5, seed 002): signal slots
// addressed as base + k * C (arith.muli feeding tt.addptr, k not a constant, C a constant)
// whose stride C x sizeof(T) is not a multiple of 64 bytes, when the address goes to a notify
// or the base to a wait of more than one barrier.  The wait wrapper polls slots 64 / sizeof(T)
// elements apart, and the NPU does not keep concurrent writes to one 64-byte line coherent.

// CHECK: {{.*}}lint_barrier_slot_stride.mlir:18:5: warning: 'tt.addptr' op signal slots %flags + k * 4 are 16 bytes apart (4 x sizeof(i32)), not a multiple of 64: the wait wrapper polls slots 64 bytes apart (64 / sizeof(T) elements) and the NPU does not keep concurrent writes to one 64-byte line coherent, so the kernel may hang or read a torn flag [barrier-slot-stride]
// CHECK: {{.*}}lint_barrier_slot_stride.mlir:20:5: note: the slot is signalled by this notify
module {
  tt.func public @packed_slots(%flags: !tt.ptr<i32>, %rank: i32, %peer: i32) {
    %c4_i32 = arith.constant 4 : i32
    %c1_i64 = arith.constant 1 : i64
    %off = arith.muli %rank, %c4_i32 : i32
    // expected-warning@+1 {{'tt.addptr' op signal slots %flags + k * 4 are 16 bytes apart (4 x sizeof(i32)), not a multiple of 64}}
    %slot = tt.addptr %flags, %off : !tt.ptr<i32>, i32
    // expected-note@+1 {{the slot is signalled by this notify}}
    "distributed.notify"(%slot, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// The close variant: 16 x sizeof(i32) = 64 bytes, one line per slot.
module {
  tt.func public @line_slots(%flags: !tt.ptr<i32>, %rank: i32, %peer: i32) {
    %c16_i32 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %off = arith.muli %rank, %c16_i32 : i32
    %slot = tt.addptr %flags, %off : !tt.ptr<i32>, i32
    "distributed.notify"(%slot, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// -----

// The base waited on with several barriers, slots set by an atomic at an 8-byte stride (i64).
module {
  tt.func public @wait_on_packed(%data: !tt.ptr<f32>, %flags: !tt.ptr<i64>, %pid: i32, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %off = arith.muli %pid, %c1_i32 : i32
    // expected-warning@+1 {{signal slots %flags + k * 1 are 8 bytes apart (1 x sizeof(i64))}}
    %slot = tt.addptr %flags, %off : !tt.ptr<i64>, i32
    %old = tt.atomic_rmw add, acq_rel, gpu, %slot, %c1_i64 : (!tt.ptr<i64>, i64) -> i64
    // expected-note@+1 {{the base is waited on by this wait of %n barriers, polled 64 bytes apart}}
    %tok = distributed.wait %flags, %n, %c1_i64, scope = gpu semantic = acquire : !tt.ptr<i64>, i32, i64 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Silent: a constant offset alone is not a stride, and a wait of one barrier polls one slot.
module {
  tt.func public @not_a_stride(%data: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %pid: i32, %peer: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %c1_i64 = arith.constant 1 : i64
    %k = arith.muli %c3_i32, %c3_i32 : i32
    %fixed = tt.addptr %flags, %k : !tt.ptr<i32>, i32
    "distributed.notify"(%fixed, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %off = arith.muli %pid, %c3_i32 : i32
    %slot = tt.addptr %flags, %off : !tt.ptr<i32>, i32
    %old = tt.atomic_rmw add, acq_rel, gpu, %slot, %c1_i32 : (!tt.ptr<i32>, i32) -> i32
    %tok = distributed.wait %flags, %c1_i32, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %ready = distributed.consume_token %data, %tok, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>
    %x = tt.load %ready : !tt.ptr<f32>
    tt.store %data, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The stride of a product of constants is their product (issue 25, item 6): (rank * 4) * 4
// i32 slots are 64 bytes apart, silent; 4 * (2 * rank) are 32 bytes apart, a warning that says 8.
module {
  tt.func public @nested_products(%flags: !tt.ptr<i32>, %rank: i32, %peer: i32) {
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c1_i64 = arith.constant 1 : i64
    %t = arith.muli %rank, %c4_i32 : i32
    %off = arith.muli %t, %c4_i32 : i32
    %slot = tt.addptr %flags, %off : !tt.ptr<i32>, i32
    "distributed.notify"(%slot, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    %u = arith.muli %c2_i32, %rank : i32
    %off2 = arith.muli %c4_i32, %u : i32
    // expected-warning@+1 {{signal slots %flags + k * 8 are 32 bytes apart (8 x sizeof(i32))}}
    %slot2 = tt.addptr %flags, %off2 : !tt.ptr<i32>, i32
    // expected-note@+1 {{the slot is signalled by this notify}}
    "distributed.notify"(%slot2, %c1_i64, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
    tt.return
  }
}

// RUN: rm -rf %t.term %t.hup %t.int && mkdir -p %t.term %t.hup %t.int
// RUN: %python %inputs/signal_mid_write.py SIGTERM %s %t.term | FileCheck %s --check-prefix=TERM
// RUN: %python %inputs/signal_mid_write.py SIGHUP %s %t.hup | FileCheck %s --check-prefix=HUP
// RUN: %python %inputs/signal_mid_write.py SIGINT %s %t.int | FileCheck %s --check-prefix=INT

// SIGTERM, SIGHUP and SIGINT while the output is being written (the test-only pause
// TTD_LOWER_TEST_PAUSE_WRITE holds the write halfway): the temporary file is removed, the
// existing output stays as it was, the exit status is 128 + the signal.  (tests/test_signals.py
// does ten runs of each.)
// TERM: SIGTERM: exit 143, folder ['out.mlir'], output kept: True
// HUP: SIGHUP: exit 129, folder ['out.mlir'], output kept: True
// INT: SIGINT: exit 130, folder ['out.mlir'], output kept: True

module {
  tt.func public @f(%c: i32) {
    %r = distributed.get_rank %c : i32
    tt.return
  }
}

// RUN: ttd-lower %s -o %t.out 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: test -s %t.out
// RUN: ttd-lower %s --no-warn=unused-wait-token --no-warn=rank-out-of-range -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=OFF
// RUN: ttd-lower %s --no-lint -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=OFF
// RUN: ttd-lower %s --no-warn=unused-wait-token -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not ttd-lower %s --warnings-as-errors -o %t.fatal 2>&1 | FileCheck %s --check-prefix=FATAL
// RUN: not test -e %t.fatal
// RUN: ttd-lower %s --lint-only -o %t.lint 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not test -e %t.lint
// RUN: not ttd-lower %s --no-warn=no-such-rule 2>&1 | FileCheck %s --check-prefix=USAGE

// The lint runs before the lowering by default (warnings on stderr, the output is written,
// exit 0); --no-warn=RULE leaves a rule out, --no-lint all of them; --warnings-as-errors makes
// them fatal (exit 1, no output); --lint-only lints and writes nothing.

// DEFAULT: warning: 'distributed.symm_at' op rank -2 is negative
// DEFAULT: warning: 'distributed.wait' op token %tok is used by no 'distributed.consume_token'
// OFF-NOT: warning
// ONE: warning: 'distributed.symm_at' op rank -2 is negative
// ONE-NOT: warning
// FATAL: error: 'distributed.symm_at' op rank -2 is negative
// FATAL: error: 'distributed.wait' op token %tok is used by no 'distributed.consume_token'
// USAGE: {{^}}ttd-lower: error: --no-warn: 'no-such-rule' is not one of 'unordered-remote-load',
module {
  tt.func public @two_mistakes(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c-2_i32 = arith.constant -2 : i32
    %c1_i32 = arith.constant 1 : i32
    %one = arith.constant 1.000000e+00 : f32
    %far = distributed.symm_at %buf, %c-2_i32, : !tt.ptr<f32>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.store %far, %one : !tt.ptr<f32>
    tt.return
  }
}

// RUN: ttd-lower %s -verify-diagnostics=only-expected -o /dev/null
// RUN: not ttd-lower %s -verify-diagnostics -o /dev/null

// -verify-diagnostics=only-expected checks the designators written and ignores the other
// diagnostics (here the second f64 symm_at).

module {
  tt.func public @f(%p: !tt.ptr<f64>, %r: i32) {
    // expected-error@+1 {{unsupported type f64}}
    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>
    %y = distributed.symm_at %p, %r, : !tt.ptr<f64>
    tt.return
  }
}

"""SSA name resolution (MLIR's scoping) as the lowering sees it."""

from __future__ import annotations

import pytest

from transpiler import LoweringError, lower


def test_region_arguments_of_an_unknown_custom_op_are_accepted():
    """An op nobody declared may define region arguments we cannot see; a use of one is kept
    (its type comes from the distributed op's own syntax) instead of reported as undeclared."""
    text = """module {
  tt.func public @k(%p: !tt.ptr<f32>) {
    acme.parallel (%lane) {
      %x = distributed.symm_at %p, %lane, : !tt.ptr<f32>
    }
    tt.return
  }
}
"""
    out = lower(text, filename="k.ttir")
    assert 'ins(%p, %lane : !tt.ptr<f32>, i32)' in out


def test_names_repeat_in_sibling_regions_and_functions():
    text = """module {
  tt.func public @a(%p: !tt.ptr<f32>, %n: i32, %c: i1) {
    scf.if %c {
      %r = distributed.get_rank %n : i32
      %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    } else {
      %r = distributed.get_num_ranks %n : i32
      %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    }
    tt.return
  }
  tt.func public @b(%p: !tt.ptr<f32>, %r: i32) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    tt.return
  }
}
"""
    out = lower(text, filename="k.ttir")
    assert out.count('ins(%p, %r : !tt.ptr<f32>, i32)') == 3
    assert out.count("gm_addr_args_indices = array<i32: 0>") == 3


def test_a_value_of_another_function_is_undeclared():
    text = """module {
  tt.func public @a(%p: !tt.ptr<f32>, %n: i32) {
    %r = distributed.get_rank %n : i32
    tt.return
  }
  tt.func public @b(%p: !tt.ptr<f32>) {
    %x = distributed.symm_at %p, %r, : !tt.ptr<f32>
    tt.return
  }
}
"""
    with pytest.raises(LoweringError) as info:
        lower(text, filename="k.ttir")
    assert "k.ttir:7:34: error: 'distributed.symm_at' op use of undeclared SSA value '%r'" in str(info.value)


def test_use_before_definition_in_a_block_is_an_error():
    text = """module {
  tt.func public @k(%p: !tt.ptr<f32>) {
    %r = distributed.get_rank %c : i32
    %c = arith.constant 0 : i32
    tt.return
  }
}
"""
    with pytest.raises(LoweringError) as info:
        lower(text, filename="k.ttir")
    message = str(info.value)
    assert "k.ttir:3:31: error: 'distributed.get_rank' op operand #0 does not dominate this use" in message
    assert "k.ttir:4:5: note: operand defined here" in message


def test_top_level_functions_without_a_module_resolve_their_values():
    text = """tt.func @top(%p: !tt.ptr<f32>) {
  %c = arith.constant 0 : i32
  %x = distributed.symm_at %p, %c, : !tt.ptr<f32>
  tt.return
}
"""
    assert '"dist.aclshmem_ptr_float" ins(%p, %c : !tt.ptr<f32>, i32)' in lower(text, filename="k.ttir")


def test_lower_wants_text():
    with pytest.raises(TypeError, match="str"):
        lower(b"module {}")

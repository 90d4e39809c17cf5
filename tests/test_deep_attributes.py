"""An attribute nested 3 000 deep (issue 25, suspected point 2): MLIR reads it (triton-adapter-opt
accepts ``[[[...1...]]]`` 3 000 deep; its recursive parser overflows the stack near 10 000), so
it is no error: the custom op carries it, printed whole, and the downstream tools accept it.
Arrays and dictionaries print without one Python call per level, to any depth.
"""

from __future__ import annotations

import pytest

from test_downstream import verify
from transpiler import lower
from transpiler.ir.attributes import ArrayAttr, DictAttr, IntegerAttr, UNIT

DEPTH = 3000


def _kernel(attribute: str) -> str:
    return ("module {\n  tt.func public @k(%n: i32) {\n    %r = distributed.extern_call %n {deep = " + attribute
            + ', distributed.core_type = "vector", libname = "l", libpath = "", pure = true, symbol = "my_sym"} '
              ": (i32) -> i32\n    tt.return\n  }\n}\n")


@pytest.mark.parametrize("attribute", ["[" * DEPTH + "1 : i64" + "]" * DEPTH,
                                       "{a = " * DEPTH + "unit" + "}" * DEPTH])
def test_deep_attribute_is_carried_whole(tmp_path, attribute):
    out = lower(_kernel(attribute), link_check=False)
    custom = next(line for line in out.splitlines() if "hivm.hir.custom" in line)
    expected = attribute.replace("{a = unit}", "{a}")  # a unit entry prints as its bare name
    assert "{deep = " + expected + ", gm_addr_args_indices" in custom
    path = tmp_path / "deep.mlir"
    path.write_text(out)
    proc = verify([path])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_nested_text_prints_as_the_flat_printers():
    inner = DictAttr((("b", IntegerAttr(2)), ("a", UNIT), ("c d", ArrayAttr(()))))
    attr = ArrayAttr((IntegerAttr(1), inner, ArrayAttr((inner,))))
    assert str(attr) == '[1 : i64, {a, b = 2 : i64, "c d" = []}, [{a, b = 2 : i64, "c d" = []}]]'

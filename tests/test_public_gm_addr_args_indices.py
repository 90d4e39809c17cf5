"""The public Ascend lowering test, ``test_gm_addr_args_indices.py`` of Triton-distributed
(``../shared/corpus/external/``, read there: it is not copied into the project).

Its assertions are read from the ``.py.txt`` (with ``ast``: which IR string each test parses,
``by_symbol["sym"] == [...]``, ``"sym" in by_symbol``, ``sym, idx = indices[k]`` with
``sym == "..."`` / ``idx == [...]``), and the three inputs (``<NAME>.ttir``, the strings' exact
text) are lowered: the symbols and gm indices must be the ones asserted, under every device
library, and ``no_side_effect`` where SPEC.md section 2.4 item 7 puts it (the public test's
"Pure operators": get_rank, get_num_ranks; and consume_token).
"""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

from transpiler import LoweringError, lower
from shared_corpus import EXTERNAL

ROOT = Path(__file__).parents[1]
PUBLIC = Path("ByteDance-Seed__Triton-distributed/python/triton_dist/test/ascend")
PUBLIC_TESTS = EXTERNAL / PUBLIC if (EXTERNAL / PUBLIC).exists() else None
pytestmark = pytest.mark.skipif(PUBLIC_TESTS is None, reason="../shared/corpus/external is not next to the repository")
LIBRARIES = ["bundled", "1.2.0", "1.2.0-post", "master"]
EFFECT_FREE = re.compile(r"aclshmem_(my_pe|n_pes|consume_token_\w+)$")  # SPEC.md 2.4 item 7


def _assertions():
    """{IR name: ({symbol: indices}, {position: (symbol, indices)}, symbols required)} from the
    public test's source."""
    tree = ast.parse((PUBLIC_TESTS / "test_gm_addr_args_indices.py.txt").read_text())
    out = {}
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")):
        ir = next(c.args[1].id for c in ast.walk(fn) if isinstance(c, ast.Call)
                  and getattr(c.func, "id", None) == "_parse")
        by_symbol, by_position, required, names = {}, {}, set(), {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) \
                    and isinstance(node.value, ast.Subscript) and getattr(node.value.value, "id", "") == "indices":
                sym, idx = (t.id for t in node.targets[0].elts)
                position = node.value.slice.value
                names[sym], names[idx] = (position, 0), (position, 1)
            if not isinstance(node, ast.Compare):
                continue
            left, right = node.left, node.comparators[0]
            if isinstance(node.ops[0], ast.In) and getattr(right, "id", "") == "by_symbol":
                required.add(left.value)
            elif isinstance(node.ops[0], ast.Eq):
                value = ast.literal_eval(right)
                if isinstance(left, ast.Subscript) and getattr(left.value, "id", "") == "by_symbol":
                    by_symbol[left.slice.value] = value
                elif isinstance(left, ast.Name) and left.id in names:
                    position, part = names[left.id]
                    by_position.setdefault(position, [None, None])[part] = value
        out[ir] = (by_symbol, {k: tuple(v) for k, v in by_position.items()}, required | set(by_symbol))
    return out


def _customs(text: str):
    """(symbol, gm indices, no_side_effect) of each custom op, read from the printed lines as the
    public test reads them."""
    found = []
    for line in text.splitlines():
        if "hir.custom" not in line:
            continue
        symbol = re.search(r'symbol = "([^"]+)"', line).group(1)
        body = re.search(r"gm_addr_args_indices = array<i32([^>]*)>", line).group(1).lstrip(":").strip()
        found.append((symbol, [int(x) for x in body.split(",")] if body else [], "no_side_effect" in line))
    return found


def _check(name: str, text: str, library: str) -> None:
    by_symbol, by_position, required = _assertions()[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        customs = _customs(lower(text, filename=f"{name}.ttir", device_library=library))
    # SPEC.md 2.2: the notify on a !tt.ptr<f32> signal (WAIT_CONSUME_IR) lowers with one warning
    expected = 1 if name == "WAIT_CONSUME_IR" else 0
    assert [str(w.message).count("element type f32 is not the signal's type") for w in caught] == [1] * expected
    got = {symbol: indices for symbol, indices, _ in customs}
    assert required <= set(got), (required, got)
    for symbol, indices in by_symbol.items():
        assert got[symbol] == indices, (symbol, got[symbol], indices)
    for position, (symbol, indices) in by_position.items():
        assert customs[position][:2] == (symbol, indices), (position, customs[position])
    for symbol, _indices, effect_free in customs:
        assert effect_free == bool(EFFECT_FREE.match(symbol)), symbol


def test_assertions_are_read_from_the_public_test():
    found = _assertions()
    assert sorted(found) == ["GET_RANK_IR", "TENSOR_PTR_IR", "WAIT_CONSUME_IR"]
    assert found["WAIT_CONSUME_IR"][0] == {"aclshmem_wait_int32": [0], "aclshmem_consume_token_float_ptr_1d": [],
                                           "aclshmem_ptr_float": [0], "aclshmem_int64_p": [0]}
    assert found["TENSOR_PTR_IR"][1] == {0: ("aclshmem_wait_int32", [0]),
                                         1: ("aclshmem_consume_token_float_ptr_1d", [])}
    source = (PUBLIC_TESTS / "test_gm_addr_args_indices.py.txt").read_text()
    for name in found:  # each .ttir is the string's exact text
        assert f'{name} = r"""{(PUBLIC_TESTS / "test_gm_addr_args_indices" / f"{name}.ttir").read_text()}"""' in source


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("name", ["WAIT_CONSUME_IR", "GET_RANK_IR", "TENSOR_PTR_IR"])
def test_public_inputs_lower_as_asserted(name, library):
    _check(name, (PUBLIC_TESTS / "test_gm_addr_args_indices" / f"{name}.ttir").read_text(), library)

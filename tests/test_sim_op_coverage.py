"""Issue 29, "arithmetic by definition": every arith, math and tt elementwise or conversion op the
simulator's op table registers has a property test against an independent reference
(``COVERED``: op -> (reference, test)), or is listed as a known gap with its reason (``GAPS``);
ops that are not elementwise arithmetic are named in ``OTHER``.  The README's op -> reference ->
test table lists the same ops (section "Run a kernel on simulated ranks")."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from transpiler.sim.ops import load_all

ROOT = Path(__file__).resolve().parents[1]
PY_INT = "Python integers"
EXACT = "exact rationals (tests/exact_float.py)"
P = "test_sim_op_properties"
F = "test_sim_float_properties"
T = "test_sim_tt_op_properties"

COVERED = {
    **{op: (PY_INT, f"{P}::test_integer_ops_match_python_integers")
       for op in ("arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi",
                  "arith.minsi", "arith.maxui", "arith.minui", "arith.divsi", "arith.remsi", "arith.floordivsi",
                  "arith.ceildivsi", "arith.divui", "arith.remui", "arith.ceildivui", "arith.shli", "arith.shrsi",
                  "arith.shrui")},
    "arith.cmpi": (PY_INT, f"{P}::test_cmpi_matches_python_integers"),
    **{op: (PY_INT, f"{P}::test_integer_casts_match_python_integers") for op in ("arith.extsi", "arith.extui", "arith.trunci")},
    **{op: (EXACT, f"{F}::test_float_arithmetic_is_correctly_rounded")
       for op in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "tt.precise_divf")},
    **{op: (EXACT + ", integer square root", f"{F}::test_sqrt_is_correctly_rounded") for op in ("math.sqrt", "tt.precise_sqrt")},
    **{op: (EXACT, f"{F}::test_sign_ops_are_exact") for op in ("arith.negf", "math.absf")},
    **{op: (EXACT, f"{F}::test_int_to_float_is_correctly_rounded") for op in ("arith.sitofp", "arith.uitofp")},
    **{op: (PY_INT + " (truncation toward zero)", f"{F}::test_float_to_int_truncates") for op in ("arith.fptosi", "arith.fptoui")},
    **{op: (EXACT, f"{F}::test_truncf_extf_round_exactly") for op in ("arith.truncf", "arith.extf")},
    **{op: (PY_INT + " (floor, ceil, truncation, ties to even)", f"{F}::test_integral_rounding_is_exact")
       for op in ("math.ceil", "math.floor", "math.trunc", "math.roundeven")},
    "math.round": (PY_INT + " (halfway cases away from zero)", f"{F}::test_integral_rounding_is_exact"),
    "math.absi": (PY_INT + " (wrapping at the minimum)", f"{P}::test_absi_matches_python_integers"),
    **{op: (PY_INT + " (sign or zero extension to the 64-bit index, truncation from it)",
            f"{P}::test_index_casts_match_python_integers") for op in ("arith.index_cast", "arith.index_castui")},
    "arith.remf": (EXACT + " (fmod: a - b * trunc(a / b))", f"{F}::test_remf_is_the_exact_remainder"),
    "arith.bitcast": (PY_INT + " on the bits", f"{F}::test_bitcast_keeps_the_bits"),
    **{op: (EXACT + " (NaN rules, -0 < +0)", f"{F}::test_max_min_floats")
       for op in ("arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf")},
    "arith.cmpf": (EXACT + " (ordered / unordered)", f"{F}::test_cmpf_predicates"),
    "math.copysign": (PY_INT + " on the bits", f"{F}::test_copysign"),
    **{op: ("the C library (ctypes): the double function for f64, the float one for f32 and, rounded once, "
            "for f16, bf16 and f8", "test_sim_libm::test_transcendental_ops_are_the_c_librarys")
       for op in ("math.acos", "math.asin", "math.atan", "math.atan2", "math.cos", "math.cosh", "math.erf", "math.exp",
                  "math.exp2", "math.expm1", "math.log", "math.log10", "math.log1p", "math.log2", "math.powf",
                  "math.sin", "math.sinh", "math.tan", "math.tanh")},
    "math.rsqrt": (EXACT + ": 1 / sqrt(x), each rounded (in f32 for the narrower types)",
                   "test_sim_libm::test_rsqrt_is_one_over_the_rounded_root"),
    "tt.fp_to_fp": (EXACT + ", rtne and rtz", "test_sim_fp_to_fp::test_fp_to_fp_matches_exact_rounding"),
    "math.fma": ("MPFR (gmpy2), f32 and f64 only", "test_sim_arith_defects::test_fma_matches_mpfr"),
    "tt.clampf": (EXACT + ": Triton's lowering, minimumf(maximumf) for propagateNan = all, minnumf(maxnumf) for none",
                  f"{T}::test_clampf_is_triton_s_lowering"),
    "tt.bitcast": (PY_INT + " on the bits (scalars and tensors, every pair of types of one width)",
                   f"{T}::test_tt_bitcast_keeps_the_bits"),
    "arith.select": (PY_INT + " on the bits (scalar or tensor condition; pointers: tests/test_sim_provenance.py)",
                     f"{T}::test_select_keeps_the_chosen_bits"),
    **{op: ("the heap layout of transpiler/sim/memory.py: base + rank * heap size + buffer offset + k * element size",
            f"{T}::test_pointer_int_round_trip") for op in ("tt.int_to_ptr", "tt.ptr_to_int")},
}

#: none left (issue 29): an op without a property test is listed here with its reason
GAPS = {}

#: registered, not elementwise arithmetic: memory, shape, region and program ops
OTHER = {"arith.constant", "tt.addptr", "tt.atomic_cas", "tt.atomic_rmw", "tt.broadcast", "tt.call", "tt.cat", "tt.dot",
         "tt.expand_dims", "tt.get_num_programs", "tt.get_program_id", "tt.join", "tt.load", "tt.make_range",
         "tt.reduce", "tt.reshape", "tt.scan", "tt.splat", "tt.split", "tt.store", "tt.trans"}


def _registered():
    return {n for n in load_all() if n.split(".")[0] in ("arith", "math", "tt")}


def test_every_op_of_the_table_is_covered_or_a_listed_gap():
    registered = _registered()
    missing = registered - set(COVERED) - set(GAPS) - OTHER
    assert not missing, f"ops with neither a property test nor a listed gap: {sorted(missing)}"
    stale = (set(COVERED) | set(GAPS) | OTHER) - registered
    assert not stale, f"listed but not in the op table: {sorted(stale)}"
    assert not set(COVERED) & set(GAPS)


@pytest.mark.parametrize("op", sorted(COVERED))
def test_each_covered_op_names_a_property_test_that_runs_it(op):
    module, name = COVERED[op][1].split("::")
    mod = importlib.import_module(module)
    fn = getattr(mod, name)
    assert hasattr(fn, "hypothesis"), f"{name} is not a hypothesis property test"
    assert f'"{op}"' in Path(mod.__file__).read_text(), f"{module} never names {op}"


def test_readme_table_lists_every_op_with_its_reference_and_test():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### Op → reference → test"):]
    rows = {m.group(1): (m.group(2).strip(), m.group(3).strip())
            for m in re.finditer(r"^\| `([a-z_]+\.[a-z_0-9]+)` \| ([^|]+) \| ([^|]+) \|$", section, re.M)}
    for op, (ref, test) in COVERED.items():
        assert rows.get(op) == (ref, f"`tests/{test.replace('::', '.py::')}`"), op
    for op, reason in GAPS.items():
        assert rows.get(op) == ("gap", reason), op


if __name__ == "__main__":  # print the README table
    for op in sorted(COVERED):
        ref, test = COVERED[op]
        print(f"| `{op}` | {ref} | `tests/{test.replace('::', '.py::')}` |")
    for op in sorted(GAPS):
        print(f"| `{op}` | gap | {GAPS[op]} |")

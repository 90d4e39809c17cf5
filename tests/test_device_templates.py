"""Tests of the aclshmem device template library in device_templates/.

CANN's bisheng is not available here, so the sources are checked with g++ and
the host stand-in header (device_templates/host/ascend_stub.h), some wrappers
are run on the host against trivial implementations of the aclshmem API, and
build.sh is checked for its refusal without bisheng and, with a fake bisheng,
for the commands it runs.  g++ is required (it is on the machine and in CI).
"""

from __future__ import annotations

import math
import operator
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "device_templates"
SOURCES = sorted((LIB / "src").glob("*.cpp"))
HEADERS = sorted((LIB / "include").rglob("*.h"))
HOST_IMPL = LIB / "host" / "aclshmem_host_impl.cpp"
SELFTEST = LIB / "host" / "selftest.cpp"
HOST_FLAGS = ["-std=c++17", "-DTTD_HOST_BUILD", f"-I{LIB / 'include'}", f"-I{LIB / 'host'}"]
STRICT = ["-Wall", "-Wextra", "-Werror", "-pedantic"]

# Family rules (SPEC section 5, seed 002 section 4.2).
SHMEM_TYPES = ["half", "float", "int8", "int16", "int32", "int64",
               "uint8", "uint16", "uint32", "uint64", "char", "bfloat16"]
WAIT_TYPES = ["int8", "int16", "int32", "int64"]
WAIT_UNTIL_TYPES = ["float", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "char"]
TOKEN_TYPES = ["int8", "int16", "int32", "int64", "half", "float", "char", "bfloat16"]
RMA_OPS = ["getmem", "putmem", "getmem_nbi", "putmem_nbi", "putmem_signal", "putmem_signal_nbi"]
SINGLES = ["aclshmem_my_pe", "aclshmem_n_pes", "aclshmem_team_my_pe", "aclshmem_team_n_pes",
           "aclshmem_team_translate_pe", "aclshmemx_signal_op", "aclshmem_signal_wait_until",
           "aclshmem_barrier_all", "aclshmem_barrier", "aclshmemx_barrier_all_vec",
           "aclshmemx_barrier_vec", "aclshmem_quiet", "aclshmem_fence"]


def expected_families() -> dict[str, set[str]]:
    return {
        "ptr": {f"aclshmem_ptr_{t}" for t in SHMEM_TYPES},
        "p": {f"aclshmem_{t}_p" for t in SHMEM_TYPES},
        "wait": {f"aclshmem_wait_{t}" for t in WAIT_TYPES},
        "wait_until": {f"aclshmem_wait_until_{t}" for t in WAIT_UNTIL_TYPES},
        "consume_token_scalar": {f"aclshmem_consume_token_{t}" for t in TOKEN_TYPES},
        "consume_token_ptr": {f"aclshmem_consume_token_{t}_ptr_{r}d"
                              for t in TOKEN_TYPES for r in range(1, 6)},
        "rma": {f"aclshmem_{t}_{op}" for t in SHMEM_TYPES for op in RMA_OPS},
        "single": set(SINGLES),
    }


def read_symbols() -> dict[str, str]:
    symbols = {}
    for line in (LIB / "symbols.txt").read_text().splitlines():
        name, signature = line.split("\t")
        symbols[name] = signature
    return symbols


@pytest.fixture(scope="module")
def gxx() -> str:
    path = shutil.which("g++")
    if path is None:
        pytest.fail("g++ is required by the device template tests")
    return path


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)


# ---- (a) the sources are valid C++17 on the host -------------------------------------------

@pytest.mark.parametrize("source", [*SOURCES, HOST_IMPL, SELFTEST], ids=lambda p: p.name)
def test_source_compiles_on_host(gxx, source):
    proc = run([gxx, *HOST_FLAGS, *STRICT, "-fsyntax-only", source])
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("header", HEADERS, ids=lambda p: p.name)
def test_header_is_self_contained(gxx, header):
    proc = run([gxx, *HOST_FLAGS, *STRICT, "-fsyntax-only", "-x", "c++", header])
    assert proc.returncode == 0, proc.stderr


def test_sources_use_the_family_macros():
    text = "\n".join(p.read_text() for p in SOURCES)
    for macro in ["ACLSHMEM_PTR_WRAPPER", "ACLSHMEM_P_WRAPPER", "ACLSHMEM_WAIT_WRAPPER", "ACLSHMEM_WAIT_UNTIL_WRAPPER",
                  "CONSUME_TOKEN_SCALAR_WRAPPER", "CONSUME_TOKEN_PTR_WRAPPER",
                  "ACLSHMEM_RMA_WRAPPER", "ACLSHMEM_RMA_SIGNAL_WRAPPER"]:
        assert f"#define {macro}(" in text, macro
    # No family member is written out by hand.
    assert not re.search(r"_mlir_ciface_aclshmem_(ptr_|wait_until_|wait_(?!until_)|consume_token_)[a-z]", text)


# ---- (b) symbols.txt agrees with the sources -----------------------------------------------

def test_symbols_txt_is_up_to_date(gxx):
    proc = run([sys.executable, LIB / "gen_symbols.py", "--check"])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_check_reports_a_stale_list(gxx, tmp_path):
    stale = tmp_path / "symbols.txt"
    lines = (LIB / "symbols.txt").read_text().splitlines(keepends=True)
    stale.write_text("".join(lines[1:]) + "aclshmem_bogus\tvoid _mlir_ciface_aclshmem_bogus()\n")
    proc = run([sys.executable, LIB / "gen_symbols.py", "--check", "--output", stale])
    assert proc.returncode == 1
    assert f"-{lines[0].rstrip()}" not in proc.stdout  # the dropped line comes back as +
    assert f"+{lines[0].rstrip()}" in proc.stdout
    assert "-aclshmem_bogus" in proc.stdout
    assert stale.read_text().endswith("aclshmem_bogus()\n")  # --check never writes


def test_generator_needs_gxx(tmp_path):
    env = {"PATH": str(tmp_path), "CXX": "g++"}
    proc = run([sys.executable, LIB / "gen_symbols.py", "--check"], env=env)
    assert proc.returncode == 2
    assert "g++ is required" in proc.stderr


def test_signatures_match_the_definitions(gxx, tmp_path):
    """Each symbols.txt signature, declared next to the definitions, must agree with them."""
    decls = tmp_path / "decls.h"
    decls.write_text('#include "ttd_aclshmem/templates.h"\n' + "".join(
        f'extern "C" {sig};\n' for sig in read_symbols().values()))
    for source in SOURCES:
        proc = run([gxx, *HOST_FLAGS, *STRICT, "-fsyntax-only", "-include", decls, source])
        assert proc.returncode == 0, f"{source.name}:\n{proc.stderr}"


# ---- (c) the symbol families, computed from their rules --------------------------------------

def test_symbol_families_are_complete_and_exact():
    symbols = read_symbols()
    families = expected_families()
    counts = {name: len(members) for name, members in families.items()}
    assert counts == {"ptr": 12, "p": 12, "wait": 4, "wait_until": 10, "consume_token_scalar": 8,
                      "consume_token_ptr": 40, "rma": 72, "single": 13}
    for name, members in families.items():
        missing = members - symbols.keys()
        assert not missing, f"{name}: missing {sorted(missing)}"
    expected = set().union(*families.values())
    assert symbols.keys() == expected, f"unexpected: {sorted(symbols.keys() - expected)}"
    assert len(symbols) == 171


def test_symbols_txt_format():
    text = (LIB / "symbols.txt").read_text()
    lines = text.splitlines()
    assert text.endswith("\n") and lines == sorted(lines)
    names = [line.split("\t")[0] for line in lines]
    assert names == sorted(set(names))
    for line in lines:
        name, signature = line.split("\t")
        assert re.fullmatch(r"[a-z0-9_]+", name)
        assert f" _mlir_ciface_{name}(" in signature
        assert signature == " ".join(signature.split())


@pytest.mark.parametrize(("symbol", "signature"), [
    ("aclshmem_my_pe", "int32_t _mlir_ciface_aclshmem_my_pe()"),
    ("aclshmem_wait_int64", "int32_t _mlir_ciface_aclshmem_wait_int64("
     "memref_t<__gm__ int64_t, 1> *barriers, int32_t num_barriers, int64_t wait_value)"),
    ("aclshmem_consume_token_half", "half _mlir_ciface_aclshmem_consume_token_half("
     "half value, int32_t token)"),
    ("aclshmem_consume_token_bfloat16_ptr_4d", "void _mlir_ciface_aclshmem_consume_token_"
     "bfloat16_ptr_4d(memref_t<__gm__ bfloat16_t, 4> *result, "
     "memref_t<__gm__ bfloat16_t, 4> *input, int32_t token)"),
    ("aclshmemx_signal_op", "void _mlir_ciface_aclshmemx_signal_op(memref_t<__gm__ int32_t, 1> "
     "*sig_addr, int32_t signal, int32_t sig_op, int32_t pe)"),
    ("aclshmem_uint64_p", "void _mlir_ciface_aclshmem_uint64_p(memref_t<__gm__ uint64_t, 1> *dst, "
     "uint64_t value, int32_t pe)"),
    ("aclshmem_team_n_pes", "int32_t _mlir_ciface_aclshmem_team_n_pes(int32_t team)"),
])
def test_signature_examples(symbol, signature):
    assert read_symbols()[symbol] == signature


def test_lowered_examples_only_name_library_symbols():
    symbols = read_symbols()
    used = set()
    for path in ROOT.glob("examples/**/*.ttadapter.mlir"):
        used |= set(re.findall(r'"dist\.(aclshmem\w*)"', path.read_text()))
    assert not used - symbols.keys()


# ---- (d) build.sh: bisheng or nothing -------------------------------------------------------

def _bc_files(*roots: Path) -> set[Path]:
    return {p for root in roots if root.exists() for p in root.rglob("*.bc")}


def test_build_without_bisheng_fails_clearly(tmp_path):
    if any(Path(d, "bisheng").exists() for d in ("/usr/bin", "/bin")):
        pytest.skip("bisheng is installed in /usr/bin or /bin")
    before = _bc_files(LIB)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = run(["bash", LIB / "build.sh", "--out", tmp_path / "out"], env=env)
    assert proc.returncode != 0
    assert "bisheng" in proc.stderr and "CANN" in proc.stderr
    assert not _bc_files(tmp_path)
    assert _bc_files(LIB) == before
    assert not (tmp_path / "out").exists()


FAKE_BISHENG = """#!/bin/sh
echo "$@" >> "$(dirname "$0")/calls.log"
[ -n "$FAKE_BISHENG_FAIL" ] && exit 1
while [ $# -gt 0 ]; do [ "$1" = "-o" ] && echo bitcode > "$2"; shift; done
exit 0
"""


@pytest.fixture
def fake_bisheng(tmp_path) -> Path:
    tool = tmp_path / "cann" / "bisheng"
    tool.parent.mkdir()
    tool.write_text(FAKE_BISHENG)
    tool.chmod(0o755)
    return tool


def test_build_runs_four_variants_per_chip(tmp_path, fake_bisheng):
    out = tmp_path / "out"
    env = {"PATH": "/usr/bin:/bin", "BISHENG": str(fake_bisheng)}
    proc = run(["bash", LIB / "build.sh", "--chip", "Ascend910B1,Ascend950", "--out", out], env=env)
    assert proc.returncode == 0, proc.stderr
    calls = (fake_bisheng.parent / "calls.log").read_text().splitlines()
    assert len(calls) == 2 * 4 * len(SOURCES)
    arch = {("Ascend910B1", "aic"): "dav-c220-cube", ("Ascend910B1", "aiv"): "dav-c220-vec",
            ("Ascend950", "aic"): "dav-c310-cube", ("Ascend950", "aiv"): "dav-c310-vec"}
    for chip in ("Ascend910B1", "Ascend950"):
        for variant in ("aic", "aiv", "mix_aic", "mix_aiv"):
            bcs = sorted(p.name for p in (out / chip / variant).glob("*.bc"))
            assert bcs == sorted(f"{s.stem}.bc" for s in SOURCES)
            mine = [c for c in calls if f"/{chip}/{variant}/" in c]
            assert len(mine) == len(SOURCES)
            for call in mine:
                args = call.split()
                for flag in ("-x", "cce", "-std=c++17", "-O2", "-emit-llvm", "-c",
                             "--cce-aicore-only"):
                    assert flag in args
                expected_arch = arch[(chip, variant.replace("mix_", ""))]
                assert f"--cce-aicore-arch={expected_arch}" in args
                assert ("-cce-enable-mix" in args) == variant.startswith("mix_")


def test_build_stops_when_bisheng_fails(tmp_path, fake_bisheng):
    env = {"PATH": "/usr/bin:/bin", "BISHENG": str(fake_bisheng), "FAKE_BISHENG_FAIL": "1"}
    proc = run(["bash", LIB / "build.sh", "--out", tmp_path / "out"], env=env)
    assert proc.returncode != 0
    assert "bisheng failed" in proc.stderr
    assert not _bc_files(tmp_path)


def test_build_against_a_shmem_release_layout(tmp_path, fake_bisheng):
    """--shmem-home takes a SHMEM tree with include/shmem.h (every tagged release; aclshmem.h was
    renamed in December 2025) and compiles with its headers; a tree with only aclshmem.h is refused."""
    home = tmp_path / "shmem"
    (home / "include").mkdir(parents=True)
    (home / "src" / "device").mkdir(parents=True)
    (home / "include" / "aclshmem.h").write_text("")
    env = {"PATH": "/usr/bin:/bin", "BISHENG": str(fake_bisheng)}
    cmd = ["bash", LIB / "build.sh", "--chip", "Ascend910B1", "--variant", "aiv", "--out", tmp_path / "out",
           "--shmem-home", home]
    proc = run(cmd, env=env)
    assert proc.returncode == 2 and "has no include/shmem.h" in proc.stderr
    assert not (fake_bisheng.parent / "calls.log").exists()
    (home / "include" / "shmem.h").write_text("")
    proc = run(cmd, env=env)
    assert proc.returncode == 0, proc.stderr
    calls = (fake_bisheng.parent / "calls.log").read_text().splitlines()
    assert len(calls) == len(SOURCES)
    for call in calls:
        args = call.split()
        assert "-DTTD_USE_ACLSHMEM_HEADERS" in args
        assert str(home / "include") in args and str(home / "src" / "device") in args


def test_api_header_includes_the_shmem_umbrella_header():
    """With the real headers the sources include SHMEM's shmem.h, and without them they declare
    the byte-wise RMA functions the wrappers call (not the typed ones SHMEM renamed)."""
    text = (LIB / "include" / "ttd_aclshmem" / "aclshmem_api.h").read_text()
    assert '#include "shmem.h"' in text and '#include "aclshmem.h"' not in text
    for fn in ("aclshmem_getmem", "aclshmem_putmem", "aclshmem_getmem_nbi", "aclshmem_putmem_nbi",
               "aclshmem_putmem_signal", "aclshmem_putmem_signal_nbi"):
        assert re.search(rf"void {fn}\(__gm__ void \*dst, __gm__ void \*src, (uint32_t|size_t) elem_size", text), fn
    assert not re.search(r"aclshmem_(get|put)_\w+_mem", text)


def test_build_rejects_unknown_chip(tmp_path, fake_bisheng):
    env = {"PATH": "/usr/bin:/bin", "BISHENG": str(fake_bisheng)}
    proc = run(["bash", LIB / "build.sh", "--chip", "Ascend310P3", "--out", tmp_path / "out"],
               env=env)
    assert proc.returncode != 0 and "unsupported chip" in proc.stderr
    assert not (fake_bisheng.parent / "calls.log").exists()


# ---- (e) the wrappers run on the host ---------------------------------------------------------

def _build_selftest(gxx, tmp_path, sources) -> dict[str, str]:
    exe = tmp_path / "selftest"
    proc = run([gxx, *HOST_FLAGS, *STRICT, *sources, HOST_IMPL, SELFTEST, "-o", exe])
    assert proc.returncode == 0, proc.stderr
    result = run([exe], timeout=60)
    assert result.returncode == 0, result.stderr
    return dict(line.split(": ", 1) for line in result.stdout.splitlines())


def _assert_mutant_fails(gxx, tmp_path, source: str, old: str, new: str, message: str) -> None:
    """Build the self-test with `old` replaced by `new` in src/<source>; it must fail with message."""
    mutated = tmp_path / source
    text = (LIB / "src" / source).read_text()
    assert old in text
    mutated.write_text(text.replace(old, new))
    sources = [s for s in SOURCES if s.name != source] + [mutated]
    with pytest.raises(AssertionError, match=message):
        _build_selftest(gxx, tmp_path, sources)


@pytest.fixture(scope="module")
def selftest(gxx, tmp_path_factory) -> dict[str, str]:
    return _build_selftest(gxx, tmp_path_factory.mktemp("selftest"), SOURCES)


@pytest.mark.parametrize(("case", "polled"), [
    ("wait_int8", "0,64"),              # 64 / sizeof(int8) = 64 elements apart
    ("wait_int16", "0,32,64"),
    ("wait_int32", "0,16,32,48"),       # 16 elements apart
    ("wait_int32_late", "0,16,16,16,32"),  # barrier 1 polled until the peer writes it
    ("wait_int64", "0,8,16,16,16"),     # 8 elements apart
    ("wait_int32_none", ""),
])
def test_wait_polls_one_cache_line_per_barrier(selftest, case, polled):
    assert selftest[case] == f"token=0 polled={polled}"


# SPEC 7 / CANN SHMEM: a wait polls while the NEGATED comparison holds (ACLSHMEM_CMP_EQ=0 ... LE=5);
# a code outside 0-5 returns at once without a poll.  Written with Python's IEEE comparisons.
GOES_ON = {0: operator.ne, 1: operator.eq, 2: operator.le, 3: operator.lt, 4: operator.ge, 5: operator.gt}
WAIT_CASES = {"up": (1, 4, 1), "down": (6, 4, -1), "eq": (4, 4, 0), "below": (3, 4, 0), "above": (5, 4, 0)}
NAN_CASES = {"nan_cell": (math.nan, 4, 0), "nan_value": (4, math.nan, 0)}
CODES = range(-1, 8)
WAIT_LIMIT = 50  # selftest.cpp kWaitLimit: polls before a wait counts as never ending


def expected_wait(start, value, step, cmp) -> str:
    """The selftest line of a wait whose cell starts at start and gains step on every poll."""
    if cmp not in GOES_ON:
        return f"polls=0 value={start:g}"
    cell, polls = start, 0
    while polls < WAIT_LIMIT:
        polls += 1
        cell += step  # the peer's write lands before the poll's read
        if not GOES_ON[cmp](cell, value):
            return f"polls={polls} value={cell:g}"
    return "stuck"


@pytest.mark.parametrize("name", WAIT_UNTIL_TYPES)
def test_wait_until_follows_shmem_for_every_type(selftest, name):
    """aclshmem_wait_until_<T>: every code -1..7 on every case, as SHMEM's negated loops give."""
    cases = dict(WAIT_CASES, **(NAN_CASES if name == "float" else {}))
    for case, (start, value, step) in cases.items():
        for cmp in CODES:
            key = f"wait_until_{name}_cmp{cmp}_{case}"
            assert selftest[key] == expected_wait(start, value, step, cmp), key


def test_wait_until_edge_cases(selftest):
    """The two rules issue 25 item 8 names, stated outright (not through the model above)."""
    for name in WAIT_UNTIL_TYPES:
        for cmp in (-1, 6, 7):  # outside 0-5: back at once, nothing polled
            assert selftest[f"wait_until_{name}_cmp{cmp}_below"] == "polls=0 value=3"
    for case in NAN_CASES:  # NaN: GT, GE, LT, LE and NE stop after one poll, EQ never does
        for cmp in (1, 2, 3, 4, 5):
            assert selftest[f"wait_until_float_cmp{cmp}_{case}"].startswith("polls=1 ")
        assert selftest[f"wait_until_float_cmp0_{case}"] == "stuck"
    assert selftest["wait_until_int32_cmp3_up"] == "polls=3 value=4"  # GE 4 from 1, +1 a poll


def test_signal_wait_until_follows_shmem(selftest):
    """The host emulation's aclshmem_signal_wait_until (behind the forwarding wrapper): the same
    rule, and it returns the signal as read after the wait."""
    for case, (start, value, step) in WAIT_CASES.items():
        for cmp in CODES:
            key = f"signal_wait_until_cmp{cmp}_{case}"
            assert selftest[key] == expected_wait(start, value, step, cmp), key
    assert selftest["signal_wait_until_cmp6_up"] == "polls=0 value=1"


SIZEOF = {"half": 2, "float": 4, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1,
          "uint16": 2, "uint32": 4, "uint64": 8, "char": 1, "bfloat16": 2}


def expected_rma(name: str, op: str) -> str:
    """selftest.cpp run_rma: each count moves exactly that many BYTES (SPEC 5), for every <T>."""
    sig = 9 if "signal" in op else 0
    return " ".join(f"{n}:moved={n},rest_zero=1,other_zero=1,sig={sig}"
                    for n in (0, 1, 5, 3 * SIZEOF[name]))


@pytest.mark.parametrize("name", SHMEM_TYPES)
def test_rma_wrappers_count_bytes_for_every_type(selftest, name):
    for op in RMA_OPS:
        assert selftest[f"rma_{name}_{op}"] == expected_rma(name, op), op


def test_selftest_catches_an_element_count(gxx, tmp_path):
    """The RMA check is not vacuous: wrappers that scale the count by sizeof(T) (the old
    element-wise meaning) move too much, and the emulation stops the run at the first copy that
    leaves the peer's heap (on hardware, a silent overrun)."""
    _assert_mutant_fails(gxx, tmp_path, "rma.cpp", "nbytes, pe);", "nbytes * (uint32_t)sizeof(CTYPE), pe);",
                         "run past its end")


def test_consume_token_returns_its_input(selftest):
    assert selftest["consume_token_int64"] == "-1234567890123"
    assert selftest["consume_token_half"] == "0x3c01"
    assert selftest["consume_token_float_ptr_3d"] == "same=1"
    assert selftest["consume_token_bfloat16_ptr_1d"] == "same=1"


def test_symmetric_and_rma_wrappers(selftest):
    assert selftest["my_pe"] == "0 n_pes: 2"
    assert selftest["ptr_float"] == "at_pe1=1 offset=0 size=12 stride=1"
    assert selftest["p"] == "pe1=2.5,-77 pe0=0,0"
    assert selftest["putmem_signal"] == "pe1=1,2,3,4 sig=11 pe0_sig=0"
    assert selftest["getmem_nbi"] == "1,2,3,4"


def test_selftest_catches_a_wrong_wait_stride(gxx, tmp_path):
    """The wait check is not vacuous: with a stride of one element the wait never ends."""
    _assert_mutant_fails(gxx, tmp_path, "sync.cpp", "TTD_SIGNAL_SLOT_STRIDE(T);", "1;", "a wait never finished")


def test_generator_is_deterministic(gxx, tmp_path):
    out = tmp_path / "symbols.txt"
    proc = run([sys.executable, LIB / "gen_symbols.py", "--output", out])
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == (LIB / "symbols.txt").read_text()

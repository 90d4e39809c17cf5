"""What ``ttd-sim`` says when its command line is wrong (issue 31, items 3 and 4).

* a misspelled ``--arg`` name is named, with the kernel's near argument names suggested;
* ``--ranks`` that is not a number says what a valid value is; ranks whose heaps (ranks x heap
  bytes) exceed the limit are refused before anything is allocated, with both figures;
* an input with no public function names the file;
* a binary input gives a located error and exit 1, as ``ttd-lower`` does;
* every usage error is one line in the command's diagnostic format, ``ttd-sim: error: MESSAGE.
  Try 'ttd-sim --help'`` (item "one diagnostic format"), exit 2, nothing on stdout.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
PUSH = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"
PUSH_ARGS = ["--arg", "local_ptr=zeros(4)", "--arg", "symm_buf_ptr=zeros(16)", "--arg", "signal_ptr=zeros(4)",
             "--arg", "out_ptr=zeros(16)", "--arg", "epoch=1"]


def sim(*args):
    return subprocess.run(SIM + [str(a) for a in args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


HINT = ". Try 'ttd-sim --help'"


def usage_error(r) -> str:
    """The message of ``r``'s usage error, checked to be one line in ttd-sim's diagnostic format
    on stderr (``ttd-sim: error: MESSAGE. Try 'ttd-sim --help'``), exit 2, nothing on stdout."""
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ttd-sim: error: ") and lines[0].endswith(HINT), r.stderr
    assert "Error:" not in r.stderr and "Traceback" not in r.stderr
    return lines[0][len("ttd-sim: error: "):-len(HINT)]


@pytest.mark.parametrize("word, near", [("--bogus", "--out"), ("--rank", "--ranks"), ("-rank=2", "--ranks")])
def test_a_misspelled_option_is_one_diagnostic_line_with_the_near_name(word, near):
    assert usage_error(sim(PUSH, word, 2)) == f"no such option '{word.partition('=')[0]}' (did you mean '{near}'?)"


def test_a_missing_kernel_file_is_one_diagnostic_line(tmp_path):
    missing = tmp_path / "missing.ttir"
    assert usage_error(sim(missing, "--ranks", 2)) == f"cannot read '{missing}': No such file or directory"


@pytest.mark.parametrize("args, message", [
    (("--ranks", 2), "give a KERNEL file (or --plan PLAN.json)"),
    ((PUSH,), "give the number of ranks (--ranks R)"),
    ((PUSH, "--ranks"), "option '--ranks' requires an argument"),
    ((PUSH, "--ranks", 2, "--grid", 0), "--grid: '0': one to three positive sizes"),
])
def test_a_missing_or_bad_argument_is_one_diagnostic_line(args, message):
    assert usage_error(sim(*args)) == message


def test_misspelled_arg_is_named_with_near_names():
    r = sim(PUSH, "--ranks", 4, "--grid", 4, *PUSH_ARGS, "--arg", "n_per_rnk=4")
    message = usage_error(r)
    assert "n_per_rnk" in message and "n_per_rank" in message and "did you mean" in message.lower()


def test_ranks_not_a_number_says_what_is_valid():
    r = sim(PUSH, "--ranks", "abc")
    assert usage_error(r) == "--ranks: 'abc' is not a number of ranks: give a positive integer, e.g. --ranks 4"
    assert "integer range" not in r.stderr


def test_too_many_ranks_refused_before_allocating_with_the_figures():
    big = [a.replace("zeros(16)", "zeros(65536)") for a in PUSH_ARGS]  # 100000 x 524,800 heap bytes: 52 GB
    r = sim(PUSH, "--ranks", 100000, "--grid", 4, *big, "--arg", "n_per_rank=4")
    assert r.returncode == 2, r.stderr
    assert "100000 ranks" in r.stderr and "bytes" in r.stderr and "limit" in r.stderr
    assert "pointer not in heap" not in r.stderr and "Traceback" not in r.stderr


def test_no_public_function_names_the_file():
    r = sim("/dev/null", "--ranks", 2)
    assert r.returncode == 2
    assert "/dev/null" in r.stderr and "no public function" in r.stderr
    assert "()" not in r.stderr


def test_binary_input_is_a_located_error():
    r = sim("/bin/ls", "--ranks", 2)
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith("/bin/ls:1:") and "error: invalid UTF-8" in r.stderr
    assert "codec can't decode" not in r.stderr and r.stdout == ""


TEAMS = ROOT / "tests" / "sim_inputs" / "teams.ttir"
TEAMS_ARGS = ["--arg", "flags=zeros(2)", "--arg", "team=0", "--arg", "sync=0"]


def test_bad_pointer_arg_names_the_argument():
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=abc", "--arg", "idx=1")
    assert r.returncode == 2, r.stderr
    assert "--arg out=abc: 'abc' is not a buffer value" in r.stderr and "Traceback" not in r.stderr


def test_non_integer_for_an_integer_arg_names_it():
    for value in ("nan", "2.5", "1.5,2"):
        r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(4)", "--arg", f"idx={value}")
        assert r.returncode == 2, (value, r.stderr)
        assert f"--arg idx={value}: expected an integer for i32" in r.stderr, r.stderr
        assert "steps[" not in r.stderr and "internal error" not in r.stderr


def test_parse_error_is_located_with_the_source_line(tmp_path):
    bad = tmp_path / "bad.ttir"
    bad.write_text("module {\n  tt.func @f( {\n  }\n}\n")
    r = sim(bad, "--ranks", 2)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"{bad}:4:1: error: unexpected '}}'"), r.stderr
    assert lines[1] == "}" and "ttd-lower: error" not in r.stderr


def test_parse_error_of_a_launch_module_path_is_located(tmp_path):
    from transpiler.sim import Launch, Plan, simulate

    bad = tmp_path / "bad.ttir"
    bad.write_text("module {\n  tt.func @f( {\n  }\n}\n")
    import pytest

    with pytest.raises(Exception) as e:
        simulate(Plan(2, {}, [Launch(module=str(bad))]))
    assert str(e.value).startswith(f"{bad}:4:1: error: unexpected '}}'"), str(e.value)


def test_check_lowering_finding_names_its_module():
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(1)", "--arg", "idx=1", "--check-lowering")
    assert r.returncode == 1, r.stderr
    head = r.stderr.splitlines()[0]
    assert "error: 'tt.store' op rank 1, program (0, 0, 0): out-of-bounds store" in head, head
    assert head.endswith("(in the module before lowering)"), head


def test_missing_extras_say_what_to_install():
    """Issue 31 item 9: a missing Triton or numpy is a clear message, not a bare
    ModuleNotFoundError; the hint says how to install the extra from a clone, since ttd-lower is
    not on PyPI (new-user trial of session 43), and names the wheel's extra too."""
    for module, blocked, extra in (("transpiler.language", "triton", "ttd-lower[frontend]"),
                                   ("transpiler.sim", "numpy", "ttd-lower[sim]")):
        code = f"import sys; sys.modules[{blocked!r}] = None\nimport {module}"
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert r.returncode == 1
        last = r.stderr.strip().splitlines()[-1]
        assert f"pip install -e '.[{extra.split('[')[1]}' in a clone of ttd-lower ('{extra}' for a wheel" in last, last


def test_a_too_large_arg_buffer_names_the_arg_not_a_plan_path():
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(99999999999999)", "--arg", "idx=1")
    message = usage_error(r)
    assert message.startswith("--arg out: 2 ranks x ") and "buffers." not in message, message


def test_a_million_ranks_of_tiny_heaps_refused_before_allocating():
    """Issue 31 item 4, as repeated by the new-user trial: the bound counts each rank's own
    bookkeeping too, so a million ranks of 1-element buffers are refused up front (they used to
    hang in a quadratic duplicate-rank check, then allocate gigabytes)."""
    tiny = [a.replace("zeros(16)", "zeros(1)").replace("zeros(4)", "zeros(1)") for a in PUSH_ARGS]
    message = usage_error(sim(PUSH, "--ranks", 1000000, *tiny, "--arg", "n_per_rank=1"))
    assert message.startswith("--ranks: 1000000 ranks x ") and "over the limit" in message, message


@pytest.mark.parametrize("value, shown", [("4294967552", "4294967552"), ("-2147483649", "-2147483649"),
                                          ("1e400", "1e400"), ("-inf", "-inf")])
def test_an_integer_arg_outside_its_type_is_refused_not_wrapped(value, shown):
    """An ``i32`` argument takes -2**31 .. 2**32 - 1 (signless: either reading); outside that
    it used to wrap silently (2**32 + 256 ran as 256)."""
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(4)", "--arg", f"idx={value}")
    assert usage_error(r) == (f"--arg idx={value}: {shown} is out of range for i32 "
                              f"(-2147483648 to 4294967295)"), r.stderr


def test_an_integer_fill_outside_its_type_is_refused():
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=full(4, 300, i8)", "--arg", "idx=1")
    assert "300 is out of range for i8 (-128 to 255)" in usage_error(r)


@pytest.mark.parametrize("value, message", [
    ("arange(300, i8)", "its last element 299 is out of range for i8 (-128 to 255)"),
    ("arange(100000, f16)", "its last element 99999 is outside float16 (largest 65504)"),
    ("full(4, 1e40, f16)", "1e+40 is outside float16 (largest 65504)"),
    ("full(4, 1e39, bf16)", "1e+39 is outside bfloat16"),
])
def test_a_fill_or_range_the_type_cannot_hold_is_refused_not_wrapped(tmp_path, value, message):
    """``arange(300, i8)`` wrapped and ``full(4, 1e40, f16)`` became inf with numpy's raw
    RuntimeWarning (attack of session 42); no warning reaches the user."""
    path = tmp_path / "k.ttir"
    path.write_text(RACY.replace("i32", "f32").replace("%0 = tt.get_program_id x : f32", "%0 = arith.constant 1.0 : f32"))
    r = sim(path, "--ranks", 1, "--arg", f"p={value}")
    assert message in usage_error(r) and "Warning" not in r.stderr


def test_an_arg_given_twice_is_refused():
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(4)", "--arg", "idx=1", "--arg", "idx=0")
    assert usage_error(r) == "--arg idx=0: 'idx' is given twice (first as --arg idx=1)"


def test_a_finding_in_the_lowered_file_is_located_in_that_file(tmp_path):
    """``--lowered FILE``: a finding of the run after lowering is located in FILE, the text that
    ran (it used to be named ``KERNEL (lowered)``, a file that does not exist)."""
    low = tmp_path / "teams.lowered.mlir"
    lowered = subprocess.run([sys.executable, "-c", "from transpiler.cli import entry; entry()", str(TEAMS), "-o", "-"],
                             capture_output=True, text=True, timeout=120, check=True).stdout
    line = next(i for i, t in enumerate(lowered.splitlines(), 1) if "tt.store %p2" in t)
    low.write_text(lowered.replace("arith.constant 2 : i32", "arith.constant 7 : i32"))  # out[7]: out of bounds
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(4)", "--arg", "idx=1", "--lowered", low)
    assert r.returncode == 1, r.stderr
    head = r.stderr.splitlines()[0]
    assert head.startswith(f"{low}:{line}:5: error: 'tt.store' op rank "), head
    assert "out-of-bounds store" in head and head.endswith("(in the module after lowering)"), head


@pytest.mark.parametrize("option, target", [("-o", "{tmp}/no/such/dir/report.txt"), ("--out", "{tmp}/file/sub"),
                                            ("--trace", "{tmp}/no/such/dir/t.json")])
def test_an_unwritable_output_is_refused_before_the_run(tmp_path, option, target):
    """Each output is checked before the run (which may take minutes): the kernel below has a
    finding, and the usage error about the output comes first, leaving no file behind."""
    (tmp_path / "file").write_text("a file, not a directory")
    path = target.format(tmp=tmp_path)
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(1)", "--arg", "idx=1", option, path)
    message = usage_error(r)
    assert message.startswith(f"{option}: cannot write '{path}': "), message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_missing_numpy_is_a_plain_error_not_a_usage_error():
    """A missing extra is not a mistake on the command line: one line naming what to install,
    exit 1, no ``Try --help`` (the new-user trial saw it under the usage header, exit 2)."""
    code = ("import sys; sys.modules['numpy'] = None; sys.argv[1:] = ['k.ttir', '--ranks', '2']\n"
            "from transpiler.cli.sim import entry; entry()")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stdout == "", (r.returncode, r.stderr)
    assert r.stderr == ("ttd-sim: error: ttd-sim needs numpy and ml_dtypes: pip install -e '.[sim]' in a clone of "
                        "ttd-lower ('ttd-lower[sim]' for a wheel; it is not on PyPI)\n"), r.stderr


def test_a_buffer_of_another_element_type_than_its_pointer_is_refused():
    """The new-user trial's worst finding: ``rank(256, i32)`` passed to ``!tt.ptr<f32>`` ran, and
    the kernel read its bits as floats (4e-45 for 3).  Integers of one width still pass for each
    other (signless)."""
    args = [a.replace("local_ptr=zeros(4)", "local_ptr=rank(4, i32)") for a in PUSH_ARGS]
    message = usage_error(sim(PUSH, "--ranks", 2, *args, "--arg", "n_per_rank=4"))
    assert message == ("--arg local_ptr: buffer 'local_ptr' holds i32, but argument 'local_ptr' of "
                       "@allgather_push_kernel points to f32: give the buffer that element type (or leave it out)")
    args = [a.replace("signal_ptr=zeros(4)", "signal_ptr=zeros(4, ui32)") for a in PUSH_ARGS]
    r = sim(PUSH, "--ranks", 2, *args, "--arg", "n_per_rank=4")
    assert "holds" not in r.stderr


@pytest.mark.parametrize("option", [["--ranks", "2"], ["--grid", "2"], ["--function", "f"]])
def test_run_options_with_a_plan_are_refused_not_ignored(option):
    plan = ROOT / "examples" / "allgather_push" / "plan.json"
    message = usage_error(sim("--plan", plan, *option))
    assert message == ("--plan takes the kernels, ranks, grids and arguments from the plan: give no "
                       f"{option[0]}"), message


def test_a_lowered_file_that_is_not_utf8_is_a_located_error(tmp_path):
    bad = tmp_path / "garbage.mlir"
    bad.write_bytes(b"module {\n \xff\n}\n")
    r = sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=zeros(4)", "--arg", "idx=1", "--lowered", bad)
    assert r.returncode == 1 and r.stdout == "", r.stderr
    assert r.stderr.startswith(f"{bad}:2:2: error: invalid UTF-8: byte 0xff"), r.stderr
    assert "codec" not in r.stderr


def test_a_bad_buffer_value_does_not_claim_plans_need_its_type():
    message = usage_error(sim(TEAMS, "--ranks", 2, *TEAMS_ARGS, "--arg", "out=abc", "--arg", "idx=1"))
    assert "in a plan" not in message and "where the buffer is passed to no pointer argument" in message, message


def test_a_notify_past_its_buffer_names_the_buffer_and_element_at_any_rank_count():
    """With 20 ranks the signal slot of the same mistake lies past the calling rank's heap, and
    the finding said only 'pointer 0x... is not in the heap'; it names the buffer and the element
    as the out-of-bounds message of 4 ranks does (README: "its buffer and size, the offset")."""
    args = ["--arg", "local_ptr=rank(1)", "--arg", "symm_buf_ptr=zeros(20)", "--arg", "signal_ptr=zeros(20)",
            "--arg", "out_ptr=zeros(20)", "--arg", "n_per_rank=1", "--arg", "epoch=1"]
    r = sim(PUSH, "--ranks", 20, *args)
    assert r.returncode == 1, r.stderr
    head = r.stderr.splitlines()[0]
    assert re.search(r"'distributed.notify' op rank \d+, program \(0, 0, 0\): out-of-bounds pointer: element \d+ is "
                     r"outside buffer 'signal_ptr' \(20 elements of 4 bytes\) on rank \d+", head), head


RACY = ("module {\n  tt.func public @k(%p: !tt.ptr<i32>) {\n    %0 = tt.get_program_id x : i32\n"
        "    tt.store %p, %0 : !tt.ptr<i32>\n    tt.return\n  }\n}\n")


def test_a_schedule_dependent_result_is_ttd_sims_finding_with_the_writers_located(tmp_path):
    """Two programs store their ids to one element: the schedules disagree.  The finding is
    ttd-sim's (it was labelled ``ttd-lower: error:``) and points at the op that last wrote the
    element under each schedule (new-user trial of session 42)."""
    path = tmp_path / "racy.ttir"
    path.write_text(RACY)
    r = sim(path, "--ranks", 1, "--grid", 2, "--schedules", 8, "--arg", "p=zeros(1,i32)")
    assert r.returncode == 1, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("ttd-sim: error: the result depends on the schedule: rank 0, buffer 'p', index 0"), lines
    assert "--races" in lines[0]
    assert re.match(r".*racy\.ttir:4:5: note: under schedule \d+: the op that last wrote it", lines[1]), lines
    assert lines[2] == "    tt.store %p, %0 : !tt.ptr<i32>"


@pytest.mark.parametrize("grid, message", [
    ("10000000", "2 ranks x 10,000,000 programs = 20,000,000 programs at once, over the limit of"),
    ("3000,2000", "2 ranks x 6,000,000 programs"),
])
def test_a_grid_too_large_to_hold_is_refused_before_building_it(tmp_path, grid, message):
    """``--grid 10000000`` built every program (13 GB) before ``--max-ops`` counted (attack of
    session 42); now it is a usage error at once."""
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    assert message in usage_error(sim(path, "--ranks", 2, "--grid", grid, "--arg", "p=zeros(1,i32)"))


def test_a_grid_of_more_programs_than_max_ops_is_a_finding_before_it_runs(tmp_path):
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    r = sim(path, "--ranks", 1, "--grid", 1000, "--max-ops", 999, "--arg", "p=zeros(1,i32)")
    assert r.returncode == 1
    assert "a launch of 1,000 programs runs at least 1,000 ops, more than the 999" in r.stderr, r.stderr


def test_a_negative_seed_is_a_usage_error(tmp_path):
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    assert "--seed: -1 is not in the range x>=0" in usage_error(sim(path, "--ranks", 1, "--seed", -1,
                                                                   "--arg", "p=zeros(1,i32)"))


def test_max_ops_blames_the_op_that_crossed_the_limit(tmp_path):
    """``run_block`` counts a block's ops at its entry; the error named the block's terminator
    whatever op crossed the limit (new-user trial of session 42)."""
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    r = sim(path, "--ranks", 1, "--max-ops", 1, "--arg", "p=zeros(1,i32)")
    assert r.returncode == 1
    assert "k.ttir:4:5: error: 'tt.store' op rank 0, program (0, 0, 0): more than 1 ops executed" in r.stderr, r.stderr


def test_a_check_of_a_module_with_nothing_to_lower_says_it_compares_the_module_with_itself(tmp_path):
    """``--check-lowering`` on an already lowered module ran both sides on the same module and
    said the lowering holds (new-user trial of session 42): a note says what was compared, and
    the op count says which module it counts."""
    r = sim(ROOT / "examples" / "reduce_scatter" / "reduce_scatter.ttadapter.mlir", "--ranks", 2, "--check-lowering",
            "--arg", "symm_in_ptr=zeros(64)", "--arg", "signal_ptr=zeros(64)", "--arg", "out_ptr=zeros(32)",
            "--arg", "chunk_elems=16")
    assert "holds no distributed op (already lowered?), so --check-lowering compares each module with itself" in r.stderr
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    r = sim(path, "--ranks", 1, "--check-lowering", "--arg", "p=zeros(1,i32)")
    assert r.returncode == 0 and "ops per run (of the lowered module)" in r.stdout, r.stderr


def test_a_missing_symbol_under_ttd_sim_suggests_ttd_sims_options(tmp_path):
    """The link check's hint named ttd-lower's --symbol-list and --no-link-check, which ttd-sim
    does not have (new-user trial of session 42)."""
    path = tmp_path / "k.ttir"
    path.write_text(RACY.replace("    %0 = tt.get_program_id x : i32\n",
                                 '    %0 = distributed.extern_call {distributed.core_type = "vector", libname = '
                                 '"libshmem_device", libpath = "", pure = true, symbol = "aclshmem_nope"} : () -> i32\n'))
    r = sim(path, "--ranks", 1, "--check-lowering", "--arg", "p=zeros(1,i32)")
    assert r.returncode == 1 and "symbol 'aclshmem_nope'" in r.stderr, r.stderr
    assert "(select another with --device-library)" in r.stderr and "--no-link-check" not in r.stderr


@pytest.mark.parametrize("command", [
    ["ttd-lower", "/dev/zero", "-o", "/dev/null"],
    ["ttd-sim", "/dev/zero", "--ranks", "1"],
    ["ttd-sim", "--plan", "/dev/zero"],
])
def test_an_endless_input_is_refused_at_the_size_limit(command):
    """``/dev/zero`` as an input grew ttd-lower to 24 GB, then exit 3 (attack of session 43):
    every read stops one byte past ``fileio.MAX_INPUT_BYTES``."""
    tool, *args = command
    entry = "transpiler.cli" if tool == "ttd-lower" else "transpiler.cli.sim"
    r = subprocess.run([sys.executable, "-c", f"from {entry} import entry; entry()", *args], capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stderr
    assert "it holds more than 268,435,456 bytes (an endless stream such as /dev/zero?)" in r.stderr


def test_a_distributed_op_the_verifier_refuses_is_refused_before_it_runs(tmp_path):
    """A notify with its operands out of order ran into an AttributeError, exit 3 (attack of
    session 43); ttd-sim now verifies distributed ops as ttd-lower's ttir stage does."""
    path = tmp_path / "k.ttir"
    path.write_text("module {\n  tt.func public @f(%a: !tt.ptr<i32>, %n: i32) {\n    %c1_i64 = arith.constant 1 : i64\n"
                    "    %c0_i32 = arith.constant 0 : i32\n    \"distributed.notify\"(%c1_i64, %a, %c0_i32) <{commScope = 3 : "
                    "i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()\n    tt.return\n  }\n}\n")
    r = sim(path, "--ranks", 2, "--arg", "a=zeros(16,i32)", "--arg", "n=1")
    assert r.returncode == 1, r.stderr
    assert "k.ttir:5:26: error: 'distributed.notify' op use of value '%c1_i64' expects different type" in r.stderr


def test_a_trace_that_cannot_be_written_is_a_usage_error(tmp_path):
    """``--trace /dev/full``: OSError, exit 3 (attack of session 43)."""
    path = tmp_path / "k.ttir"
    path.write_text(RACY)
    r = sim(path, "--ranks", 1, "--arg", "p=zeros(1,i32)", "--trace", "/dev/full")
    assert "--trace: cannot write '/dev/full': No space left on device" in usage_error(r)


def test_an_argument_given_by_name_and_by_position_is_refused():
    """``--arg n_per_rank=3 --arg '#4=256'``: the name won silently (attack of session 43)."""
    args = [a for a in PUSH_ARGS]
    r = sim(PUSH, "--ranks", 2, *args, "--arg", "n_per_rank=3", "--arg", "#4=4")
    assert "--arg n_per_rank=3 and --arg #4=4 give one argument twice" in usage_error(r)


def test_a_plan_buffer_passed_to_two_pointers_is_checked_against_both(tmp_path):
    """A buffer passed to ``local_ptr`` (f32) and ``signal_ptr`` (i32): only its last use was
    checked, so an i32 buffer was read as f32 with exit 0 (attack of session 43)."""
    import json

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "ranks": 2, "buffers": {"X": "zeros(1024, i32)", "B": "zeros(1024, f32)", "O": "zeros(1024, f32)"},
        "steps": [[{"kernel": str(PUSH), "args": {"local_ptr": "X", "symm_buf_ptr": "B", "signal_ptr": "X",
                                                  "out_ptr": "O", "n_per_rank": 4, "epoch": 1}}]]}))
    r = sim("--plan", plan)
    assert r.returncode == 1, r.stderr
    assert "buffer 'X' holds i32, but argument 'local_ptr' of @allgather_push_kernel points to f32" in r.stderr


def test_a_recursion_that_does_not_end_is_a_located_finding(tmp_path):
    """A tt.call of its own function ran into Python's RecursionError, exit 3 (attack of session 43)."""
    path = tmp_path / "k.ttir"
    path.write_text("module {\n  tt.func public @f(%a: !tt.ptr<f32>) {\n    tt.call @f(%a) : (!tt.ptr<f32>) -> ()\n"
                    "    tt.return\n  }\n}\n")
    r = sim(path, "--ranks", 1, "--arg", "a=zeros(4)")
    assert r.returncode == 1, r.stderr
    assert "k.ttir:3:5: error: 'tt.call' op rank 0, program (0, 0, 0): calls nested more than 64 deep" in r.stderr


def test_a_store_through_an_integer_is_a_located_finding(tmp_path):
    """``tt.store %n, %n`` with an i32 for the pointer: AttributeError, exit 3 (attack of session 43)."""
    path = tmp_path / "k.ttir"
    path.write_text("module {\n  tt.func public @f(%a: !tt.ptr<f32>, %n: i32) {\n    tt.store %n, %n : !tt.ptr<f32>\n"
                    "    tt.return\n  }\n}\n")
    r = sim(path, "--ranks", 1, "--arg", "a=zeros(4)", "--arg", "n=1")
    assert r.returncode == 1, r.stderr
    assert "k.ttir:3:5: error: 'tt.store' op rank 0, program (0, 0, 0): failed: AttributeError" in r.stderr


def test_a_plan_given_as_the_kernel_says_to_use_plan():
    """``ttd-sim plan.json`` said to give --ranks (new-user trial of session 43)."""
    plan = ROOT / "examples" / "allgather_push" / "plan.json"
    assert f"{plan} looks like a plan, not a kernel: run it with --plan {plan}" in usage_error(sim(plan))


@pytest.mark.parametrize("constant, message", [
    ("dense<[1, 2]> : tensor<4xi32>", "inferred shape of elements literal ([2]) does not match type ([4])"),
    ("dense<[1.0, 2.x, 3.0, 4.0]> : tensor<4xf32>", "'2.x' is not an element of tensor<4xf32>"),
    ("dense<[1, 2, x, 4]> : tensor<4xi32>", "'x' is not an element of tensor<4xi32>"),
])
def test_a_constant_mlir_refuses_is_a_located_finding(tmp_path, constant, message):
    """A dense literal whose element count or element text does not fit its type: numpy's
    ValueError while the op was compiled, exit 3 (attack of session 43)."""
    path = tmp_path / "k.ttir"
    path.write_text("module {\n  tt.func public @f(%a: !tt.ptr<f32>) {\n"
                    f"    %c = arith.constant {constant}\n    tt.return\n  }}\n}}\n")
    r = sim(path, "--ranks", 1, "--arg", "a=zeros(4)")
    assert r.returncode == 1, r.stderr
    assert f"k.ttir:3:5: error: 'arith.constant' op cannot be simulated: {message}" in r.stderr


@pytest.mark.parametrize("op", [
    "%r = tt.make_range {end = 1073741824 : i32, start = 0 : i32} : tensor<1073741824xi32>",
    "%r = arith.constant dense<1.0> : tensor<65536x65536xf32>",
])
def test_a_tensor_over_the_value_limit_is_refused_before_it_is_made(tmp_path, op):
    """A 2^30-element make_range or a 65536x65536 splat allocated gigabytes per program (attack of
    session 43); the op is refused when compiled, naming the limit, in well under a second's work."""
    from transpiler.sim.limits import MAX_VALUE_ELEMENTS

    path = tmp_path / "k.ttir"
    path.write_text(f"module {{\n  tt.func public @f(%a: !tt.ptr<f32>) {{\n    {op}\n    tt.return\n  }}\n}}\n")
    r = sim(path, "--ranks", 1, "--arg", "a=zeros(4)")
    assert r.returncode == 1, r.stderr
    assert re.search(r"k\.ttir:3:5: error: '[\w.]+' op a value of tensor<\w+> has [\d,]+ elements, over the "
                     rf"simulator's limit of {MAX_VALUE_ELEMENTS:,} per tensor", r.stderr), r.stderr


@pytest.mark.parametrize("value, ranks, message", [
    ("rank(4, i8)", 300, "the last rank 299 is out of range for i8 (-128 to 255)"),
    ("rank(4, f16)", 4096, "rank 4095 of 4096 ranks is not exact in float16"),
    ("arange(257, i8)", 1, "its last element 256 is out of range for i8 (-128 to 255)"),
])
def test_a_rank_or_range_the_type_cannot_hold_is_refused(value, ranks, message):
    """``rank(N)`` wrapped on i8 and rounded on f16, and ``arange`` of i8 stopped at 127 where
    ``full`` takes MLIR's signless range to 255 (attack of session 43): one rule for all three."""
    from transpiler.sim.errors import UsageError
    from transpiler.sim.plan import parse_value

    with pytest.raises(UsageError, match=re.escape(message)):
        parse_value(value, ranks=ranks)
    assert parse_value("arange(256, i8)").n == 256 and parse_value("rank(4, f16)", ranks=2049).kind == "rank"

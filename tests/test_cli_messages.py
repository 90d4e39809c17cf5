"""What the command line says when a new user gets something wrong (issue 24, items 6-10).

* a quoted source line is safe for a terminal and short: non-printable characters escaped
  (``<U+XXXX>``), a long line cut to a window around the caret (``transpiler/snippet.py``);
  ``ttd-lower`` on a binary file prints a short, clean error;
* ``--dump-dir`` errors name the option; ``--override-dir`` naming a regular file is a usage
  error;
* a reader that closes the pipe early (``| head -1``) does not change the exit status;
* one usage line, for usage errors and ``--help``;
* a usage error is one line in ttd-lower's diagnostic format, ``ttd-lower: error: MESSAGE. Try
  'ttd-lower --help'`` (issue 31, "one diagnostic format"), with the near option names of a
  misspelled one;
* a diagnostic at an op with a ``loc`` names the kernel's Python line, as the hook does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import cli
from transpiler.snippet import MAX_WIDTH, quote_line

ROOT = Path(__file__).parents[1]
SCRIPT = Path(sys.executable).parent / "ttd-lower"  # the console script, as a user runs it
TTD_LOWER = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "transpiler"]
PUSH = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"
BAD = ROOT / "tests" / "corpus" / "distributed" / "cases" / "unsupported_pointee_f64.ttir"
LINT = ROOT / "tests" / "corpus" / "distributed" / "multi_dtype.ttir"  # six lint warnings, exit 0
ALLGATHER = ROOT / "tests" / "corpus" / "distributed" / "allgather_push.ttir"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def run(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT):
    return subprocess.run([*TTD_LOWER, *map(str, args)], stdout=stdout, stderr=stderr, text=True, timeout=120,
                          cwd=cwd, stdin=subprocess.DEVNULL)


# ---- item 6: the quoted source line -----------------------------------------------------------

def test_a_binary_file_gives_a_short_clean_error():
    binary = os.path.realpath(sys.executable)  # a binary every machine that runs the suite has
    proc = run(binary)
    assert proc.returncode == cli.EXIT_INPUT_ERROR and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 3, proc.stderr[:2000]
    assert re.match(rf"{re.escape(binary)}:1:\d+: error: invalid UTF-8: byte 0x[0-9a-f]{{2}}", lines[0])
    assert not CONTROL.search(proc.stderr), "control bytes reach the terminal"
    assert all(len(line) <= MAX_WIDTH + 2 * len("...") for line in lines[1:]), [len(x) for x in lines]
    assert lines[2].endswith("^") and set(lines[2][:-1]) <= {" "}


def test_control_characters_in_the_quoted_line_are_escaped_and_the_caret_stays_under_the_op(tmp_path):
    text = BAD.read_text()
    line = text.splitlines()[4]  # `    %far = distributed.symm_at ...` (the error's line, 5:5)
    assert "distributed.symm_at" in line
    dirty = "    %far = distributed.symm_at" + line.split("distributed.symm_at", 1)[1] + " // \x1b[2J\x07\u202e"
    path = tmp_path / "dirty.ttir"
    path.write_text(text.replace(line, dirty))
    proc = run(path)
    assert proc.returncode == cli.EXIT_INPUT_ERROR
    quoted, caret = proc.stderr.splitlines()[1:3]
    assert quoted.endswith("// <U+001B>[2J<U+0007><U+202E>") and not CONTROL.search(proc.stderr)
    assert caret == " " * 4 + "^"


def test_a_long_line_is_cut_to_a_window_around_the_caret(tmp_path):
    text = BAD.read_text()
    line = text.splitlines()[4]
    path = tmp_path / "long.ttir"
    path.write_text(text.replace(line, line + " // " + "y" * 5000))
    proc = run(path)
    quoted, caret = proc.stderr.splitlines()[1:3]
    assert len(quoted) <= MAX_WIDTH + len("...") and quoted.endswith("...")
    assert quoted.startswith("    %far = distributed.symm_at") and caret == "    ^"
    # far into a long line: cut on both sides, the caret under the character it points at
    shown, under = quote_line("a" * 3000 + "HERE" + "b" * 3000, 3001)
    assert shown.startswith("...") and shown.endswith("...") and len(shown) <= MAX_WIDTH + 6
    assert shown[len(under) - 1 : len(under) + 3] == "HERE"


def test_tabs_and_wide_characters_keep_the_caret_aligned():
    shown, under = quote_line('\t%s = "中文" X', 12)  # at X
    assert shown == '\t%s = "中文" X'
    assert under == "\t" + " " * len('%s = "') + " " * 4 + " " * len('" ') + "^"  # 中 and 文: two columns each


# ---- item 7: folder options -------------------------------------------------------------------

def test_dump_dir_errors_name_the_option(tmp_path):
    regular = tmp_path / "file"
    regular.write_text("")
    for folder, expected in ((regular / "sub", f"--dump-dir: cannot write '{regular / 'sub'}': Not a directory"),
                             (regular, f"--dump-dir: '{regular}' is not a folder")):
        proc = run(PUSH, "--dump-dir", folder, "-o", tmp_path / "out.mlir")
        assert proc.returncode == cli.EXIT_USAGE and expected in proc.stderr, proc.stderr
        assert not (tmp_path / "out.mlir").exists()


def test_override_dir_naming_a_regular_file_is_a_usage_error(tmp_path):
    regular = tmp_path / "overrides.txt"
    regular.write_text("")
    proc = run(PUSH, "--override-dir", regular, "-o", tmp_path / "out.mlir")
    assert proc.returncode == cli.EXIT_USAGE and f"--override-dir: '{regular}' is not a folder" in proc.stderr
    # a folder that does not exist holds no override: the run goes on (README's example)
    assert run(PUSH, "--override-dir", tmp_path / "none", "-o", os.devnull).returncode == 0


# ---- item 8: a reader that goes away ----------------------------------------------------------

def closed_pipe():
    """The write end of a pipe whose reader has already gone: every write to it is EPIPE."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.mark.parametrize("args, stream, status", [
    ((LINT, "--lint-only"), "stderr", 0),  # `ttd-lower k.ttir --lint-only 2>&1 | head -1`
    ((PUSH,), "stdout", 0),
    ((BAD,), "stderr", cli.EXIT_INPUT_ERROR),
    (("--help",), "stdout", 0),
    (("--list-symbols",), "stdout", 0),
    (("--no-such-option",), "stderr", cli.EXIT_USAGE),
])
def test_a_closed_pipe_does_not_change_the_exit_status(args, stream, status):
    unpiped = run(*args)
    assert unpiped.returncode == status
    fd = closed_pipe()
    try:
        proc = run(*args, **{stream: fd})
    finally:
        os.close(fd)
    assert proc.returncode == status
    other = proc.stdout if stream == "stderr" else proc.stderr
    assert "Traceback" not in (other or "") and "Broken pipe" not in (other or "")


def test_the_output_file_is_written_when_stderr_closes_early(tmp_path):
    out = tmp_path / "out.mlir"
    fd = closed_pipe()
    try:
        proc = run(LINT, "-o", out, stderr=fd)
    finally:
        os.close(fd)
    assert proc.returncode == 0 and out.read_text() == run(LINT).stdout


# ---- item 9: one usage line -------------------------------------------------------------------

def test_help_prints_the_usage_line_and_usage_errors_none(tmp_path):
    help_usage = [x for x in run("--help").stdout.splitlines() if x.startswith("USAGE:")]
    assert len(help_usage) == 1 and help_usage[0].endswith(" [options] <input file>")
    error = run(tmp_path / "missing.ttir").stderr.splitlines()
    assert len(error) == 1 and not error[0].lower().startswith("usage")  # one diagnostic line (issue 31)


# ---- issue 31: one diagnostic format --------------------------------------------------------

HINT = ". Try 'ttd-lower --help'"


def usage_error(proc) -> str:
    """The message of ``proc``'s usage error, checked to be one line in ttd-lower's diagnostic
    format on stderr (``ttd-lower: error: MESSAGE. Try 'ttd-lower --help'``), exit 2, nothing on
    stdout."""
    assert proc.returncode == cli.EXIT_USAGE and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ttd-lower: error: ") and lines[0].endswith(HINT), proc.stderr
    assert "Error:" not in proc.stderr and "Traceback" not in proc.stderr
    return lines[0][len("ttd-lower: error: "):-len(HINT)]


@pytest.mark.parametrize("word", ["--split-input-fil", "-splt-input-file"])
def test_a_misspelled_option_is_one_diagnostic_line_with_the_near_name(word):
    assert usage_error(run(PUSH, word)) == f"no such option '{word}' (did you mean '--split-input-file'?)"


def test_a_bad_option_value_is_one_diagnostic_line_naming_the_option():
    message = usage_error(run(PUSH, "--core-type-fallback=zz"))
    assert message.startswith("--core-type-fallback: 'zz' is not one of 'none', 'symbol-table'"), message


def test_a_missing_input_file_is_one_diagnostic_line(tmp_path):
    missing = tmp_path / "missing.ttir"
    assert usage_error(run(missing)) == f"cannot read '{missing}': No such file or directory"


def test_an_option_without_its_value_is_one_diagnostic_line():
    assert usage_error(run(PUSH, "-o")) == "option '-o' requires an argument"


def test_an_extra_argument_is_one_diagnostic_line():
    message = usage_error(run(PUSH, PUSH))
    assert message.startswith("got unexpected extra argument") and str(PUSH) in message, message


# ---- item 10: the kernel's Python line --------------------------------------------------------

def test_an_error_names_the_kernels_python_line_from_the_ops_loc(tmp_path):
    """allgather_push's symm_at (``loc(#loc58)``, a name around #loc12 = allgather_push.py:19:22,
    0-based as Triton writes it) made to fail: the note names line 19, column 23."""
    text = ALLGATHER.read_text()
    bad = tmp_path / "allgather_push.ttir"
    bad.write_text(text.replace("distributed.symm_at %symm_buf_ptr, %peer, : !tt.ptr<f32>",
                                "distributed.symm_at %symm_buf_ptr, %peer, : !tt.ptr<f64>"))
    proc = run(bad)
    assert proc.returncode == cli.EXIT_INPUT_ERROR
    assert re.search(rf"^{re.escape(str(bad))}:24:\d+: error: 'distributed.symm_at' op", proc.stderr, re.M)
    assert re.search(r"^/workspace/\S*/allgather_push\.py:19:23: note: in the kernel's Python source$",
                     proc.stderr, re.M), proc.stderr


def test_the_python_note_quotes_the_line_when_the_file_is_there(tmp_path):
    kernel = tmp_path / "my_kernel.py"
    kernel.write_text("import triton\n\n@triton.jit\ndef fetch(src):\n    far = dl.symm_at(src, 0)\n")
    ttir = tmp_path / "fetch.ttir"
    ttir.write_text(BAD.read_text().replace("%far = distributed.symm_at %src, %me, : !tt.ptr<f64>",
                                            "%far = distributed.symm_at %src, %me, : !tt.ptr<f64> loc(#loc9)")
                    + f'#loc9 = loc("{kernel}":5:10)\n')
    proc = run(ttir)
    assert f"{kernel}:5:11: note: in the kernel's Python source\n    far = dl.symm_at(src, 0)\n" \
           f"          ^\n" in proc.stderr, proc.stderr

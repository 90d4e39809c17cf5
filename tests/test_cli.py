"""The ``ttd-lower`` command line: I/O, exit codes, stages, dumps, overrides, printing options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click_compat import cli_runner

from transpiler import cli
from transpiler.pipeline import STAGES

ROOT = Path(__file__).parents[1]
PUSH = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"
PUSH_OUT = ROOT / "examples" / "allgather_push" / "allgather_push.ttadapter.mlir"
BAD = ROOT / "tests" / "corpus" / "distributed" / "cases" / "unsupported_pointee_f64.ttir"
PLAIN = ROOT / "tests" / "corpus" / "ttir" / "triton-3.9" / "vector_add.ttir"


def invoke(*args, input=None, env=None):
    return cli_runner().invoke(cli.main, [str(a) for a in args], input=input, env=env)


def test_stage_names_match_the_table():
    assert tuple(STAGES) == cli.STAGE_NAMES


def test_version_and_help():
    assert "ttd-lower, version" in invoke("--version").output
    help_text = invoke("--help").output
    for option in ("--core-type-fallback", "--split-input-file", "--mlir-print-op-generic", "--strip-debuginfo",
                   "--dump-dir", "--override-dir", "--stop-after", "--pipeline", "--timing", "-o"):
        assert option in help_text


def test_pipeline_prints_the_stage_table():
    result = invoke("--pipeline")
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()] == list(STAGES)


def test_stdout_by_default_and_stdin_dash():
    assert invoke(PUSH).output == PUSH_OUT.read_text()
    assert invoke("-", input=PUSH.read_text()).output == PUSH_OUT.read_text()


def test_output_file(tmp_path):
    out = tmp_path / "out.mlir"
    result = invoke(PUSH, "-o", out)
    assert result.exit_code == 0 and result.output == ""
    assert out.read_text() == PUSH_OUT.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]  # no temporary left behind


def test_error_exit_code_diagnostic_and_no_output(tmp_path):
    out = tmp_path / "out.mlir"
    result = invoke(BAD, "-o", out)
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{BAD}:5:5: error: 'distributed.symm_at' op unsupported type f64")
    assert lines[1] == "    %far = distributed.symm_at %src, %me, : !tt.ptr<f64>"
    assert lines[2] == "    ^"
    assert "Traceback" not in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_existing_output_is_left_as_it_was_on_failure(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("previous result\n")
    assert invoke(BAD, "-o", out).exit_code == cli.EXIT_INPUT_ERROR
    assert out.read_text() == "previous result\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]


def test_usage_errors_exit_2(tmp_path):
    assert invoke(tmp_path / "missing.ttir").exit_code == cli.EXIT_USAGE
    assert invoke(PUSH, "--stop-after", "nope").exit_code == cli.EXIT_USAGE
    assert invoke(PUSH, "--no-such-option").exit_code == cli.EXIT_USAGE



def test_invalid_utf8_is_a_located_input_error(tmp_path):
    binary = tmp_path / "bin.ttir"
    binary.write_bytes(b"module {\n  tt.func @f() {\xff\n")
    result = invoke(binary)
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert f"{binary}:2:17: error: invalid UTF-8: byte 0xff" in result.stderr


def test_internal_error_exit_3_without_traceback(monkeypatch):
    import transpiler.driver as driver

    def boom(request):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(driver, "compile_text", boom)
    result = invoke(PUSH)
    assert result.exit_code == cli.EXIT_INTERNAL
    assert "internal error" in result.output and "report" in result.output
    assert "Traceback" not in result.output and "simulated bug" not in result.output
    debug = invoke(PUSH, "--debug")
    assert debug.exit_code == cli.EXIT_INTERNAL
    assert "Traceback" in debug.stderr and "RuntimeError: simulated bug" in debug.stderr


def test_dump_dir_writes_each_stage(tmp_path):
    dump = tmp_path / "dumps"
    result = invoke("-", "--dump-dir", dump, input=PUSH.read_text())
    assert result.exit_code == 0
    assert sorted(p.name for p in dump.iterdir()) == ["stdin.ttadapter.mlir", "stdin.ttir.mlir"]
    assert (dump / "stdin.ttir.mlir").read_text() == PUSH.read_text()
    assert (dump / "stdin.ttadapter.mlir").read_text() == PUSH_OUT.read_text()


def test_dump_dir_from_environment(tmp_path):
    result = invoke(PUSH, env={"TTD_DUMP_DIR": str(tmp_path)})
    assert result.exit_code == 0
    assert (tmp_path / "allgather_push.ttadapter.mlir").read_text() == PUSH_OUT.read_text()


def test_override_dir_replaces_a_stage_and_says_so(tmp_path):
    replacement = "// hand-edited\n" + PUSH_OUT.read_text()
    (tmp_path / "allgather_push.ttadapter.mlir").write_text(replacement)
    result = invoke(PUSH, "--override-dir", tmp_path)
    assert result.exit_code == 0
    assert "overriding stage 'ttadapter' with file" in result.stderr
    assert result.stdout == replacement


def test_override_dir_from_environment(tmp_path):
    (tmp_path / "stdin.ttir.mlir").write_text(PLAIN.read_text())
    result = invoke("-", env={"TTD_OVERRIDE_DIR": str(tmp_path)}, input=PUSH.read_text())
    assert result.exit_code == 0
    assert "overriding stage 'ttir'" in result.stderr
    assert result.stdout == PLAIN.read_text()  # the lowering ran on the override, which has nothing to lower


def test_stop_after_ttir_does_not_lower():
    result = invoke("-", "--stop-after", "ttir", input=PUSH.read_text())
    assert result.exit_code == 0 and result.output == PUSH.read_text()


def test_input_named_as_a_stage_starts_after_it(tmp_path):
    lowered = tmp_path / "k.ttadapter.mlir"
    lowered.write_text(PUSH_OUT.read_text())
    assert invoke(lowered).output == PUSH_OUT.read_text()
    mislabelled = tmp_path / "m.ttadapter.mlir"
    mislabelled.write_text(PUSH.read_text())
    result = invoke(mislabelled)
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert "named as the output of the last stage" in result.output and "name the file .ttir" in result.output


def test_timing_report_on_stderr():
    result = invoke(PUSH, "--timing")
    assert result.exit_code == 0
    assert result.stdout == PUSH_OUT.read_text()
    assert "Execution time report" in result.stderr
    for name in ("parse", "ttadapter", "print", "Total"):
        assert f"  {name}" in result.stderr


def test_strip_debuginfo():
    result = invoke(PUSH, "--strip-debuginfo")
    assert result.exit_code == 0
    assert "loc(" not in result.output and "#loc" not in result.output
    assert result.output.count("hivm.hir.custom") == 6


def test_strip_debuginfo_keeps_strings():
    text = ('module {\n  tt.func @f() {\n    tt.print " loc(x) " {hex = false, isSigned = array<i32: 0>} loc(#l)\n'
            '    tt.return loc("a.py":1:2)\n  } loc(#l)\n} loc(#l)\n#l = loc("a.py":3:4)\n')
    result = invoke("-", "--strip-debuginfo", input=text)
    assert result.exit_code == 0
    assert result.output == ('module {\n  tt.func @f() {\n    tt.print " loc(x) " {hex = false, isSigned = array<i32: 0>}\n'
                             '    tt.return\n  }\n}\n')


def test_split_input_file_joins_chunks_and_gives_file_lines():
    chunks = ROOT / "tests" / "corpus" / "distributed" / "cases" / "split_markers_as_comments.ttir"
    result = invoke(chunks, "--split-input-file")
    assert result.exit_code == 0
    assert result.output.count("// -----") == 2 and result.output.count("hivm.hir.custom") == 2
    bad = ROOT / "tests" / "corpus" / "distributed" / "cases" / "split_markers_bad_function.ttir"
    result = invoke(bad, "--split-input-file")
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert f"{bad}:9:3: error:" in result.output  # the file's line, as current mlir-opt reports it


def test_real_process_stdin_stdout_and_exit_codes(tmp_path):
    """The installed entry point, as a pipe: stdin to stdout, errors on stderr."""
    run = [sys.executable, "-m", "transpiler"]
    ok = subprocess.run(run + ["-"], input=PUSH.read_text(), capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == PUSH_OUT.read_text() and ok.stderr == ""
    bad = subprocess.run(run + [str(BAD)], capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stdout == "" and ":5:5: error:" in bad.stderr
    assert "\x1b[" not in bad.stderr  # no colour when stderr is not a terminal
    usage = subprocess.run(run + [str(tmp_path / "nope")], capture_output=True, text=True)
    assert usage.returncode == 2


def test_closed_stdin_is_a_usage_error():
    """``ttd-lower - <&-``: no stdin at all is a usage error, not a traceback."""
    run = [sys.executable, "-c", "import os, sys; os.close(0); sys.argv[1:] = ['-']; "
                                 "from transpiler.cli import entry; sys.stdin = None; entry()"]
    closed = subprocess.run(run, capture_output=True, text=True)
    assert closed.returncode == 2, closed.stderr
    assert "stdin is closed" in closed.stderr and "Traceback" not in closed.stderr


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "ttd-lower"
    assert script.exists(), "pip install should have created the ttd-lower console script"
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 0 and "ttd-lower, version" in proc.stdout


def test_verify_diagnostics_reports_missing_and_unexpected(tmp_path):
    source = tmp_path / "v.mlir"
    source.write_text(
        "module {\n  tt.func public @a(%p: !tt.ptr<f64>, %r: i32) {\n"
        "    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>\n    tt.return\n  }\n}\n"
        "// -----\n"
        "module {\n  tt.func public @b(%p: !tt.ptr<f32>, %r: i32) {\n"
        "    // expected-error@+1 {{never produced}}\n"
        "    %x = distributed.symm_at %p, %r, : !tt.ptr<f32>\n    tt.return\n  }\n}\n"
    )
    result = invoke(source, "--split-input-file", "--verify-diagnostics")
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert f"{source}:3:5: error: unexpected error: 'distributed.symm_at' op unsupported type f64" in result.stderr
    assert f"{source}:10:8: error: expected error \"never produced\" was not produced" in result.stderr


def test_verify_diagnostics_success_exits_0(tmp_path):
    source = tmp_path / "v.mlir"
    source.write_text(
        "module {\n  tt.func public @a(%p: !tt.ptr<f64>, %r: i32) {\n"
        "    %x = distributed.symm_at %p, %r, : !tt.ptr<f64> // expected-error {{unsupported type f64}}\n"
        "    tt.return\n  }\n}\n"
    )
    result = invoke(source, "--verify-diagnostics")
    assert result.exit_code == 0, result.stderr


def test_output_to_special_files_and_symlinks(tmp_path):
    """-o writes through a symlink and into devices/FIFOs instead of renaming over them."""
    target = tmp_path / "real.mlir"
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert invoke(PUSH, "-o", link).exit_code == 0
    assert link.is_symlink() and target.read_text() == PUSH_OUT.read_text()
    assert invoke(PUSH, "-o", os.devnull).exit_code == 0
    assert Path(os.devnull).is_char_device()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    assert invoke(PUSH, "-o", fifo).exit_code == 0
    assert reader.communicate(timeout=10)[0] == PUSH_OUT.read_text()
    assert fifo.is_fifo()


def test_unwritable_outputs_are_usage_errors(tmp_path):
    assert invoke(PUSH, "-o", tmp_path / "missing" / "x.mlir").exit_code == cli.EXIT_USAGE
    (tmp_path / "file").write_text("")
    assert invoke(PUSH, "--dump-dir", tmp_path / "file" / "sub").exit_code == cli.EXIT_USAGE
    assert invoke(PUSH, "--symbol-list", tmp_path / "nope.txt").exit_code == cli.EXIT_USAGE


def test_crlf_input_keeps_crlf(tmp_path):
    crlf = tmp_path / "k.ttir"
    crlf.write_bytes(PUSH.read_bytes().replace(b"\n", b"\r\n"))
    out = tmp_path / "k.mlir"
    assert invoke(crlf, "-o", out).exit_code == 0
    data = out.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert data.replace(b"\r\n", b"\n") == PUSH_OUT.read_bytes()


def test_trailing_comment_of_a_lowered_op_is_kept():
    text = ("module {\n  tt.func @f(%c: i32) {\n    %r = distributed.get_rank %c : i32 // which PE am I\n"
            "    tt.return\n  }\n}\n")
    out = invoke("-", input=text).stdout
    assert '"dist.aclshmem_my_pe" -> i32 // which PE am I\n' in out


def test_unknown_distributed_op_is_an_error():
    text = "module {\n  tt.func @f(%c: i32) {\n    %r = distributed.frobnicate %c : i32\n    tt.return\n  }\n}\n"
    result = invoke("-", input=text)
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert "<stdin>:3:5: error: 'distributed.frobnicate' op is not an op of the distributed dialect" in result.stderr


def test_override_of_the_last_stage_must_be_lowered(tmp_path):
    (tmp_path / "allgather_push.ttadapter.mlir").write_text(PUSH.read_text())
    result = invoke(PUSH, "--override-dir", tmp_path)
    assert result.exit_code == cli.EXIT_INPUT_ERROR
    assert "comes from the override file for stage 'ttadapter'" in result.stderr


def test_split_chunks_dump_to_their_own_files(tmp_path):
    chunks = ROOT / "tests" / "corpus" / "distributed" / "cases" / "split_markers_as_comments.ttir"
    assert invoke(chunks, "--split-input-file", "--dump-dir", tmp_path).exit_code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(f"split_markers_as_comments.split{n}.{stage}.mlir" for n in (1, 2, 3)
                           for stage in ("ttadapter", "ttir"))


def test_dump_dir_holds_the_parsed_input_but_never_overwrites_the_input(tmp_path):
    kernel = tmp_path / "k.ttir"
    kernel.write_text(PUSH.read_text())
    assert invoke(kernel, "--dump-dir", tmp_path / "d").exit_code == 0
    assert (tmp_path / "d" / "k.ttir.mlir").read_text() == PUSH.read_text()  # the walk starts after ttir
    assert (tmp_path / "d" / "k.ttadapter.mlir").read_text() == PUSH_OUT.read_text()
    lowered = tmp_path / "l.ttadapter.mlir"
    lowered.write_text(PUSH_OUT.read_text())
    assert invoke(lowered, "--dump-dir", tmp_path, "--strip-debuginfo").exit_code == 0
    assert lowered.read_text() == PUSH_OUT.read_text()

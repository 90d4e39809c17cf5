"""mlir-opt habits: argument spellings, help, split files, and the diagnostic verifier's rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from transpiler import cli
from transpiler.api import LoweringError, lower
from transpiler.cli import sim as sim_cli
from transpiler.cli.help import GROUPS
from transpiler.cli.options import normalize_args
from transpiler.diagnostics import ERROR, NOTE, Diagnostic, Note
from transpiler.ir.core import Source
from transpiler.split import join_outputs, near_misses, split_input
from transpiler.verify_diagnostics import check, expectations
from shared_corpus import EXTERNAL

ROOT = Path(__file__).parents[1]


def test_single_dash_long_options_and_implicit_values():
    args = normalize_args(cli.main, ["-split-input-file", "k.mlir", "-verify-diagnostics", "-o", "-", "-dump-dir", "d"])
    assert args == ["--split-input-file=// -----", "k.mlir", "--verify-diagnostics=all", "-o", "-", "--dump-dir", "d"]
    assert normalize_args(cli.main, ["-split-input-file=//==", "--verify-diagnostics=only-expected"]) == [
        "--split-input-file=//==", "--verify-diagnostics=only-expected"]
    # an option's value and everything after `--` are left alone
    assert normalize_args(cli.main, ["--symbol-list", "-split-input-file", "-"]) == [
        "--symbol-list", "-split-input-file", "-"]
    assert normalize_args(cli.main, ["--", "-split-input-file"]) == ["--", "-split-input-file"]
    assert normalize_args(cli.main, ["-o=out.mlir", "k.mlir"]) == ["-o", "out.mlir", "k.mlir"]


@pytest.mark.parametrize("command, tool, word, near", [(cli.main, "ttd-lower", "-splt-input-file", "--split-input-file"),
                                                        (sim_cli.main, "ttd-sim", "-rank=2", "--ranks"),
                                                        (sim_cli.main, "ttd-sim", "-chek-lowering", "--check-lowering")])
def test_a_misspelled_single_dash_option_is_named_with_near_names(command, tool, word, near):
    """Both commands: a single-dash word that is no option is refused as written (not read as a
    short option and its value), with the long options near it, in one line of the command's
    diagnostic format (whatever click's version words); exit 2."""
    result = CliRunner().invoke(command, [word, "k.ttir"])
    assert result.exit_code == 2
    assert result.output == (f"{tool}: error: no such option '{word.partition('=')[0]}' (did you mean '{near}'?). "
                             f"Try '{tool} --help'\n")


@pytest.mark.parametrize("args", [["-ranks=2"], ["-ranks", "2"], ["--ranks=2"], ["--ranks", "2"]])
def test_ttd_sim_reads_options_as_mlir_opt_does(args, tmp_path):
    """ttd-sim takes the spellings ttd-lower takes (single or double dash, `=` or a separate
    value), and -o writes the report to a file."""
    kernel = Path(__file__).resolve().parents[1] / "examples" / "allgather_push" / "allgather_push.ttir"
    out = tmp_path / "report.txt"
    result = CliRunner().invoke(sim_cli.main, [str(kernel), *args, "-arg", "local_ptr=rank(256)",
                                               "-arg=symm_buf_ptr=zeros(512)", "--arg", "signal_ptr=zeros(64)",
                                               "--arg", "out_ptr=zeros(512)", "--arg", "n_per_rank=256",
                                               "--arg", "epoch=1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == "" and out.read_text().startswith("ttd-sim: 2 ranks, 1 step")


def test_both_commands_print_help_alike():
    """The same layout (OVERVIEW, USAGE, OPTIONS by group, Generic Options last), no SPEC.md."""
    for command in (cli.main, sim_cli.main):
        text = CliRunner().invoke(command, ["--help"]).output
        heads = [line for line in text.splitlines() if line and not line.startswith(" ")]
        assert heads[0].startswith("OVERVIEW: ") and any(h.startswith("USAGE: ") for h in heads)
        assert heads[-1] == "Generic Options:" and "SPEC.md" not in text
        assert "  -o <filename> (also --output)" in text


def test_pipeline_listing_cites_no_document_the_wheel_lacks():
    """``--pipeline`` says what each stage does in its own words: an installed wheel has no
    SPEC.md to look a section up in (issue 31, item 7)."""
    result = CliRunner().invoke(cli.main, ["--pipeline"])
    assert result.exit_code == 0 and "ttadapter" in result.output
    assert "SPEC" not in result.output and "section" not in result.output, result.output


def test_help_lists_every_option_in_its_group():
    text = CliRunner().invoke(cli.main, ["--help"]).output
    positions = [text.index(f"\n{group}:\n") for group in GROUPS]
    assert positions == sorted(positions), "groups in the order of GROUPS"
    generic = text[text.index("\nGeneric Options:\n"):]
    assert "  --help (also -h)" in generic and "  --version" in generic
    assert text.index("  -o <filename>") < text.index("\nLowering options:")
    for param in cli.main.params:
        for name in getattr(param, "opts", []):
            if name.startswith("-"):
                assert name in text, name


def test_a_split_file_is_the_chunks_compiled_one_by_one(tmp_path):
    """The output of --split-input-file is each chunk's own result (nothing for a bad chunk)
    joined by the marker lines: checked on every external lit file that has chunks."""
    files = sorted(p for p in EXTERNAL.rglob("*.mlir") if "// -----" in p.read_text()) if EXTERNAL.exists() else []
    if not files:
        pytest.skip("../shared/corpus/external is not next to the repository")
    for path in files:
        text = path.read_text()
        chunks = split_input(text)
        outputs = []
        for chunk in chunks:
            try:
                outputs.append(lower(chunk.text, filename=str(path), split_line=chunk.start_line, link_check=False))
            except LoweringError:
                outputs.append("")
        result = CliRunner().invoke(cli.main, [str(path), "--split-input-file", "--no-link-check"])
        if all(outputs) and "distributed." not in text:
            assert result.stdout == text, path  # nothing to lower: byte-identical
        assert result.stdout == join_outputs(chunks, outputs), path
        assert result.exit_code == (0 if all(outputs) else cli.EXIT_INPUT_ERROR), path


def test_chunks_keep_their_markers_and_lines():
    text = "a\n// ----- one\nb\nc\n  // -----\nd"
    chunks = split_input(text)
    assert [(c.text, c.start_line, c.marker) for c in chunks] == [
        ("a\n", 1, "// ----- one\n"), ("b\nc\n", 3, "  // -----\n"), ("d", 6, "")]
    assert join_outputs(chunks, [c.text for c in chunks]) == text
    assert join_outputs(chunks, ["A\n", "", "D\n"], "// ===") == "A\n// ===\n// ===\nD\n"
    assert near_misses("// ---\n// -----\n// ----\n") == [0, 16]
    assert near_misses("// x\n", "// ==") == []


def test_split_line_gives_file_lines_through_the_api():
    bad = "module {\n  tt.func @f(%p: !tt.ptr<f64>, %r: i32) {\n    %x = distributed.symm_at %p, %r, : !tt.ptr<f64>\n" \
          "    tt.return\n  }\n}\n"
    with pytest.raises(LoweringError) as e:
        lower(bad, filename="k.mlir", split_line=40)
    assert e.value.diagnostics[0].location_text() == "k.mlir:42:5"
    ok = bad.replace("f64", "f32")
    assert not lower(ok, filename="k.mlir", split_line=40).startswith("\n")


def _diag(source: Source, line: int, message: str, severity: str = ERROR) -> Diagnostic:
    """A diagnostic at the start of ``line`` of ``source``."""
    starts = [0] + [i + 1 for i, ch in enumerate(source.text) if ch == "\n"]
    return Diagnostic(severity, message, source, starts[line - 1])


def test_one_designator_matches_every_identical_diagnostic_of_its_line():
    source = Source("x // expected-error {{boom}}\n", "f.mlir")
    assert check(source, [_diag(source, 1, "boom"), _diag(source, 1, "boom again")]) == []


def test_designator_lines_and_dangling_below():
    text = "a\n// expected-error@above {{A}}\n// expected-note@below {{B}}\n// expected-remark@+3 {{C}}\n" \
           "b\n// expected-warning@unknown {{D}}\n// expected-error@below {{E}}"
    found, problems = expectations(Source(text, "f.mlir"))
    assert problems == []
    assert [(e.kind, e.line) for e in found] == [("error", 1), ("note", 5), ("remark", 7), ("warning", None),
                                                  ("error", 7)]


def test_notes_are_checked_only_when_expected_and_unknown_locations_match_at_unknown():
    source = Source("x\n// expected-error@-1 {{boom}}\n// expected-error@unknown {{lost}}\n", "f.mlir")
    noted = _diag(source, 1, "boom")
    noted.notes.append(Note("in @f, defined here", source, 0))
    assert check(source, [noted, Diagnostic(ERROR, "lost somewhere", None, None),
                          Diagnostic(NOTE, "too many errors", None, None)]) == []
    problems = check(source, [noted])
    assert [p.message for p in problems] == ['expected error "lost" was not produced']


def test_a_diagnostic_of_another_file_is_unexpected():
    source = Source("x // expected-error {{boom}}\n", "f.mlir")
    other = Source("x\n", "override.mlir")
    problems = check(source, [Diagnostic(ERROR, "boom", other, 0)])
    assert [p.message for p in problems] == ["unexpected error: boom", 'expected error "boom" was not produced']

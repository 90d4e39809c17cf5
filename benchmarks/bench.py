#!/usr/bin/env python3
"""Speed of ttd-lower against the C++ MLIR tool, measured side by side in one run.

    python benchmarks/bench.py [--corpus ../shared/corpus] [--runs 5] [--json out.json]

Its own input, ``generated.ttir`` (~40k lines), is made from the repository's kernels by
``benchmarks/make_input.py``, so the benchmark runs from a clone.  When the project's shared
corpus is there (``--corpus``), ``bench/big.ttir`` (~47k lines), ``bench/big.noloc.ttir`` and
three typical distributed kernels are measured too; ``big.compat.ttir`` stays the reference
figure.  For each file it measures

* ``ttd-lower FILE -o /dev/null`` as a whole process (wall time, peak RSS),
* the parse, lower (``ttadapter`` stage) and print stages in process,
* ``triton-adapter-opt FILE -o /dev/null`` on the same content, as the C++ baseline,

and prints lines/s and the ratio ours / C++.  Then it checks that time grows linearly with the
input (1x, 2x, 4x copies of the big file), and reports what the protocol lint (issue 17) costs:
the in-process run with it against the run without it (``--no-lint``), on
``bench/big.compat.ttir`` (target: at most 10 % more; it has no distributed op), on that file
with the distributed kernels appended, and on the kernels themselves (``--lint-cost`` runs that
part alone).  "lint alone" times the lint on a freshly parsed module: on small kernels it
overstates, because the op details it parses are then reused by the lowering.

triton-adapter-opt 3.2.0 predates some Triton 3.9 ops (``tt.atomic_store``, tensor
descriptors, ``ttg`` ops, ``llvm.intr.assume``), so the big files are first reduced to the
functions it reads (``<name>.compat.ttir``, written next to the results); both tools are timed
on that same file, and ttd-lower also on the full file.  Distributed kernels are given to the
C++ tool with their ``distributed.*`` ops in generic form (it has no such dialect).  Without
``triton-adapter-opt`` (``tests/tools/verify-downstream --install`` gets it) the baseline is
skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

KERNELS = ["distributed/allgather_push.ttir", "distributed/reduce_scatter.ttir", "distributed/gemm_reduce_scatter.ttir"]
LINT_KERNELS = KERNELS + ["distributed/multi_dtype.ttir", "distributed/allreduce_oneshot.ttir"]
# what triton-adapter-opt 3.2.0 cannot read (see tests/tools/README.verify-downstream.md)
UNREADABLE = re.compile(r"tt\.atomic_store|tt\.atomic_load|tt\.atomic_poll|ttg\.|llvm\.intr\.assume|!tt\.tensordesc"
                        r"|#tt\.|tt\.descriptor_|tt\.make_tensor_descriptor|!tt\.ptr<[^>]*, \"")


def find_tao():
    """The ``triton-adapter-opt`` to measure against ($TRITON_ADAPTER_OPT, the cache, PATH), or None."""
    explicit = os.environ.get("TRITON_ADAPTER_OPT")
    if explicit and Path(explicit).exists():
        return explicit
    import runpy

    tool = runpy.run_path(str(ROOT / "tests" / "tools" / "verify-downstream"), run_name="verify_downstream")
    candidate = Path(tool["cache_dir"]()) / "bin" / "triton-adapter-opt"
    if candidate.exists():
        return str(candidate)
    return shutil.which("triton-adapter-opt")


def run_process(cmd, runs):
    """Median wall time (s) of ``cmd`` over ``runs`` runs.

    Raises:
        RuntimeError: the command failed.
    """
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr[:2000]}")
    return statistics.median(times)


def peak_rss_mb(cmd):
    """Peak resident memory of one run of ``cmd`` (MB), read by GNU time when it exists."""
    gnu_time = shutil.which("time") or "/usr/bin/time"
    if not Path(gnu_time).exists():
        return None
    proc = subprocess.run([gnu_time, "-f", "%M", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        return int(proc.stderr.strip().splitlines()[-1]) / 1024
    except (ValueError, IndexError):
        return None


def stages_in_process(path, runs):
    """Best-of-``runs`` seconds of parse, ttadapter, print (in this process, grammar loaded)."""
    from transpiler.driver import Request, compile_text

    text = path.read_text()
    compile_text(Request(text, str(path)))  # warm: grammar tables and caches loaded
    best = {}
    for _ in range(runs):
        result = compile_text(Request(text, str(path)))
        for t in result.timings:
            best[t.name] = min(best.get(t.name, 1e9), t.seconds)
    return best


def compat_copy(path: Path, out_dir: Path, tao) -> Path:
    """``path`` without the functions triton-adapter-opt 3.2.0 cannot read (checked with it)."""
    from transpiler.parser import parse_module

    text = path.read_text()
    module = parse_module(text, str(path))
    drop = []
    for op in module.walk():
        if op.name == "tt.func" and UNREADABLE.search(text, op.span[0], op.span[1]):
            drop.append(op.span)
    out = []
    pos = 0
    for start, end in sorted(drop):
        line_start = text.rfind("\n", 0, start) + 1
        out.append(text[pos:line_start])
        pos = text.find("\n", end) + 1
    out.append(text[pos:])
    target = out_dir / f"{path.stem}.compat.ttir"
    target.write_text("".join(out))
    if tao:
        proc = subprocess.run([tao, str(target), "-o", os.devnull], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"the reduced file still fails in triton-adapter-opt:\n{proc.stderr[:2000]}")
    return target


def generic_distributed(path: Path, out_dir: Path) -> Path:
    """A copy whose distributed ops are in generic form (readable by triton-adapter-opt)."""
    from transpiler.emit.printer import generic_pieces, results_prefix, value_name
    from transpiler.parser import parse_module

    text = path.read_text()
    module = parse_module(text, str(path))
    out, pos = [], 0
    for op in sorted((o for o in module.walk() if o.name.startswith("distributed.")), key=lambda o: o.span[0]):
        out.append(text[pos : op.span[0]])
        out.append(results_prefix(op.results) + "".join(generic_pieces(op, value_name))
                   + (" " + op.location if op.location else ""))
        pos = op.span[1]
    out.append(text[pos:])
    target = out_dir / f"{path.stem}.generic.ttir"
    target.write_text("".join(out))
    return target


def lines(path: Path) -> int:
    """The number of lines of ``path``."""
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def main() -> int:
    """Measure, print the table and the linearity check; 0 on success."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lines", type=int, default=40000, help="size of the generated input (lines)")
    parser.add_argument("--json", help="also write the results as JSON")
    parser.add_argument("--work-dir", help="where the compat copies go (default: a temporary folder)")
    parser.add_argument("--lint-cost", action="store_true", help="only measure what the protocol lint costs")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    if args.lint_cost:
        lint_cost(corpus, max(args.runs, 15))
        return 0
    big = [corpus / "bench" / "big.ttir", corpus / "bench" / "big.noloc.ttir"]
    missing = [p for p in big + [corpus / k for k in KERNELS] if not p.exists()]
    if missing:
        print(f"shared corpus not found ({missing[0]}): only the generated input is measured", file=sys.stderr)
    tao = find_tao()
    if tao is None:
        print("triton-adapter-opt not found: the C++ baseline is skipped "
              "(python tests/tools/verify-downstream --install gets it)", file=sys.stderr)
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="ttd-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    ttd = [sys.executable, "-m", "transpiler"]

    from make_input import generate

    generated = work / "generated.ttir"
    generated.write_text(generate(args.lines, tao=tao), encoding="utf-8")
    rows = []
    cases = [(generated.name, generated, generic_distributed(generated, work))]
    if not missing:
        for path in big:
            compat = compat_copy(path, work, tao)
            cases.append((path.name, path, None))
            cases.append((compat.name, compat, compat))
        for kernel in KERNELS:
            path = corpus / kernel
            cases.append((path.name, path, generic_distributed(path, work)))
    linear_input = generated if missing else big[1]

    for name, path, baseline_file in cases:
        n = lines(path)
        ours = run_process(ttd + [str(path), "-o", os.devnull], args.runs)
        peak = peak_rss_mb(ttd + [str(path), "-o", os.devnull])
        stage = stages_in_process(path, args.runs)
        row = {"file": name, "lines": n, "ttd_lower_s": ours, "ttd_lines_per_s": n / ours, "peak_mb": peak,
               "parse_s": stage.get("parse"), "lower_s": stage.get("ttadapter", 0.0) + stage.get("ttir", 0.0),
               "print_s": stage.get("print")}
        if tao and baseline_file is not None:
            cpp = run_process([tao, str(baseline_file), "--allow-unregistered-dialect", "-o", os.devnull], args.runs)
            row.update({"cpp_s": cpp, "cpp_lines_per_s": n / cpp, "ratio": ours / cpp})
        rows.append(row)

    print(f"\nttd-lower vs triton-adapter-opt, median of {args.runs} runs (wall time, whole process)\n")
    print("| file | lines | ttd-lower s | lines/s | C++ s | C++ lines/s | ours / C++ | peak MB | parse s | lower s | print s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        cpp = f"{r['cpp_s']:.3f} | {r['cpp_lines_per_s']:,.0f} | {r['ratio']:.2f}x" if "cpp_s" in r else "- | - | -"
        peak = f"{r['peak_mb']:.0f}" if r["peak_mb"] else "-"
        print(f"| {r['file']} | {r['lines']:,} | {r['ttd_lower_s']:.3f} | {r['ttd_lines_per_s']:,.0f} | {cpp} | {peak} "
              f"| {r['parse_s']:.3f} | {r['lower_s']:.3f} | {r['print_s']:.4f} |")

    # linearity: 1x, 2x, 4x copies of the loc-free big file, in process (parse + lower + print)
    from transpiler.driver import Request, compile_text

    text = linear_input.read_text()
    per_line = []
    print(f"\nlinearity of {linear_input.name} (in process, parse + lower + print, best of 3):")
    for k in (1, 2, 4):
        t = min(_timed(compile_text, Request(copies(text, k), "big.ttir")) for _ in range(3))
        per_line.append(t / (lines(linear_input) * k))
        print(f"  {k}x: {lines(linear_input) * k:>7,} lines  {t:.3f} s  {1e6 * per_line[-1]:.2f} us/line")
    growth = per_line[-1] / per_line[0]
    print(f"  time per line at 4x / at 1x: {growth:.2f} (1.00 is linear)")
    lint = lint_cost(corpus, max(args.runs, 15))
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "per_line_growth_4x": growth, "lint_cost": lint}, indent=2))
    return 0


def lint_cost(corpus: Path, runs: int) -> dict:
    """What the protocol lint adds to a whole in-process run (parse, stages, print): best of
    ``runs`` runs with and without it, taken in turns so that both see the same machine load."""
    from transpiler.analysis import lint_module
    from transpiler.driver import Request, compile_text
    from transpiler.parser import parse_module
    from transpiler.pipeline import Options

    big = corpus / "bench" / "big.compat.ttir"
    kernels = [corpus / k for k in LINT_KERNELS]
    inputs = [(p.name, p) for p in [big] + kernels]
    if big.exists() and all(k.exists() for k in kernels):  # the big module with distributed kernels in it
        inputs.insert(1, ("big.compat + kernels", with_kernels(big.read_text(), [k.read_text() for k in kernels])))
    print(f"\nprotocol lint cost (in process, parse + lint + lower + print, best of {runs}, without -> with; "
          f"and the lint alone on the parsed module, as a share of the run without it):")
    out = {}
    for name, path in inputs:
        if isinstance(path, Path) and not path.exists():
            print(f"  {name}: missing, skipped")
            continue
        text = path.read_text() if isinstance(path, Path) else path
        best = {True: 1e9, False: 1e9}
        for _ in range(runs):
            for lint in (False, True):
                best[lint] = min(best[lint], _timed(compile_text, Request(text, "bench.ttir", Options(lint=lint))))
        alone = 1e9
        for _ in range(runs):
            module = parse_module(text, "bench.ttir")
            alone = min(alone, _timed(lint_module, module))
        extra = 100 * (best[True] / best[False] - 1)
        share = 100 * alone / best[False]
        out[name] = {"with_s": best[True], "without_s": best[False], "extra_percent": extra, "lint_alone_s": alone,
                     "lint_alone_percent": share}
        target = "  (target: at most +10 %)" if name == "big.compat.ttir" else ""
        print(f"  {name:<26} {best[False]:.4f} s -> {best[True]:.4f} s  {extra:+5.1f} %   lint alone "
              f"{1000 * alone:7.3f} ms = {share:4.1f} %{target}")
    return out


def with_kernels(text: str, kernels) -> str:
    """``text`` followed by each kernel module, its aliases renamed apart (``#loc1`` -> ``#loc1_k2``)."""
    out = [text]
    for j, kernel in enumerate(kernels):
        names = re.findall(r"^([#!][\w$.\-]+)[ \t]*=", kernel, re.M)
        if names:
            use = re.compile(r"(?<![\w$.\-])(" + "|".join(map(re.escape, sorted(set(names), key=len, reverse=True)))
                             + r")(?![\w$.\-])")
            kernel = use.sub(lambda m: f"{m.group(1)}_k{j}", kernel)
        out.append(kernel)
    return "\n".join(out)


def copies(text: str, k: int) -> str:
    """``k`` copies of a file one after the other, with the aliases of copy ``j > 0`` renamed
    (``#loc1`` -> ``#loc1_c1``) so that the result is one valid file, not a redefinition."""
    from make_input import rename_aliases

    return "".join(text if j == 0 else rename_aliases(text, f"_c{j}") for j in range(k))


def _timed(fn, request):
    t0 = time.perf_counter()
    fn(request)
    return time.perf_counter() - t0


if __name__ == "__main__":
    sys.exit(main())

"""Carry a lowered module through the real ``bishengir-compile`` (issue 32), up to ``hivmc``.

Steps for one lowered module (TTIR plus ``hivm.hir.custom``):

1. stand-in: each scalar ``hivm.hir.custom`` becomes an impure ``tt.extern_elementwise`` named
   ``__ttd_custom_N`` (N: the op's index; the op is remembered).  triton-adapter-opt 3.2.0 leaves
   it in place and converts everything around it.  A pointer operand is passed as a scalar
   ``tt.load`` of it, which the adapter turns into ``memref.load`` of a ``memref.reinterpret_cast``:
   that memref is the converted operand.  A pointer result is ``tt.addptr BASE, %stand_in`` with
   BASE the op's first pointer operand, so every access through it becomes a reinterpret_cast
   of BASE's memref whose offset depends on the stand-in;
2. ``triton-adapter-opt`` with triton-ascend 3.2.0's TTIR -> Linalg pass list (:data:`ADAPTER_PASSES`,
   the A2/A3 defaults of its ``compiler.py``: ``ttir_to_linalg(..., named_ops=True)``);
3. restore: each stand-in becomes the remembered custom op (its attributes and name) on the
   converted operands; a pointer result is a ``memref`` of BASE's type, and the casts that
   depended on the stand-in read from it (the stand-in's offset becomes 0);
4. ``bishengir-compile --target=... --save-temps=DIR`` with the A2/A3 options of triton-ascend;
5. the ``aclshmem*`` calls of ``DIR/module.hivm.opt.mlir`` against the symbols the lowering named.

A tensor of pointers (tensor ``consume_token``) is carried as the scalar pointer it is splat
from, its result as ``tt.addptr`` of a splat stand-in offset; the ``annotation.mark
{ContinuousMemAccess}`` that follows it (which the 3.2.0 adapter cannot legalize) is left out of
the adapter's input and put back on the restored op's memref.  Ops on tensors of values are
reported as the stand-in's limit.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

sys.path.insert(0, str(Path(__file__).parent))
from bisheng_restore import STAND_IN, StandInError, _is_ptr, restore  # noqa: E402  (step 3)

_VD = runpy.run_path(str(Path(__file__).with_name("verify-downstream")), run_name="verify_downstream")

#: triton-ascend 3.2.0 ``compiler.py`` ``ttir_to_linalg`` with the A2/A3 option defaults.
ADAPTER_PASSES = [
    "--discrete-mask-access-conversion=compile-on-910-95=False force-simt-template=False",
    "--triton-to-annotation",
    "--triton-to-unstructure=compile-on-910-95=False force-simt-template=False",
    "--triton-to-hivm", "--triton-to-hfusion", "--triton-to-llvm", "--bubble-up-operation",
    "--triton-to-linalg=global-kernel=false named-ops=True enable-nd2nz-on-vector=False "
    "enable-select-analysis=False compile-on-910-95=False",
]
#: ``linalg_to_bin_enable_npu_compile_A2_A3`` (multibuffer and auto-bind-sub-block default True).
COMPILE_OPTIONS = ["--enable-hfusion-compile=true", "--enable-hivm-compile=true",
                   "--enable-triton-kernel-compile=true", "--enable-auto-multi-buffer=True",
                   "--enable-auto-bind-sub-block=True"]
HIVMC_MISSING = "Cannot find hivmc"
_SYMBOL = re.compile(r'symbol\s*=\s*"([^"]+)"')
# a mix (cube and vector) kernel calls the split copies: @aclshmem_ptr_half.cube
_CALL = re.compile(r"(?:func\.)?call @(?:_mlir_ciface_)?(aclshmem\w*)(?:\.(?:cube|vector))?\(([^)]*)\)\s*:\s*\((.*?)\)\s*->")


@dataclass
class Result:
    """How far one module got: ``stage`` is ``stand-in``, ``adapter``, ``restore``, ``compile``
    (the first real error is ``error``), ``hivmc`` (the expected end without CANN) or ``binary``
    (with ``hivmc`` on PATH)."""
    stage: str
    error: str = ""
    symbols: List[str] = field(default_factory=list)
    calls: List[tuple] = field(default_factory=list)  #: (symbol, [operand types]) per call
    expected: List[tuple] = field(default_factory=list)  #: (symbol, [operand types]) per custom op
    seconds: float = 0.0

    @property
    def missing(self) -> List[str]:
        """Symbols the lowering named that arrive as no call in module.hivm.opt.mlir."""
        called = {c[0] for c in self.calls}
        return [s for s in self.symbols if s not in called]

    @property
    def misordered(self) -> List[str]:
        """Custom ops whose symbol is called, but by no call with their operands in order (a
        pointer operand must arrive as a memref of its element type, a scalar as itself)."""
        def fits(want, got):
            return len(want) == len(got) and all(
                (_pointee(w) is not None and g.startswith("memref<") and f"x{_pointee(w)}" in g) or w == g
                for w, g in zip(want, got))
        return [s for s, want in self.expected
                if s not in self.missing and not any(c == s and fits(want, got) for c, got in self.calls)]


def _pointee(t: str):
    m = re.search(r"!tt\.ptr<([^>]+)>", t)
    return m.group(1) if m else None


_TT_DEF = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*(tt\.(?:addptr|splat|broadcast|expand_dims)|tensor\.empty)\b\s*(%[\w.$#-]+)?")


def _scalar_base(value: str, defs) -> str:
    """The scalar pointer a tensor of pointers is made from (through addptr/broadcast/expand_dims
    down to its tt.splat)."""
    while value in defs:
        kind, src = defs[value]
        if kind == "tt.splat":
            return src
        value = src
    raise StandInError(f"{value}: a tensor of pointers not made by tt.splat of a pointer")


def stand_in(text: str):
    """Step 1: the module with each custom op replaced by its stand-in, and the parsed ops."""
    out, ops, marks, lines = [], [], {}, text.splitlines()
    defs = {m.group(1): (m.group(2), m.group(3)) for m in map(_TT_DEF.match, lines) if m}
    for lineno, line in enumerate(lines, 1):
        mark = re.match(r"^\s*annotation\.mark (%[\w.$-]+) \{ContinuousMemAccess\}", line)
        if mark and mark.group(1) in marks:  # carried around the adapter, back in restore()
            ops[marks[mark.group(1)]].mark = True
            continue
        if not _VD["HEAD_RE"].match(line):
            out.append(line)
            continue
        op = _VD["parse_custom_line"](line, lineno, len(ops))
        if len(op.rtypes) > 1 or any("tensor<" in t and not _is_ptr(t) for t in op.types + op.rtypes):
            raise StandInError(f"line {lineno}: {op.label()} has a tensor of values or several results")
        ops.append(op)
        op.mark, op.ins = False, [(n, t) for kw, ns, ts, _ in op.groups if kw == "ins" for n, t in zip(ns, ts)] \
            if op.groups else list(zip(op.ops, op.types))
        op.types = [t for _, t in op.ins]
        marks[op.res] = op.idx
        args, types, pad = [], [], op.indent
        for k, (name, ty) in enumerate(op.ins):
            if _is_ptr(ty):
                if "tensor<" in ty:
                    name = _scalar_base(name, defs)
                out.append(f"{pad}%ttd_l{op.idx}_{k} = tt.load {name} : !tt.ptr<{_pointee(ty)}>")
                name, ty = f"%ttd_l{op.idx}_{k}", _pointee(ty)
            args.append(name)
            types.append(ty)
        rtype = op.rtypes[0] if op.rtypes and not _is_ptr(op.rtypes[0]) else "i32"
        res = op.res if op.rtypes and not _is_ptr(op.rtypes[0]) else f"%ttd_s{op.idx}"
        out.append(f'{pad}{res} = tt.extern_elementwise {", ".join(args)} {{libname = "", libpath = "", '
                   f'pure = false, symbol = "{STAND_IN}{op.idx}"}} : ({", ".join(types)}) -> {rtype}')
        if op.rtypes and _is_ptr(op.rtypes[0]):
            base = next((n for n, t in op.ins if _is_ptr(t)), None)
            if base is None:
                raise StandInError(f"line {lineno}: {op.label()} returns a pointer but has no pointer operand")
            offset, otype = f"%ttd_s{op.idx}", "i32"
            if "tensor<" in op.rtypes[0]:
                otype = re.sub(r"!tt\.ptr<[^>]+>", "i32", op.rtypes[0])
                out.append(f"{pad}%ttd_t{op.idx} = tt.splat %ttd_s{op.idx} : i32 -> {otype}")
                offset = f"%ttd_t{op.idx}"
            out.append(f"{pad}{op.res} = tt.addptr {base}, {offset} : {op.rtypes[0]}, {otype}")
    used = "\n".join(out)
    out = [l for l in out if not ((m := _TT_DEF.match(l)) and m.group(2) == "tensor.empty"
                                  and len(re.findall(re.escape(m.group(1)) + r"(?![\w.$-])", used)) == 1)]
    return "\n".join(out) + "\n", ops


_KERNEL = re.compile(r"^([ \t]*)tt\.func public @")


def split_kernels(text: str) -> List[str]:
    """One module text per public ``tt.func`` (the others' lines left out, the rest kept), for a
    module that holds several: ``bishengir-compile`` compiles one entry kernel (``hacc.entry``)
    per module.  A module with at most one public function is returned as it is."""
    lines = text.splitlines(keepends=True)
    spans = []
    for i, line in enumerate(lines):
        m = _KERNEL.match(line)
        if m:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == m.group(1) + "}"), len(lines) - 1)
            spans.append((i, end + 1))
    if len(spans) < 2:
        return [text]
    return ["".join(l for j, l in enumerate(lines) if not any(a <= j < b for a, b in spans if (a, b) != keep))
            for keep in spans]


def check(text: str, tao: str, compiler: str, target: str = "Ascend910B3", keep: Optional[Path] = None,
          timeout: int = 600) -> Result:
    """Steps 1-5 on one lowered module; ``tao``/``compiler``: the two binaries' paths.  A module
    of several public kernels is checked kernel by kernel (:func:`split_kernels`, each in
    ``keep/kernelN``): the first that stops early gives the stage and error, the symbols, calls
    and expected calls are all the kernels'."""
    kernels = split_kernels(text)
    if len(kernels) > 1:
        results = [check(k, tao, compiler, target, None if keep is None else keep / f"kernel{i}", timeout)
                   for i, k in enumerate(kernels)]
        bad = next((r for r in results if r.stage != "hivmc"), results[0])
        return Result(bad.stage, bad.error, [s for r in results for s in r.symbols],
                      [c for r in results for c in r.calls], [e for r in results for e in r.expected],
                      sum(r.seconds for r in results))
    start = time.monotonic()
    symbols = _SYMBOL.findall("\n".join(l for l in text.splitlines() if _VD["HEAD_RE"].match(l)))
    try:
        standin, ops = stand_in(text)
    except StandInError as e:
        return Result("stand-in", str(e), symbols)
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="ttd-bisheng-") as tmp:
            return _run(standin, ops, symbols, tao, compiler, target, Path(tmp), timeout, start)
    keep.mkdir(parents=True, exist_ok=True)
    return _run(standin, ops, symbols, tao, compiler, target, keep, timeout, start)


def _run(standin, ops, symbols, tao, compiler, target, work: Path, timeout, start) -> Result:
    """Steps 2-5 in ``work``."""
    (work / "1.standin.mlir").write_text(standin)
    for _attempt in range(3):  # triton-adapter-opt 3.2.0 now and then crashes on an input it converts
        proc = subprocess.run([tao, str(work / "1.standin.mlir"), *ADAPTER_PASSES, "--mlir-print-op-generic"],
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode >= 0 and "Stack dump" not in proc.stderr:
            break
    if proc.returncode != 0:
        return Result("adapter", _first_error(proc.stderr), symbols, seconds=time.monotonic() - start)
    try:
        restored = restore(proc.stdout, ops)
    except (StandInError, ValueError, IndexError) as e:
        return Result("restore", str(e), symbols, seconds=time.monotonic() - start)
    (work / "2.restored.mlir").write_text(restored)
    temps = work / "temps"
    temps.mkdir(exist_ok=True)
    proc = subprocess.run([compiler, str(work / "2.restored.mlir"), f"--target={target}", *COMPILE_OPTIONS,
                           f"--save-temps={temps}", "-o", str(work / "kernel")],
                          capture_output=True, text=True, timeout=timeout, cwd=work)
    opt = temps / "module.hivm.opt.mlir"
    calls = [(s, [t.strip() for t in _VD["split_top"](types) if t.strip()])
             for s, _args, types in _CALL.findall(opt.read_text())] if opt.exists() else []
    output = proc.stdout + proc.stderr
    crashed = proc.returncode < 0 or "Stack dump" in output
    stage = "hivmc" if HIVMC_MISSING in output and opt.exists() and not crashed else "compile"
    if proc.returncode == 0 and opt.exists():
        stage = "binary"  # hivmc on PATH (CANN): it compiled and linked the device library
    error = "" if stage == "hivmc" else ("crash (segmentation fault)" if crashed else _first_error(output))
    expected = [(_SYMBOL.search(op.attrs).group(1), [t.strip() for t in op.types]) for op in ops]
    return Result(stage, error, symbols, calls, expected, time.monotonic() - start)


def _first_error(output: str) -> str:
    lines = [l for l in output.splitlines() if "hivmc" not in l and "Failed to run BiShengHIR pipeline" not in l]
    for line in lines:  # an MLIR diagnostic first, then anything that looks like an error
        if "error:" in line:
            return line.strip()
    for line in lines:
        if "error" in line.lower() or "Segmentation" in line or "Stack dump" in line or "Assertion" in line:
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ""


def find_tools():
    """(triton-adapter-opt, bishengir-compile): the first as verify-downstream finds it (installing
    it into the cache if needed), the second from the ``ascendnpu-ir`` side environment."""
    import side_venv
    tao = _VD["locate_tools"](True, True)[_VD["TAO"]][0]
    bindir = side_venv.ensure("ascendnpu-ir")
    return tao, str(next(bindir.parent.glob("lib/python3*/site-packages/ascendnpuir/bin/bishengir-compile")))


def main(argv=None) -> int:
    """``bisheng_compile.py [--target CHIP] [--keep DIR] LOWERED.mlir ...``: one line per file;
    exit 0 when every file stops only at hivmc with all its symbols called in order."""
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--target", default="Ascend910B3")
    ap.add_argument("--keep", type=Path, help="keep each file's stand-in, restored module and temps here")
    args = ap.parse_args(argv)
    tools, bad = find_tools(), 0
    for f in args.files:
        r = check(f.read_text(), *tools, target=args.target, keep=args.keep and args.keep / f.stem)
        ok = r.stage in ("hivmc", "binary") and not r.missing and not r.misordered
        bad += not ok
        detail = (f"{len(r.expected)} custom ops, {len(r.calls)} aclshmem calls in module.hivm.opt.mlir, stops at {r.stage}"
                  if ok else f"stopped at {r.stage}: {r.error} missing={r.missing} misordered={r.misordered}")
        print(f"{'PASS' if ok else 'FAIL'} {f}: {detail} ({r.seconds:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

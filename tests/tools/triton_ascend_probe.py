"""Runs inside the triton-ascend 3.2.0 venv (tests/test_triton_ascend_real.py starts it).

``python triton_ascend_probe.py SNIPPET COMMAND [ARGS]``: first executes the file SNIPPET (the
README's launcher snippet, extracted by the test) as a launcher would, then COMMAND, and prints
one line ``RESULT <json>``.  No NPU is needed: ``triton.compile`` is given a ``GPUTarget``
(so no driver is asked for the current device), and the ``ttir`` and ``ttadapter`` stages run
on the host (``triton-adapter-opt`` is in the wheel); ``npubin`` needs CANN and fails.

Commands:
  stages                      stage names the real backend registers (npu, npu simt_only, cpu)
  plain TARGET DUMPDIR        compile a plain kernel; the dumped stages and the error, if any
  distributed TARGET FILE     the hooked ttd_lower, then the real ttadapter, on a TTIR file
  error FILE                  the hooked ttd_lower on a TTIR file that cannot be lowered
  compile_error               triton.compile of a kernel whose ttd_lower stage raises LoweringError
  located_error               the same, the error located in the stage's text (which file it names)
"""

import json
import subprocess
import sys
from pathlib import Path


def target(name):
    from triton.backends.compiler import GPUTarget

    return GPUTarget(name, "Ascend910B4", 0)


def backend_stages(name, **opts):
    from triton.compiler.compiler import make_backend

    backend = make_backend(target(name))
    options = backend.parse_options(opts)
    stages = {}
    backend.add_stages(stages, options)
    return backend, options, stages


def cmd_stages():
    import triton.backends.ascend.compiler as imported
    import transpiler.triton_ascend as hook

    out = {name: list(backend_stages(name)[2]) for name in ("npu", "cpu")}
    out["npu_simt_only"] = list(backend_stages("npu", compile_mode="simt_only")[2])
    backend = backend_stages("npu")[0]
    out["class"] = f"{type(backend).__module__}.{type(backend).__qualname__}"
    out["imported_class_is_the_one_run"] = imported.AscendBackend is type(backend)
    hook.enable()  # a second time: still one stage
    out["npu_after_second_enable"] = list(backend_stages("npu")[2])
    out["hash"] = backend.hash()
    hook.disable()
    hook.disable()
    out["npu_after_disable"] = list(backend_stages("npu")[2])
    out["hash_after_disable"] = backend.hash()
    return out


def compile_plain_kernel(target_name):
    """triton.compile of an element-wise add; the exception it ends with, if any."""
    import triton
    import triton.language as tl
    from triton.compiler.compiler import ASTSource

    globals()["tl"] = tl  # the JIT resolves names in the module's globals

    @triton.jit
    def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)

    src = ASTSource(add_kernel, signature={"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"},
                    constants={"BLOCK": 64})
    try:
        triton.compile(src, target=target(target_name))
    except Exception as e:  # npubin needs CANN; the cpu target's ttadapter has its own defect
        return {"type": type(e).__name__, "text": str(e), "context": type(e.__context__).__name__}
    return None


def cmd_plain(target_name, dump_dir):
    error = compile_plain_kernel(target_name)
    dumps = {p.suffix[1:]: p.read_text() for p in Path(dump_dir).rglob("add_kernel.*")}
    return {"error": error, "dumps": dumps}


def cmd_compile_error():
    """What triton.compile makes of a LoweringError raised in the ttd_lower stage."""
    import transpiler.triton_ascend as hook
    from transpiler.api import LoweringError
    from transpiler.diagnostics import Diagnostic

    def failing_lower(text, **options):
        raise LoweringError([Diagnostic("error", "probe: this kernel cannot be lowered")])

    hook.lower = failing_lower
    return {"error": compile_plain_kernel("npu")}


def cmd_located_error():
    """triton.compile of a kernel whose ttd_lower stage raises a LoweringError located in the
    text it was given (at 1:1, under the name the stage gives that text)."""
    import transpiler.triton_ascend as hook
    from transpiler.api import LoweringError
    from transpiler.diagnostics import Diagnostic
    from transpiler.ir.source import Source

    def failing_lower(text, **options):
        raise LoweringError([Diagnostic("error", "probe: located here", Source(text, options["filename"]), 0)])

    hook.lower = failing_lower
    return {"error": compile_plain_kernel("npu")}


def cmd_distributed(target_name, path):
    _backend, options, stages = backend_stages(target_name)
    metadata = {"hash": "probe", "target": target(target_name), **options.__dict__}  # as triton.compile
    lowered = stages["ttd_lower"](Path(path).read_text(), metadata)
    result = {"stages": list(stages), "lowered": lowered, "symbols": metadata.get("ttd_lower_symbols")}
    try:
        stages["ttadapter"](lowered, metadata)
        result["ttadapter"] = {"error": None}
    except subprocess.CalledProcessError as e:
        result["ttadapter"] = {"error": "CalledProcessError", "stderr": e.stderr.decode(errors="replace")}
    except Exception as e:
        result["ttadapter"] = {"error": type(e).__name__, "stderr": repr(e)}
    return result


def cmd_error(path):
    from transpiler.api import LoweringError

    _backend, _options, stages = backend_stages("npu")
    try:
        stages["ttd_lower"](Path(path).read_text(), {})
    except LoweringError as e:
        return {"type": "LoweringError", "text": str(e),
                "notes": [[n.message, n.source.filename if n.source else None] for d in e.diagnostics for n in d.notes]}
    return {"type": None}


def main(argv):
    snippet, command, args = argv[0], argv[1], argv[2:]
    exec(compile(Path(snippet).read_text(), snippet, "exec"), {"__name__": "__main__"})
    commands = {"stages": cmd_stages, "plain": cmd_plain, "distributed": cmd_distributed, "error": cmd_error,
                "compile_error": cmd_compile_error, "located_error": cmd_located_error}
    result = commands[command](*args)
    import triton

    result["triton_version"] = triton.__version__
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])

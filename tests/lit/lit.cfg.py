# lit configuration for ttd-lower's FileCheck tests.  Run with `lit tests/lit` (the pytest suite
# does so in tests/test_lit.py).
import os
import shutil
import sys

import lit.formats

config.name = "ttd-lower"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.excludes = ["Output", "Inputs"]

# The tools: ttd-lower from this interpreter's environment, FileCheck from the `filecheck`
# package (a Python port of LLVM's FileCheck).
bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
for var in ("HOME", "TTD_CACHE_DIR", "TTD_LOWER_CACHE", "TTD_DOWNSTREAM_CACHE", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# $TTD_FILECHECK: a filecheck from elsewhere (tests/test_lit.py sets it on Python 3.9, whose own
# filecheck 0.0.24 is too old for these tests).
filecheck = os.environ.get("TTD_FILECHECK") or shutil.which("filecheck", path=config.environment["PATH"])
if filecheck is None:
    lit_config.fatal("filecheck not found: pip install filecheck (it is in the [test] extra)")
config.substitutions.append(("FileCheck", filecheck))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%repo", os.path.dirname(os.path.dirname(config.test_source_root))))

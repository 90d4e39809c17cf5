// RUN: FileCheck %s --check-prefix=LICENSE --input-file %repo/LICENSE
// RUN: FileCheck %s --check-prefix=URLS --input-file %repo/pyproject.toml
// RUN: not %python -c "import sys, transpiler.driver as d; d.compile_text = None; sys.argv[1:] = ['%s']; from transpiler.cli import entry; entry()" 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %python %inputs/progress_bar.py %repo/tests/tools/verify-downstream %t.progress | FileCheck %s --check-prefix=BAR
// RUN: rm -rf %t.cache && env TTD_CACHE_DIR=%t.cache TTD_LOWER_CACHE=%t.cache ttd-lower %repo/examples/allgather_push/allgather_push.ttir -o /dev/null && test ! -e %t.cache
// RUN: env -u TTD_DOWNSTREAM_CACHE TTD_LOWER_CACHE=%t.cache %python -c "import runpy; print(runpy.run_path('%repo/tests/tools/verify-downstream', run_name='vd')['cache_dir']())" | FileCheck %s --check-prefix=DOWNSTREAM
// RUN: env TTD_DOWNSTREAM_CACHE=%t.old %python -c "import runpy; print(runpy.run_path('%repo/tests/tools/verify-downstream', run_name='vd')['cache_dir']())" | FileCheck %s --check-prefix=OLD
// RUN: %python %repo/benchmarks/make_input.py --lines 2000 -o %t.bench.ttir && ttd-lower %t.bench.ttir -o /dev/null

// Packaging: the Apache-2.0 text pyproject names, the bug-report address in pyproject and in
// the internal-error message, the download progress bar of verify-downstream (a terminal
// only), one cache folder (TTD_LOWER_CACHE; TTD_DOWNSTREAM_CACHE still wins for the
// downstream tools) that ttd-lower itself never writes (its parse tables are generated
// modules, issue 16), and the benchmark input made from the repository's own files.
// LICENSE: Apache License
// LICENSE: Version 2.0, January 2004
// LICENSE: END OF TERMS AND CONDITIONS
// URLS: license = { text = "Apache-2.0" }
// URLS: Issues = "https://github.com/ttd-lower/ttd-lower/issues"
// BUG: internal error while processing '{{.*}}packaging.mlir'. This is a bug; please report it at https://github.com/ttd-lower/ttd-lower/issues
// BAR: terminal: True
// BAR: pipe: ''
// BAR: CI: ''
// DOWNSTREAM: packaging.mlir.tmp.cache/downstream
// OLD: packaging.mlir.tmp.old

module {
}

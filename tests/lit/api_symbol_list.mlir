// RUN: %python -m pytest -q -p no:cacheprovider %repo/tests/test_api_symbol_list.py | FileCheck %s

// The Python API reads a symbol_list= file again when it changed: the test edits the list
// between calls, removing a symbol the kernel needs and putting it back.
// CHECK: 1 passed

"""What ``import transpiler`` offers (issue 31: the new-user trial looked for the API with ``dir``)."""

from __future__ import annotations

import subprocess
import sys


def test_the_package_lists_its_api_and_loads_it_on_first_use():
    """``dir(transpiler)`` and ``__all__`` name the API (the new-user trial found ``lower`` only in
    the README); ``import transpiler`` alone still does not load it."""
    code = ("import sys, transpiler; loaded = 'transpiler.api' in sys.modules; "
            "print(loaded, sorted(set(transpiler.__all__) - set(dir(transpiler))), transpiler.lower.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "[]", "transpiler.api"], out
    import transpiler

    assert {"lower", "lint", "LoweringError", "LoweringWarning"} <= set(transpiler.__all__)

"""A device library release as the simulator links against it (SPEC.md section 5, ``--device-library``).

The models are the same for every release; the release's list (``device_templates/symbols.txt``
or ``device_templates/releases/*.txt``, read by :func:`transpiler.lowering.link_check.load_library`)
decides which symbols exist and the C type of each parameter, so each integer operand reaches the
model at that parameter's width and signedness (:func:`transpiler.sim.library.table.c_integer`).
"""

from __future__ import annotations

from functools import partial
from typing import Callable, List, NamedTuple, Optional

import numpy as np

from ...lowering.abi import FLOAT, INTEGER, OPAQUE, POINTER, VOID
from ..errors import Finding, NotSimulated, UsageError
from ..memory import Ptr
from .table import Model, c_integer
from . import models


class Binding(NamedTuple):
    """A symbol resolved in a release: its model and one converter per operand (None: as is)."""

    symbol: str
    model: Model
    converters: List[Optional[Callable]]


def _pointer(value):
    if not isinstance(value, Ptr):
        raise Finding(f"passes {value!r} where the C function takes a pointer")
    return value


def _opaque(value):
    return int(value) if np.ndim(value) == 0 and not isinstance(value, Ptr) else value


class DeviceLibrary:
    """The release ``name`` (``bundled``, ``1.2.0``, ``1.2.0-post``, ``master``).

    Raises:
        UsageError: an unknown release.
    """

    def __init__(self, name: str = "bundled"):
        from ...lowering.link_check import LIBRARIES, SymbolListError, load_library

        if name not in LIBRARIES:
            raise UsageError(f"unknown device library '{name}' (one of {', '.join(LIBRARIES)})")
        try:
            self.symbols = load_library(None, name)
        except SymbolListError as e:  # pragma: no cover - the shipped lists are valid
            raise UsageError(str(e)) from None
        self.name = name
        self._bound = {}

    def bind(self, symbol: str, n_operands: int, n_results: int) -> Binding:
        """The binding of ``symbol`` for a call with ``n_operands`` operands and ``n_results`` results.

        Raises:
            Finding: the release lacks the symbol, or its C function takes another number of
                parameters.
            NotSimulated: no model of the symbol.
        """
        key = (symbol, n_operands, n_results)
        if key in self._bound:
            return self._bound[key]
        if symbol not in self.symbols:
            raise Finding(f"calls {symbol}, which the {self.symbols.name or self.name} device library does not provide")
        model = models().get(symbol)
        if model is None:
            raise NotSimulated(f"calls {symbol}, which has no model in the simulator")
        sig = self.symbols.signature(symbol)
        params = list(sig.params)
        if n_results and sig.returns.kind == VOID:
            params = params[n_results:]  # results through out-parameters
        if len(params) != n_operands:
            raise Finding(f"passes {n_operands} operands to {symbol}, whose C function in the {self.name} "
                          f"device library takes {len(params)}: {sig.text}")
        converters: List[Optional[Callable]] = []
        for p in params:
            if p.kind == INTEGER:
                signed = not (p.spelling.replace("const ", "").strip().startswith(("uint", "unsigned", "size_t")))
                converters.append(partial(c_integer, width=p.width, signed=signed))
            elif p.kind == POINTER:
                converters.append(_pointer)
            elif p.kind == OPAQUE:
                converters.append(_opaque)
            elif p.kind == FLOAT:
                converters.append(None)
            else:
                converters.append(None)
        binding = self._bound[key] = Binding(symbol, model, converters)
        return binding


def convert(binding: Binding, operands) -> list:
    """The operands as the C function receives them."""
    return [v if f is None else f(v) for f, v in zip(binding.converters, operands)]

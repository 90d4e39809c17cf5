"""What the plan checks call the values they meet (leaf of ``plan_schema`` and ``plan_actions``):
how a value is shown in an error, which values are integers and numbers."""

from __future__ import annotations

import json
import numbers
from typing import Any

import numpy as np

from .plan import BufferValue


def describe(value: Any) -> str:
    """A value as an error message shows it: JSON where it is JSON, else ``repr``, abridged."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def is_number(v) -> bool:
    """A number an argument may be (``bool`` too, an ``i1``), numpy scalars included."""
    return isinstance(v, (numbers.Number, np.generic)) and not isinstance(v, (str, bytes, BufferValue))

"""Reading plans of assembly formats: an op declaration's compiled format with the declaration's
answers looked up once (:func:`plan_of`).

A plan is a tuple of steps, one per format element, each a tuple whose first field says what
it reads (:mod:`transpiler.parser.detail.format_reader` runs them):

* ``(LITERAL, text, punctuation)``: a keyword or a punctuation token (``punctuation``: its
  token type, None for a keyword);
* ``(OPERAND, name, variadic, optional)``, ``(REGION,)``, ``(SUCCESSOR,)``,
  ``(ATTRIBUTE, name, kind)`` and ``(UNKNOWN_REF, name)``: a ``$name`` by its role;
* ``(TYPES, name, count)``: ``type($name)``, ``count`` the number of types when the operands
  read so far do not say it (1 for a single value, else None);
* ``(FUNCTIONAL, inputs, results)``, ``(ATTR_DICT, with_keyword)``;
* ``(OPTIONAL, start, steps)``: an optional group, read when the next item can start its first
  element (``start``, see :func:`_start_of`; None for an empty group).

The plan of a declaration is made once (its format compiled then, as before) and made again if
the declaration's compiled format is another one.
"""

from __future__ import annotations

from typing import Dict, Tuple

from ...ir.format import AttrDictDirective, FunctionalType, Literal, OptionalGroup, Ref, TypeOf
from .cursor import _PUNCT_TOKENS

LITERAL, OPERAND, REGION, SUCCESSOR, ATTRIBUTE, UNKNOWN_REF, TYPES, FUNCTIONAL, ATTR_DICT, OPTIONAL = range(10)
# how an optional group's first element starts: (START_LITERAL, text, punctuation),
# (START_KIND, token type), (START_ATTRIBUTE, name): the attribute kind's can_start,
# (START_ATTR_DICT, with_keyword), (START_NEVER,)
START_LITERAL, START_KIND, START_ATTRIBUTE, START_ATTR_DICT, START_NEVER = range(5)

_PLANS: Dict[object, Tuple] = {}  # OpDef -> (its compiled format, its plan)


def plan_of(opdef) -> Tuple:
    """The reading plan of ``opdef``'s format.

    Raises:
        FormatError: the format string is malformed (from ``opdef.compiled_format``).
    """
    elements = opdef.compiled_format
    cached = _PLANS.get(opdef)
    if cached is not None and cached[0] is elements:
        return cached[1]
    plan = _steps(opdef, elements)
    _PLANS[opdef] = (elements, plan)
    return plan


def _steps(opdef, elements) -> Tuple:
    return tuple(_step(opdef, element) for element in elements)


def _step(opdef, element) -> Tuple:
    if isinstance(element, Literal):
        return (LITERAL, element.text, _PUNCT_TOKENS.get(element.text))
    if isinstance(element, Ref):
        name = element.name
        role = opdef.role(name)
        if role == "operand":
            spec = opdef.value_spec(name)
            return (OPERAND, name, spec.variadic, spec.optional)
        if role == "region":
            return (REGION,)
        if role == "successor":
            return (SUCCESSOR,)
        if role == "attribute":
            return (ATTRIBUTE, name, opdef.attribute_kinds[name])
        return (UNKNOWN_REF, name)
    if isinstance(element, TypeOf):
        spec = opdef.value_spec(element.name)
        single = spec is not None and not spec.variadic and not spec.optional
        return (TYPES, element.name, 1 if single else None)
    if isinstance(element, FunctionalType):
        return (FUNCTIONAL, element.inputs, element.results)
    if isinstance(element, AttrDictDirective):
        return (ATTR_DICT, element.with_keyword)
    if isinstance(element, OptionalGroup):
        start = _start_of(opdef, element.elements[0]) if element.elements else None
        return (OPTIONAL, start, _steps(opdef, element.elements))
    raise AssertionError(element)


def _start_of(opdef, element) -> Tuple:
    """How the next item can start ``element`` (what decides an optional group)."""
    if isinstance(element, Literal):
        return (START_LITERAL, element.text, _PUNCT_TOKENS.get(element.text))
    if isinstance(element, Ref):
        role = opdef.role(element.name)
        kind = {"operand": "VALUE_USE", "region": "REGION_SLOT", "successor": "CARET_ID"}.get(role)
        return (START_KIND, kind) if kind is not None else (START_ATTRIBUTE, element.name)
    if isinstance(element, TypeOf):
        return (START_KIND, "TYPE")
    if isinstance(element, AttrDictDirective):
        return (START_ATTR_DICT, element.with_keyword)
    if isinstance(element, FunctionalType):
        return (START_KIND, "LPAR")
    return (START_NEVER,)

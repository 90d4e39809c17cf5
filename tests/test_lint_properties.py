"""Properties of the protocol lint (issue 17, item 3) over generated push kernels
(``program_gen.draw_protocol`` / ``build_protocol``).

A correct kernel gets no warning; deleting its ``consume_token`` or narrowing its slot stride
below 64 bytes gets exactly the warnings of those rules, at those ops.  On the
random (not protocol-complete) kernels of ``program_gen.generate`` the lint never fails and
never changes the output.
"""

from __future__ import annotations

import re
import warnings

from hypothesis import given
from hypothesis import strategies as st

from program_gen import DrawChoices, build_protocol, draw_protocol, generate
from transpiler import LoweringError, LoweringWarning, lint, lower
from transpiler.emit.printer import print_module
from transpiler.parser import parse_module


def warnings_of(program):
    """(rule, line) of each lint warning, and the line of each role's op in the printed text."""
    text = print_module(program.builder.module)
    built = list(program.builder.module.walk())
    parsed = list(parse_module(text, "gen.ttir").walk())
    lines = {}
    for role, op in program.ops.items():
        index = next(i for i, o in enumerate(built) if o is op)
        lines[role] = parsed[index].source.line_col(parsed[index].span[0])[0]
    got = sorted((re.search(r"\[([a-z-]+)\]$", d.message).group(1), d.line_col[0])
                 for d in lint(text, filename="gen.ttir"))
    return text, got, sorted((rule, lines[role]) for rule, role in program.expected)


@given(st.data())
def test_a_correct_kernel_gets_no_warning_and_lowers(data):
    program = build_protocol(draw_protocol(DrawChoices(data)))
    text, got, want = warnings_of(program)
    assert got == want == []
    with warnings.catch_warnings():
        warnings.simplefilter("error", LoweringWarning)
        lower(text, filename="gen.ttir")


@given(st.data())
def test_deleting_the_consume_token_is_flagged_there(data):
    program = build_protocol(draw_protocol(DrawChoices(data)), drop_consume=True)
    _text, got, want = warnings_of(program)
    assert got == want and want


@given(st.data())
def test_a_narrow_slot_stride_is_flagged_at_the_slot(data):
    program = build_protocol(draw_protocol(DrawChoices(data)), narrow_stride=True)
    _text, got, want = warnings_of(program)
    assert got == want == [("barrier-slot-stride", want[0][1])]


@given(st.data())
def test_the_lint_never_fails_nor_changes_the_output(data):
    program = generate(DrawChoices(data))
    text = print_module(program.builder.module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LoweringWarning)  # random notifies may follow the upstream pass
            without = lower(text, filename="gen.ttir", core_type_fallback=program.fallback, lint=False)
    except LoweringError:
        lint(text, filename="gen.ttir")  # the lint alone still runs (and does not raise)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LoweringWarning)  # random kernels are not protocol-complete
        assert lower(text, filename="gen.ttir", core_type_fallback=program.fallback) == without

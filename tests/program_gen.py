"""Random distributed kernels built through the IR builder, each with its own expectations.

:func:`generate` draws a module (one kernel, sometimes a helper function and a ``tt.dot``
somewhere) mixing the seven distributed ops with supported and unsupported element types,
tensor ranks 1 to 7, scalar and tensor pointers, values from function arguments,
``tt.addptr``, loop-carried values, with and without ``distributed.core_type``.  Alongside it
records, for every distributed op, what SPEC.md section 2 says it must become (or that it must
be refused): the oracle is written here from the spec, independently of the lowering code.

Choices come from a :class:`Choices` object, so the same generator serves hypothesis
(``data.draw``) and a seeded ``random.Random`` (the fixed sample checked downstream).
"""

from __future__ import annotations

import random
from typing import List, Optional

import attrs

from transpiler.ir.builder import Builder
from transpiler.ir.types import F16, F32, I1, I32, I64, FloatType, IntegerType, PointerType, RankedTensorType

SUPPORTED = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "f16": "half", "bf16": "bfloat16",
             "f32": "float"}
UNSUPPORTED = ["f64", "f8E5M2", "i1"]
INT_WIDTHS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
EXTERN = {  # symbol -> (operand kinds, result, pure)
    "aclshmem_barrier_all": ((), None, False),
    "aclshmem_quiet": ((), None, False),
    "aclshmem_fence": ((), None, False),
    "aclshmem_my_pe": ((), "i32", True),
    "aclshmem_n_pes": ((), "i32", True),
    "aclshmem_ptr": (("ptr", "i32"), "ptr", False),
}
CORE_ANNOTATIONS = ["cube", "vector", "cube_and_vector", "cube_or_vector", None, "bogus"]


def elem_type(name: str):
    if name in INT_WIDTHS:
        return IntegerType(INT_WIDTHS[name])
    return FloatType(name)


class Choices:
    """Where random choices come from."""

    def integer(self, lo: int, hi: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def choice(self, items):
        return items[self.integer(0, len(items) - 1)]

    def boolean(self) -> bool:
        return self.integer(0, 1) == 1


class RandomChoices(Choices):
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChoices(Choices):
    """hypothesis: ``DrawChoices(data)`` inside a test using ``st.data()``."""

    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))


@attrs.define
class Ptr:
    value: object
    elem: str
    from_arg: bool  # an argument of the enclosing function's entry block


@attrs.define
class Expect:
    """What one distributed op must become (``symbol`` None: it must be refused)."""

    kind: str
    function: str
    symbol: Optional[str]
    operand_count: int = 0  # custom op ins
    gm: tuple = ()
    no_side_effect: bool = False
    core: str = "inferred"  # or CUBE / VECTOR / CUBE_AND_VECTOR
    attrs: tuple = ()  # source attribute names that must be copied
    tensor_result: Optional[str] = None  # a ranked tensor result type
    new_constants: tuple = ()  # values of the arith.constant ops notify adds (in order)
    trunci: bool = False
    warning: bool = False  # a located warning (notify on a pointer to neither i32 nor i64)
    guarded: bool = False  # a wait with a predicate: lowered inside an scf.if


@attrs.define
class Program:
    builder: Builder
    expects: List[Expect]
    has_dot: bool
    fallback: bool


class _Gen:
    def __init__(self, ch: Choices):
        self.ch = ch
        self.b = Builder()
        self.expects: List[Expect] = []
        self.has_dot = False
        self.fallback = ch.integer(0, 3) == 0
        self.func = ""

    # ---- value pools ----------------------------------------------------------------------------
    def start_function(self, name: str, visibility: str) -> None:
        self.func = name
        elems = [self.ch.choice(list(SUPPORTED) + UNSUPPORTED) for _ in range(self.ch.integer(1, 3))]
        elems.append("i32")  # a flag pointer is always there
        arg_types = [PointerType(elem_type(e)) for e in elems] + [I32, I64, F16, F32, I1]
        _op, args = self.b.create_function(name, arg_types, visibility=visibility)
        self.ptrs = [Ptr(a, e, True) for a, e in zip(args, elems)]
        self.i32s = [args[len(elems)]]
        self.i64 = args[len(elems) + 1]
        self.f16, self.f32 = args[len(elems) + 2], args[len(elems) + 3]
        self.i1 = args[len(elems) + 4]  # a wait predicate (not a constant: canonicalize would fold the guard)
        self.tokens = []

    def const_i32(self, value: int):
        return self.b.create_constant(value, I32)

    # ---- steps ----------------------------------------------------------------------------------
    def steps(self, count: int, depth: int = 0) -> None:
        for _ in range(count):
            kind = self.ch.choice(["addptr", "loop", "dot", "dist", "dist", "dist", "dist"] if depth == 0 else
                                  ["addptr", "dist", "dist"])
            if kind == "addptr":
                p = self.ch.choice(self.ptrs)
                self.ptrs.append(Ptr(self.b.create_addptr(p.value, self.const_i32(self.ch.integer(1, 64))), p.elem, False))
            elif kind == "loop":
                self.loop(depth)
            elif kind == "dot":
                self.dot()
            else:
                self.distributed()

    def loop(self, depth: int) -> None:
        p = self.ch.choice(self.ptrs)
        lb, ub, st = self.const_i32(0), self.const_i32(self.ch.integer(1, 8)), self.const_i32(1)
        loop, _iv, (carried,) = self.b.create_for(lb, ub, st, [p.value])
        saved = list(self.ptrs), list(self.tokens), list(self.i32s)  # values of the body stay in it
        self.ptrs.append(Ptr(carried, p.elem, False))
        self.steps(self.ch.integer(1, 3), depth + 1)
        self.b.create_yield([carried], after=loop)
        self.ptrs, self.tokens, self.i32s = saved

    def dot(self) -> None:
        a = self.b.create_splat(self.f16, RankedTensorType((16, 16), F16))
        c = self.b.create_splat(self.f32, RankedTensorType((16, 16), F32))
        self.b.create_dot(a, a, c)
        self.has_dot = True

    def token(self):
        return self.ch.choice(self.tokens) if self.tokens else self.const_i32(0)

    def distributed(self) -> None:
        kind = self.ch.choice(["get_rank", "get_num_ranks", "symm_at", "wait", "consume_scalar", "consume_ptr",
                               "consume_tensor", "notify", "extern_call"])
        getattr(self, "d_" + kind)()

    def record(self, **kw) -> None:
        self.expects.append(Expect(function=self.func, **kw))

    def d_get_rank(self) -> None:
        self.i32s.append(self.b.create_get_rank(self.const_i32(self.ch.integer(-1, 1))))
        self.record(kind="get_rank", symbol="aclshmem_my_pe", no_side_effect=True)

    def d_get_num_ranks(self) -> None:
        self.i32s.append(self.b.create_get_num_ranks(self.const_i32(0)))
        self.record(kind="get_num_ranks", symbol="aclshmem_n_pes", no_side_effect=True)

    def d_symm_at(self) -> None:
        p = self.ch.choice(self.ptrs)
        result = self.b.create_symm_at(p.value, self.ch.choice(self.i32s))
        self.ptrs.append(Ptr(result, p.elem, False))
        name = SUPPORTED.get(p.elem)
        self.record(kind="symm_at", symbol=name and f"aclshmem_ptr_{name}", operand_count=2,
                    gm=(0,) if p.from_arg else ())

    def d_wait(self) -> None:
        ints = [p for p in self.ptrs if p.elem in INT_WIDTHS]
        p = self.ch.choice(ints)
        value = self.b.create_constant(self.ch.integer(0, 1), elem_type(p.elem))
        scope, semantic = self.ch.choice(["gpu", "cta", "sys"]), self.ch.choice(["relaxed", "acquire", "release", "acq_rel"])
        guarded = self.ch.integer(0, 2) == 0  # SPEC 1: wait ... pred = %p lowers inside an scf.if
        self.tokens.append(self.b.create_distributed_wait(p.value, self.ch.choice(self.i32s), value, scope, semantic,
                                                          pred=self.i1 if guarded else None))
        name = SUPPORTED.get(p.elem)
        self.record(kind="wait", symbol=name and f"aclshmem_wait_{name}", operand_count=3,
                    gm=(0,) if p.from_arg else (), attrs=("scope", "semantic"), guarded=guarded)

    def d_consume_scalar(self) -> None:
        value, elem = self.ch.choice([(self.ch.choice(self.i32s), "i32"), (self.i64, "i64"), (self.f16, "f16"),
                                      (self.f32, "f32")])
        self.b.create_consume_token(value, self.token())
        self.record(kind="consume_token", symbol=f"aclshmem_consume_token_{SUPPORTED[elem]}", operand_count=2,
                    no_side_effect=True)

    def d_consume_ptr(self) -> None:
        p = self.ch.choice(self.ptrs)
        result = self.b.create_consume_token(p.value, self.token())
        self.ptrs.append(Ptr(result, p.elem, False))
        name = SUPPORTED.get(p.elem)
        self.record(kind="consume_token", symbol=name and f"aclshmem_consume_token_{name}_ptr_1d", operand_count=2,
                    no_side_effect=True, gm=(0,) if p.from_arg else ())

    def d_consume_tensor(self) -> None:
        p = self.ch.choice(self.ptrs)
        rank = self.ch.integer(1, 7)
        t = RankedTensorType((2,) * rank, PointerType(elem_type(p.elem)))
        ptrs = self.b.create_splat(p.value, t)
        self.b.create_consume_token(ptrs, self.token())
        name = SUPPORTED.get(p.elem)
        ok = name is not None and rank <= 5
        self.record(kind="consume_token", symbol=ok and f"aclshmem_consume_token_{name}_ptr_{rank}d" or None,
                    operand_count=2, no_side_effect=True, tensor_result=str(t))

    def d_notify(self) -> None:
        p = self.ch.choice(self.ptrs)
        sig_op = self.ch.choice(["set", "add"])
        constant = self.ch.choice([None, 1, -5, 2**31 - 1, 2**33])
        signal = self.b.create_constant(constant, I64) if constant is not None else self.i64
        self.b.create_notify(p.value, signal, self.ch.choice(self.i32s), sig_op, self.ch.choice(["gpu", "intra_node", "inter_node"]))
        gm = (0,) if p.from_arg else ()
        if p.elem == "i32" and (constant is None or -(2**31) <= constant < 2**31):
            code = 0 if sig_op == "set" else 1
            consts = (code,) if constant is None else (constant, code)
            self.record(kind="notify", symbol="aclshmemx_signal_op", operand_count=4, gm=gm,
                        attrs=("sigOp", "commScope"), new_constants=consts, trunci=constant is None)
        elif p.elem != "i32" and sig_op == "set":  # SPEC 2.2: other pointees as upstream, with a warning
            self.record(kind="notify", symbol="aclshmem_int64_p", operand_count=3, gm=gm, attrs=("sigOp", "commScope"),
                        warning=p.elem != "i64")
        else:
            self.record(kind="notify", symbol=None)

    def d_extern_call(self) -> None:
        symbol = self.ch.choice(sorted(EXTERN))
        kinds, result, pure = EXTERN[symbol]
        annotation = self.ch.choice(CORE_ANNOTATIONS)
        operands, gm, expected = [], (), symbol
        p = None
        if kinds:
            p = self.ch.choice(self.ptrs)
            operands = [p.value, self.ch.choice(self.i32s)]
            gm = (0,) if p.from_arg else ()
            expected = SUPPORTED.get(p.elem) and f"aclshmem_ptr_{SUPPORTED[p.elem]}"
        result_types = [] if result is None else [I32] if result == "i32" else [p.value.type]
        op = self.b.create_extern_call(symbol, operands, result_types, pure=pure, core_type=annotation)
        if result == "i32":
            self.i32s.append(op.results[0])
        elif result == "ptr":
            self.ptrs.append(Ptr(op.results[0], p.elem, False))
        if annotation == "bogus" or (annotation is None and not self.fallback):
            expected = None
        core = {"cube": "CUBE", "vector": "VECTOR", "cube_and_vector": "CUBE_AND_VECTOR"}.get(annotation, "inferred")
        if annotation is None:
            core = "CUBE_AND_VECTOR" if symbol == "aclshmem_barrier_all" else "inferred"
        self.record(kind="extern_call", symbol=expected, operand_count=len(operands), gm=gm, no_side_effect=pure,
                    core=core, attrs=("libname", "libpath", "pure", "symbol"))


def generate(ch: Choices) -> Program:
    """A random module and the expectations of each of its distributed ops, in program order."""
    g = _Gen(ch)
    if ch.boolean():
        g.start_function("helper", "private")
        g.steps(ch.integer(1, 3))
        g.b.create_return()
    g.start_function("kernel", "public")
    g.steps(ch.integer(1, 6))
    g.b.create_return()
    return Program(g.b, g.expects, g.has_dot, g.fallback)


# ---- protocol-correct kernels, for the lint (issue 17) -----------------------------------------

LINE_BYTES = 64  # SPEC.md section 5: the wait wrapper polls one slot per 64-byte line
FLAG_BYTES = {"i32": 4, "i64": 8}


@attrs.define
class ProtocolSpec:
    """A push kernel, as choices: every peer gets a notify on my slot ``flags + rank * stride``,
    I wait on ``flags`` for all of them, consume the token on my symmetric buffer and load it."""

    data: str  # element type of the symmetric buffer
    flag: str  # element type of the flags (i32, i64)
    lines: int  # the slot stride is this many 64-byte lines
    narrow: int  # a stride (elements) below one 64-byte line, for the mutation
    rank_first: bool  # operand order of the arith.muli
    add: bool  # ADD notifies (i32 flags only), else SET
    signal: int
    count: Optional[int]  # the wait's barrier count: a constant above 1, or None for get_num_ranks
    tensor: bool  # load a block of pointers (splat + addptr) rather than one element
    loop: bool  # load inside a loop, the pointer loop-carried
    second_consume: bool  # the token also orders a scalar


def draw_protocol(ch: Choices) -> ProtocolSpec:
    flag = ch.choice(["i32", "i64"])
    per_line = LINE_BYTES // FLAG_BYTES[flag]
    narrow = ch.integer(1, per_line - 1)  # below one 64-byte line
    return ProtocolSpec(data=ch.choice(sorted(SUPPORTED)), flag=flag, lines=ch.integer(1, 3), narrow=narrow,
                        rank_first=ch.boolean(), add=flag == "i32" and ch.boolean(), signal=ch.integer(1, 100),
                        count=ch.choice([None, 2, 4, 8]), tensor=ch.boolean(), loop=ch.boolean(),
                        second_consume=ch.boolean())


@attrs.define
class ProtocolProgram:
    """The built kernel, its interesting ops by role, and the lint warnings it must get, as
    (rule, role) pairs."""

    builder: Builder
    ops: dict
    expected: List[tuple]


def build_protocol(spec: ProtocolSpec, drop_consume: bool = False, narrow_stride: bool = False) -> ProtocolProgram:
    """The kernel of ``spec``; ``drop_consume`` deletes the consume_token of the buffer,
    ``narrow_stride`` makes the slot stride less than 64 bytes.  The expectation
    comes from the issue's rules: a dropped consume_token leaves the load unordered (and the
    token unused unless a second consume_token uses it); a narrow stride is a slot-stride bug."""
    from transpiler.ir.core import Operation

    b = Builder()
    data_t, flag_t = elem_type(spec.data), elem_type(spec.flag)
    _f, (data, flags, n) = b.create_function("kernel", [PointerType(data_t), PointerType(flag_t), I32],
                                             arg_names=["%data", "%flags", "%n"])
    ops = {}
    axis = b.create_constant(-1, I32)
    rank, world = b.create_get_rank(axis), b.create_get_num_ranks(axis)
    c0, c1 = b.create_constant(0, I32), b.create_constant(1, I32)
    per_line = LINE_BYTES // FLAG_BYTES[spec.flag]
    stride = b.create_constant(spec.narrow if narrow_stride else spec.lines * per_line, I32)
    factors = [rank, stride] if spec.rank_first else [stride, rank]
    offset = b.insert(Operation.create("arith.muli", factors, [I32])).results[0]
    slot = b.create_addptr(flags, offset)
    ops["slot"] = slot.op
    signal = b.create_constant(spec.signal, I64)
    loop, peer, _ = b.create_for(c0, world, c1)
    b.create_symm_at(data, peer)
    b.create_notify(slot, signal, peer, "add" if spec.add else "set")
    b.create_yield([], after=loop)
    count = world if spec.count is None else b.create_constant(spec.count, I32)
    wait_value = b.create_constant(spec.signal if not spec.add else spec.signal * 3, flag_t)
    token = b.create_distributed_wait(flags, count, wait_value)
    ops["wait"] = token.op
    ptr = data if drop_consume else b.create_consume_token(data, token)
    load_t = data_t
    if spec.tensor:
        offs = b.create_make_range(0, 16)
        ptr = b.create_addptr(b.create_splat(ptr, RankedTensorType((16,), PointerType(data_t))), offs)
        load_t = RankedTensorType((16,), data_t)
    if spec.loop:
        step = offs if spec.tensor else c1
        loop, _iv, (ptr,) = b.create_for(c0, b.create_constant(4, I32), c1, [ptr])
        ops["load"] = b.insert(Operation.create("tt.load", [ptr], [load_t]))
        b.create_yield([b.create_addptr(ptr, step)], after=loop)
    else:
        ops["load"] = b.insert(Operation.create("tt.load", [ptr], [load_t]))
    if spec.second_consume:
        b.create_consume_token(n, token)
    b.create_return()
    expected = []
    if drop_consume:
        expected.append(("unordered-remote-load", "load"))
        if not spec.second_consume:
            expected.append(("unused-wait-token", "wait"))
    if narrow_stride:
        expected.append(("barrier-slot-stride", "slot"))
    return ProtocolProgram(b, ops, expected)

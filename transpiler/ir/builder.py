"""Building TTIR in memory, with the seed's distributed builder bindings.

Seed ``000_...`` ("Compilation Pipeline"): the frontend makes distributed ops through
``create_distributed_wait / consume_token / get_rank / get_num_ranks / symm_at / notify /
extern_call``.  :class:`Builder` offers the same calls, plus what kernels need around them
(``tt.func`` with arguments, constants, ``tt.addptr``, ``tt.splat``, ``tt.make_range``,
``tt.dot``, ``scf.for`` with iter_args, ``tt.call``, returns), inserting at the end of the
current block.

Every distributed op is verified as it is built (SPEC.md section 1 operand rules, the same
verifier the ``ttir`` stage runs); a violation raises :class:`BuildError` with the
diagnostics.  The result prints with :func:`transpiler.emit.printer.print_module`.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..diagnostics import DiagnosticError
from .attributes import BoolAttr, IntegerAttr, StringAttr, TypeAttr, UNIT, i32_attr
from .core import Block, BlockArgument, Module, Operation, Region, Value
from .dialects.distributed import COMM_SCOPE, MEM_SEMANTIC, MEM_SYNC_SCOPE, SIGNAL_OP
from .types import I1, I32, FunctionType, PointerType, RankedTensorType, Type


class BuildError(DiagnosticError):
    """An op the builder was asked for breaks its dialect's rules; ``diagnostics`` say how."""


class Builder:
    """Builds one module: ``module { tt.func ... }``.

    >>> b = Builder()
    >>> f, (ptr, peer) = b.create_function("k", [PointerType(F32), I32])   # doctest: +SKIP
    >>> remote = b.create_symm_at(ptr, peer)                                 # doctest: +SKIP
    """

    def __init__(self) -> None:
        self.module_op = Operation.create("module", regions=[Region()])
        self.module_op.regions[0].blocks.append(Block(parent=self.module_op.regions[0]))
        self.module = Module(ops=[self.module_op])
        self.block: Block = self.module_op.regions[0].blocks[0]

    # ---- insertion ----------------------------------------------------------------------------
    def set_insertion_point_to_end(self, block: Block) -> None:
        self.block = block

    def insert(self, op: Operation) -> Operation:
        self.block.insert(len(self.block.ops), op)
        return op

    def _op(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
            attributes: Optional[Dict] = None, properties: Optional[Dict] = None,
            regions: Sequence[Region] = ()) -> Operation:
        return self.insert(Operation.create(name, operands, result_types, attributes, properties, regions))

    # ---- functions and structure --------------------------------------------------------------
    def create_function(self, name: str, arg_types: Sequence[Type], result_types: Sequence[Type] = (),
                        visibility: str = "public", arg_names: Optional[Sequence[str]] = None
                        ) -> Tuple[Operation, List[BlockArgument]]:
        """A ``tt.func`` at module level; the insertion point moves into its body.

        Returns the op and its entry block's arguments.
        """
        region = Region()
        entry = Block(parent=region)
        region.blocks.append(entry)
        names = list(arg_names) if arg_names else [None] * len(arg_types)
        entry.arguments = [BlockArgument(entry, i, names[i], t) for i, t in enumerate(arg_types)]
        attributes = {
            "sym_name": StringAttr(name),
            "function_type": TypeAttr(FunctionType(tuple(arg_types), tuple(result_types))),
            "sym_visibility": StringAttr(visibility),
        }
        self.block = self.module_op.regions[0].blocks[0]
        func = self._op("tt.func", attributes=attributes, regions=[region])
        self.block = entry
        return func, entry.arguments

    def create_return(self, values: Sequence[Value] = ()) -> Operation:
        return self._op("tt.return", values)

    def create_call(self, callee: str, args: Sequence[Value], result_types: Sequence[Type] = ()) -> Operation:
        from .attributes import SymbolRefAttr

        return self._op("tt.call", args, result_types, {"callee": SymbolRefAttr("@" + callee)})

    def create_for(self, lower: Value, upper: Value, step: Value, inits: Sequence[Value] = ()
                   ) -> Tuple[Operation, Value, List[BlockArgument]]:
        """``scf.for``; the insertion point moves into the body (end it with :meth:`create_yield`).

        Returns the op, the induction variable and the loop-carried arguments.
        """
        region = Region()
        body = Block(parent=region)
        region.blocks.append(body)
        iv_type = lower.type
        body.arguments = [BlockArgument(body, 0, None, iv_type)] + [
            BlockArgument(body, i + 1, None, v.type) for i, v in enumerate(inits)]
        op = self._op("scf.for", [lower, upper, step, *inits], [v.type for v in inits], regions=[region])
        op.detail().operand_groups = [("lowerBound", 1), ("upperBound", 1), ("step", 1), ("initArgs", len(inits))]
        self.block = body
        return op, body.arguments[0], body.arguments[1:]

    def create_yield(self, values: Sequence[Value] = (), after: Optional[Operation] = None) -> Operation:
        """``scf.yield``; with ``after``, the insertion point then moves after that loop."""
        op = self._op("scf.yield", values)
        if after is not None:
            self.block = after.parent
        return op

    # ---- ordinary ops -------------------------------------------------------------------------
    def create_constant(self, value, type_: Type) -> Value:
        """``arith.constant`` of an integer (or bool for i1)."""
        attr = BoolAttr(bool(value)) if type_ == I1 else IntegerAttr(int(value), type_)
        return self._op("arith.constant", (), [type_], {"value": attr}).results[0]

    def create_addptr(self, ptr: Value, offset: Value) -> Value:
        return self._op("tt.addptr", [ptr, offset], [ptr.type]).results[0]

    def create_splat(self, value: Value, result_type: RankedTensorType) -> Value:
        return self._op("tt.splat", [value], [result_type]).results[0]

    def create_make_range(self, start: int, end: int) -> Value:
        t = RankedTensorType((end - start,), I32)
        return self._op("tt.make_range", (), [t], {"start": i32_attr(start), "end": i32_attr(end)}).results[0]

    def create_dot(self, a: Value, b: Value, c: Value) -> Value:
        return self._op("tt.dot", [a, b, c], [c.type]).results[0]

    # ---- distributed ops (seed builder bindings) ----------------------------------------------
    def _distributed(self, name: str, operands, result_types, attributes=None, properties=None) -> Operation:
        from .verifier import verify_op

        op = self._op(name, operands, result_types, attributes, properties)
        problems = verify_op(op)
        if problems:
            del self.block.ops[-1]
            raise BuildError(problems)
        return op

    def create_distributed_wait(self, barrier: Value, num_barriers: Value, wait_value: Value,
                                scope: str = "gpu", semantic: str = "acquire", token_type: Type = I32,
                                pred: Optional[Value] = None) -> Value:
        """``distributed.wait``: returns the token; ``pred`` (i1) is the Triton 3.7 predicate."""
        attributes = {"scope": _enum(MEM_SYNC_SCOPE, scope), "semantic": _enum(MEM_SEMANTIC, semantic)}
        operands = [barrier, num_barriers, wait_value] + ([pred] if pred is not None else [])
        return self._distributed("distributed.wait", operands, [token_type], attributes).results[0]

    def create_consume_token(self, value: Value, token: Value) -> Value:
        return self._distributed("distributed.consume_token", [value, token], [value.type]).results[0]

    def create_get_rank(self, axis: Value) -> Value:
        return self._distributed("distributed.get_rank", [axis], [I32]).results[0]

    def create_get_num_ranks(self, axis: Value) -> Value:
        return self._distributed("distributed.get_num_ranks", [axis], [I32]).results[0]

    def create_symm_at(self, ptr: Value, rank: Value) -> Value:
        return self._distributed("distributed.symm_at", [ptr, rank], [ptr.type]).results[0]

    def create_notify(self, sig_addr: Value, signal: Value, rank: Value, sig_op: str = "set",
                      comm_scope: str = "inter_node") -> Operation:
        """``distributed.notify`` (generic form: sigOp / commScope as properties)."""
        properties = {"sigOp": _enum(SIGNAL_OP, sig_op), "commScope": _enum(COMM_SCOPE, comm_scope)}
        return self._distributed("distributed.notify", [sig_addr, signal, rank], [], properties=properties)

    def create_extern_call(self, symbol: str, args: Sequence[Value], result_types: Sequence[Type] = (),
                           pure: bool = False, core_type: Optional[str] = "cube_or_vector",
                           libname: str = "libshmem_device", libpath: str = "") -> Operation:
        """``distributed.extern_call``; ``core_type`` None leaves the annotation out (older frontends)."""
        attributes = {"libname": StringAttr(libname), "libpath": StringAttr(libpath), "pure": BoolAttr(pure),
                      "symbol": StringAttr(symbol)}
        if core_type is not None:
            attributes["distributed.core_type"] = StringAttr(core_type)
        return self._distributed("distributed.extern_call", args, result_types, attributes)


def _enum(enum, keyword: str) -> IntegerAttr:
    table = dict(enum.values)
    if keyword not in table:
        raise ValueError(f"{enum.enum_name} has no '{keyword}' (expected one of {', '.join(table)})")
    return i32_attr(table[keyword])


__all__ = ["Builder", "BuildError", "UNIT", "PointerType"]

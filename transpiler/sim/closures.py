"""Instructions as closures: each plain op compiled once into ``run(p, frame)`` with its operand and
result slots bound, so that running it is one Python call (SPEC.md section 7 is unchanged: these
are the same implementations, called without the per-op argument list and dispatch).

:func:`instruction` uses the op's own ``fast`` factory when it has one (the hot ops: integer and
float arithmetic, constants, ``splat``, ``addptr``...), else wraps ``fn(p, st, args)`` for the
op's arity.  The helpers ``unary``/``binary``/``const`` are what the ``fast`` factories of the
op tables build on.
"""

from __future__ import annotations


def instruction(impl, st, ins, outs):
    """The closure ``run(p, frame)`` of a plain op (``impl.gen`` false): reads ``frame[i]`` for
    ``i`` in ``ins``, calls the implementation, writes the result(s) to ``outs`` (an int, a tuple
    of ints, or None)."""
    if impl.fast is not None:
        run = impl.fast(st, ins, outs)
        if run is not None:
            return run
    return wrap(impl.fn, st, ins, outs)


def wrap(fn, st, ins, outs):
    """``fn(p, st, args)`` as a closure over the slots ``ins`` / ``outs``."""
    n = len(ins)
    if outs.__class__ is int:
        o = outs
        if n == 0:
            def run(p, f):
                f[o] = fn(p, st, ())
        elif n == 1:
            a, = ins

            def run(p, f):
                f[o] = fn(p, st, (f[a],))
        elif n == 2:
            a, b = ins

            def run(p, f):
                f[o] = fn(p, st, (f[a], f[b]))
        else:
            def run(p, f):
                f[o] = fn(p, st, [f[i] for i in ins])
        return run
    if outs is None:
        def run(p, f):
            fn(p, st, [f[i] for i in ins])
        return run

    def run(p, f):
        for o, v in zip(outs, fn(p, st, [f[i] for i in ins])):
            f[o] = v
    return run


def spread3(fn, st, ins, outs):
    """``frame[outs] = fn(p, st, x, y, z)`` for an op of one to three operands (absent ones: None);
    ``outs`` None: the result is dropped."""
    if not 1 <= len(ins) <= 3 or (outs is not None and outs.__class__ is not int):
        return None
    a = ins[0]
    b = ins[1] if len(ins) > 1 else None
    c = ins[2] if len(ins) > 2 else None
    if outs is None:
        def run(p, f):
            fn(p, st, f[a], None if b is None else f[b], None if c is None else f[c])
    else:
        def run(p, f):
            f[outs] = fn(p, st, f[a], None if b is None else f[b], None if c is None else f[c])
    return run


def const(value, outs):
    """``frame[outs] = value`` (a constant computed once per module)."""
    def run(p, f):
        f[outs] = value
    return run


def copy(a, outs):
    """``frame[outs] = frame[a]``."""
    def run(p, f):
        f[outs] = f[a]
    return run


def unary(g, ins, outs):
    """``frame[outs] = g(frame[ins[0]])``."""
    a, = ins

    def run(p, f):
        f[outs] = g(f[a])
    return run


def binary(g, ins, outs):
    """``frame[outs] = g(frame[ins[0]], frame[ins[1]])``."""
    a, b = ins

    def run(p, f):
        f[outs] = g(f[a], f[b])
    return run

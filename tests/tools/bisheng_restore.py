"""Step 3 of ``bisheng_compile.py``: the stand-ins back to ``hivm.hir.custom`` in the adapter's
generic print (on the converted memrefs)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

_VD = runpy.run_path(str(Path(__file__).with_name("verify-downstream")), run_name="verify_downstream")
STAND_IN = "__ttd_custom_"


class StandInError(Exception):
    """The module has a custom op that the stand-in cannot carry."""


def _is_ptr(t: str) -> bool:
    """A pointer or a tensor of pointers (carried as its scalar base pointer)."""
    return "!tt.ptr<" in t


_GEN = re.compile(r'^(\s*)(%\w+)(?::\d+)?\s*=\s*"([\w.]+)"\(([^)]*)\)(.*)$')


def restore(generic: str, ops) -> str:
    """Step 3: the adapter's generic print with the stand-ins replaced by the remembered ops."""
    lines = generic.splitlines()
    while True:  # one stand-in at a time: a pointer result rewrites the casts the next one reads
        text = "\n".join(lines)
        lines = text.splitlines()
        i = next((k for k, line in enumerate(lines) if STAND_IN in line and _GEN.match(line)), None)
        if i is None:
            return "\n".join(lines) + "\n"
        defs = {}
        for k, line in enumerate(lines):
            d = _GEN.match(line)
            if d:
                defs[d.group(2)] = (k, d.group(3), [a.strip() for a in d.group(4).split(",") if a.strip()], d.group(5))
        m, line = _GEN.match(lines[i]), lines[i]
        op = ops[int(re.search(STAND_IN + r"(\d+)", line).group(1))]
        indent, res, args = m.group(1), m.group(2), [a.strip() for a in m.group(4).split(",") if a.strip()]
        names, types = [], []
        for a, ty in zip(args, op.types):
            d = defs.get(a)
            if _is_ptr(ty) and d and d[1] == "memref.load":  # the memref the stand-in loaded from
                a = d[2][0]
            names.append(a)
            types.append(_type_of(a, lines, defs))
        ins = f" ins({', '.join(names)} : {', '.join(types)})" if names else ""
        head = f"{indent}{op.attrs} {op.name}{ins}"
        if not op.rtypes:
            lines[i] = f"{indent}hivm.hir.custom {head.strip()}"
        elif not _is_ptr(op.rtypes[0]):
            lines[i] = f"{indent}{res} = hivm.hir.custom {head.strip()} -> {op.rtypes[0]}"
        else:
            base = _base_memref(names[[_is_ptr(t) for t in op.types].index(True)], defs)
            btype = _type_of(base, lines, defs)
            mark = f"\n{indent}annotation.mark %ttd_r{op.idx} {{ContinuousMemAccess}} : {btype}" if op.mark else ""
            lines[i] = (f"{indent}%ttd_r{op.idx} = hivm.hir.custom {head.strip()} -> {btype}{mark}\n"
                        f'{indent}{res} = "arith.constant"() <{{value = 0 : i32}}> : () -> i32')
            for j in _users(res, lines, i):
                u = _GEN.match(lines[j])
                if u and u.group(3) == "memref.reinterpret_cast" and _base_memref(u.group(4).split(",")[0].strip(), defs) == base:
                    first = u.group(4).split(",")[0].strip()
                    lines[j] = lines[j].replace(f'"memref.reinterpret_cast"({first}', f'"memref.reinterpret_cast"(%ttd_r{op.idx}', 1)


def _base_memref(value: str, defs) -> str:
    while value in defs and defs[value][1] == "memref.reinterpret_cast":
        value = defs[value][2][0]
    return value


def _type_of(value: str, lines, defs) -> str:
    if value in defs and defs[value][1] != "memref.load":
        return defs[value][3].rsplit("->", 1)[1].split(" loc(")[0].strip()
    for line in lines:  # a block argument or load result: its type where it is an operand
        m = _GEN.match(line)
        if m:
            args = [a.strip() for a in m.group(4).split(",")]
            if value in args:
                sig = re.search(r":\s*\((.*)\)\s*->", m.group(5))
                if sig:
                    return _VD["split_top"](sig.group(1))[args.index(value)].strip()
    raise StandInError(f"no type found for {value}")


def _users(value: str, lines, start: int):
    """The lines that use ``value`` transitively, through an ``scf.for`` init into its iter_arg."""
    live, found = {value}, []
    for j in range(start + 1, len(lines)):
        m = _GEN.match(lines[j])
        args = [a.strip() for a in m.group(4).split(",")] if m else []
        if not any(a in live for a in args):
            continue
        live.add(m.group(2))
        found.append(j)
        block = re.match(r"\s*\^bb0\((.*)\):", lines[j + 1]) if m.group(3) == "scf.for" else None
        if block:
            params = [b.split(":")[0].strip() for b in _VD["split_top"](block.group(1))]
            live.update(params[k - 2] for k, a in enumerate(args) if k >= 3 and a in live and k - 2 < len(params))
    return found

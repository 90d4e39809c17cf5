"""Mechanical mutations of a lowered module's text, one per lowering rule of SPEC.md section 2
(issue 23, criterion 3).  Each mutator takes the text ``ttd-lower`` printed and returns the
mutant, or None when the module has no op the rule applies to; it changes every site.

* ``set_add_swapped``: the ACLSHMEM sig-op operand of ``aclshmemx_signal_op`` numbered the other
  way round (SET 0 <-> ADD 1; SPEC 2.2).
* ``notify_<perm>``: the three integer operands of ``aclshmemx_signal_op`` (signal, sig_op, pe)
  in another order (every non-identity permutation; SPEC 2.2's operand order).
* ``wait_int64``: ``aclshmem_wait_int32`` named ``aclshmem_wait_int64`` (the suffix is the
  barrier's pointee, SPEC 2.1).
* ``consume_token_dropped``: every consume_token custom op removed and its result replaced by
  its input (SPEC 2.1; shows under ``--reorder``).
* ``num_barriers_plus_1`` / ``num_barriers_minus_1``: the wait's barrier count changed.
* ``symm_at_peer_is_rank``: the pe operand of ``aclshmem_ptr_<T>`` replaced by the calling
  rank (a fresh ``aclshmem_my_pe``).
"""

from __future__ import annotations

import itertools
import re
from typing import Callable, Dict, List, Optional

CUSTOM = re.compile(r'^(?P<indent>\s*)(?:(?P<result>%[\w.$-]+) = )?hivm\.hir\.custom \{(?P<attrs>.*?)\} '
                    r'"dist\.(?P<symbol>\w+)"(?: ins\((?P<ins>[^:]*) : (?P<types>[^)]*)\))?(?P<rest>.*)$')
ATTRS = ('gm_addr_args_indices = array<i32>, hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, '
         'hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, no_side_effect')


def _sites(text: str, symbol: Callable[[str], bool]):
    """``(line index, match)`` of every custom op whose symbol satisfies ``symbol``."""
    lines = text.split("\n")
    return lines, [(i, m) for i, line in enumerate(lines) for m in [CUSTOM.match(line)] if m and symbol(m["symbol"])]


def _with_ins(m, ins: List[str], types: List[str]) -> str:
    return (f'{m["indent"]}{m["result"] + " = " if m["result"] else ""}hivm.hir.custom {{{m["attrs"]}}} '
            f'"dist.{m["symbol"]}" ins({", ".join(ins)} : {", ".join(types)}){m["rest"]}')


def _split(m):
    return [s.strip() for s in m["ins"].split(",")], [s.strip() for s in m["types"].split(",")]


def _rewrite(text: str, symbol: Callable[[str], bool], edit) -> Optional[str]:
    """Apply ``edit(m, k) -> [lines]`` (replacing the op's line) at every site; None without one."""
    lines, sites = _sites(text, symbol)
    if not sites:
        return None
    for k, (i, m) in reversed(list(enumerate(sites))):
        lines[i:i + 1] = edit(m, k)
    return "\n".join(lines)


def set_add_swapped(text: str) -> Optional[str]:
    def edit(m, k):
        ins, types = _split(m)
        value = re.search(rf"^\s*{re.escape(ins[2])} = arith\.constant (\d+) : i32", text, re.M)
        assert value is not None, f"the sig-op operand {ins[2]} is not an arith.constant"
        new = f"%mut_sigop{k}"
        ins[2] = new
        return [f'{m["indent"]}{new} = arith.constant {1 - int(value.group(1))} : i32', _with_ins(m, ins, types)]
    return _rewrite(text, lambda s: s == "aclshmemx_signal_op", edit)


def notify_permuted(order) -> Callable[[str], Optional[str]]:
    def mutate(text: str) -> Optional[str]:
        def edit(m, k):
            ins, types = _split(m)
            return [_with_ins(m, [ins[0]] + [ins[1 + j] for j in order], [types[0]] + [types[1 + j] for j in order])]
        return _rewrite(text, lambda s: s == "aclshmemx_signal_op", edit)
    return mutate


def wait_int64(text: str) -> Optional[str]:
    if "aclshmem_wait_int32" not in text:
        return None
    return text.replace('symbol = "aclshmem_wait_int32"} "dist.aclshmem_wait_int32"',
                        'symbol = "aclshmem_wait_int64"} "dist.aclshmem_wait_int64"')


def consume_token_dropped(text: str) -> Optional[str]:
    lines, sites = _sites(text, lambda s: s.startswith("aclshmem_consume_token_"))
    if not sites:
        return None
    renames = {}
    for i, m in reversed(sites):
        renames[m["result"]] = _split(m)[0][0]
        del lines[i]
    out = "\n".join(lines)
    for result, source in renames.items():
        out = re.sub(re.escape(result) + r"(?![\w.$-])", source, out)
    return out


def num_barriers_changed(delta: int) -> Callable[[str], Optional[str]]:
    def mutate(text: str) -> Optional[str]:
        def edit(m, k):
            ins, types = _split(m)
            one, n = f"%mut_one{k}", f"%mut_n{k}"
            old, ins[1] = ins[1], n
            op = "addi" if delta > 0 else "subi"
            return [f'{m["indent"]}{one} = arith.constant {abs(delta)} : i32',
                    f'{m["indent"]}{n} = arith.{op} {old}, {one} : i32', _with_ins(m, ins, types)]
        return _rewrite(text, lambda s: s.startswith("aclshmem_wait_int"), edit)
    return mutate


def symm_at_peer_is_rank(text: str) -> Optional[str]:
    def edit(m, k):
        ins, types = _split(m)
        me = f"%mut_rank{k}"
        ins[1] = me
        return [f'{m["indent"]}{me} = hivm.hir.custom {{{ATTRS}, symbol = "aclshmem_my_pe"}} "dist.aclshmem_my_pe" -> i32',
                _with_ins(m, ins, types)]
    return _rewrite(text, lambda s: s.startswith("aclshmem_ptr_"), edit)


MUTATORS: Dict[str, Callable[[str], Optional[str]]] = {"set_add_swapped": set_add_swapped}
for _order in itertools.permutations(range(3)):
    if _order != (0, 1, 2):
        MUTATORS["notify_" + "".join("vop"[j] for j in _order)] = notify_permuted(_order)
MUTATORS.update({"wait_int64": wait_int64, "consume_token_dropped": consume_token_dropped,
                 "num_barriers_plus_1": num_barriers_changed(1), "num_barriers_minus_1": num_barriers_changed(-1),
                 "symm_at_peer_is_rank": symm_at_peer_is_rank})
#: mutants whose rule only shows when loads may move above a wait (SPEC.md section 7, --reorder)
REORDER = {"consume_token_dropped"}

"""Models of ``device_templates/src/pe_query.cpp``: PE and team queries.

Teams (SPEC.md section 7): handle 0 (``ACLSHMEM_TEAM_WORLD``) is every rank; the k-th entry of
the plan's ``teams`` (``(start, stride, size)``, as the host's ``team_split_strided`` makes) has
handle k + 1; handle -1 (``ACLSHMEM_TEAM_INVALID``) answers -1 to every query; any other handle
is an error at the op.
"""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from ..errors import Finding
from .table import register

TEAM_INVALID = -1


def team_members(dev, team: int) -> Optional[List[int]]:
    """The world ranks of ``team`` in team order (None for ``ACLSHMEM_TEAM_INVALID``).

    Raises:
        Finding: an unknown team handle.
    """
    if team == TEAM_INVALID:
        return None
    if team == 0:
        return list(range(dev.n_ranks))
    if 1 <= team <= len(dev.teams):
        start, stride, size = dev.teams[team - 1]
        return [start + i * stride for i in range(size)]
    raise Finding(f"team handle {team} is not a team (0 is the world, 1..{len(dev.teams)} the plan's teams, -1 invalid)")


def aclshmem_my_pe(dev):
    """``_mlir_ciface_aclshmem_my_pe()`` (ACLSHMEM_QUERY_WRAPPER): the calling PE."""
    return np.int32(dev.rank)


def aclshmem_n_pes(dev):
    """``_mlir_ciface_aclshmem_n_pes()`` (ACLSHMEM_QUERY_WRAPPER): the number of PEs."""
    return np.int32(dev.n_ranks)


def aclshmem_team_my_pe(dev, team):
    """``_mlir_ciface_aclshmem_team_my_pe(team)`` (ACLSHMEM_TEAM_QUERY_WRAPPER): the caller's
    index in ``team``, -1 outside it or for the invalid team."""
    members = team_members(dev, team)
    return np.int32(members.index(dev.rank) if members and dev.rank in members else -1)


def aclshmem_team_n_pes(dev, team):
    """``_mlir_ciface_aclshmem_team_n_pes(team)`` (ACLSHMEM_TEAM_QUERY_WRAPPER): the team's size
    (-1 for the invalid team)."""
    members = team_members(dev, team)
    return np.int32(-1 if members is None else len(members))


def aclshmem_team_translate_pe(dev, src_team, src_pe, dest_team):
    """``_mlir_ciface_aclshmem_team_translate_pe(src_team, src_pe, dest_team)``: the index in
    ``dest_team`` of member ``src_pe`` of ``src_team`` (-1 when it is in neither)."""
    src, dest = team_members(dev, src_team), team_members(dev, dest_team)
    if src is None or dest is None or not 0 <= src_pe < len(src) or src[src_pe] not in dest:
        return np.int32(-1)
    return np.int32(dest.index(src[src_pe]))


for _fn in (aclshmem_my_pe, aclshmem_n_pes, aclshmem_team_my_pe, aclshmem_team_n_pes, aclshmem_team_translate_pe):
    register(_fn.__name__, _fn, gen=False)

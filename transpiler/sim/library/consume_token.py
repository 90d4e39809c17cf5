"""Models of ``device_templates/src/consume_token.cpp``: every wrapper returns its input
(it exists only to make a data dependency on the wait's token, SPEC.md section 5)."""

from __future__ import annotations

from .table import TOKEN_TYPES, register


def consume_token(dev, value, token):
    """``_mlir_ciface_aclshmem_consume_token_<T>(value, token)`` (CONSUME_TOKEN_SCALAR_WRAPPER)
    and ``..._<T>_ptr_<R>d(result, input, token)`` (CONSUME_TOKEN_PTR_WRAPPER, ``ttd_memref_copy``):
    the input, unchanged."""
    return value


for _t in TOKEN_TYPES:
    register(f"aclshmem_consume_token_{_t}", consume_token, gen=False)
    for _rank in range(1, 6):
        register(f"aclshmem_consume_token_{_t}_ptr_{_rank}d", consume_token, gen=False)

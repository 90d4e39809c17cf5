"""``transpiler.language``: a Triton-distributed frontend for Ascend on upstream Triton 3.9.

It is what ``triton_dist.language`` is to a Triton-distributed build: the ``dl.*`` ops
(:mod:`.distributed_ops`), ``extern_call`` (:mod:`.extern`), the Ascend ``libshmem_device``
(:mod:`.libshmem_device`), the tutorials' ``algorithm`` helpers and triton-ascend's
``sub_vec_id`` (:mod:`.extension`), for kernels compiled with the ``triton`` package from PyPI
(``pip install 'ttd-lower[frontend]'``, Python 3.11 or newer) on a machine without GPU or NPU.

>>> import triton, triton.language as tl
>>> import transpiler.language as dl
>>> @triton.jit
... def kernel(ptr):
...     tl.store(ptr, dl.rank())
>>> ttir = dl.compile_ttir(kernel, dl.Pointer("int32"))      # doctest: +SKIP

:func:`run` launches a kernel on simulated ranks (``transpiler.sim``, the ``sim`` extra) before and
after lowering.  :func:`install_aliases` lets public files that import ``triton_dist.language`` run unchanged.
``ttd-lower`` itself never imports this package (nor Triton).
"""

try:
    import triton  # noqa: F401
except ImportError as e:  # a clear message, not a bare "No module named 'triton'" (issue 31 item 9)
    raise ModuleNotFoundError("transpiler.language needs Triton 3.9, which has wheels for Python 3.11 and newer: "
                              "pip install -e '.[frontend]' in a clone of ttd-lower ('ttd-lower[frontend]' for a "
                              "wheel; it is not on PyPI)", name="triton") from e

from .aliases import install_aliases, jit_functions, load_file
from .compile import Pointer, compile_lowered, compile_ttir, specialize
from .distributed_ops import consume_token, notify, num_ranks, rank, symm_at, wait
from .extension import sub_vec_id
from .extern import extern_call
from .launch import launches, run

__all__ = ["wait", "consume_token", "rank", "num_ranks", "symm_at", "notify", "extern_call", "sub_vec_id",
           "install_aliases", "load_file", "jit_functions", "Pointer", "specialize", "compile_ttir",
           "compile_lowered", "launches", "run"]

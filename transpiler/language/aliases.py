"""Running public Triton-distributed files unchanged: import aliases and host stand-ins.

:func:`install_aliases` makes the imports at the top of the public Ascend tests and tutorials
resolve here:

* ``triton_dist.language`` -> :mod:`transpiler.language` (``dl.rank`` ... ``dl.extern_call``),
  ``triton_dist.language.extra.libshmem_device`` -> :mod:`.libshmem_device`,
  ``triton_dist.language.extra.ascend.algorithm`` -> :mod:`.algorithm`,
  ``triton.language.extra.cann.extension`` -> :mod:`.extension` (``sub_vec_id``);
* the host modules they import, ``torch`` (with ``torch.distributed``, ``torch.multiprocessing``),
  ``torch_npu``, ``shmem`` and ``numpy``, get a stand-in module when they are not installed.
  Any attribute of a stand-in exists (``torch.int64``, ``ash.InitAttr``), so module-level code
  runs; calling one raises :class:`HostStandInError`: host code needs NPUs, and the project's
  tests port it to numpy instead.

:func:`load_file` then executes a public file (``.py.txt`` as well) as a module of its own, so
its ``@triton.jit`` kernels are there to compile, with locations in that file.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path
from typing import Dict, List, Optional

#: alias -> module of this package that it stands for
ALIASES = {
    "triton_dist.language": "transpiler.language",
    "triton_dist.language.extra.libshmem_device": "transpiler.language.libshmem_device",
    "triton_dist.language.extra.ascend.algorithm": "transpiler.language.algorithm",
    "triton.language.extra.cann.extension": "transpiler.language.extension",
}
#: top-level host module -> its submodules the public files import
HOST_MODULES = {"torch": ("torch.distributed", "torch.multiprocessing"), "torch_npu": (), "shmem": (),
                "numpy": ()}


class HostStandInError(RuntimeError):
    """Host code called a stand-in of a module that is not installed (``torch``, ``shmem`` ...)."""


class _StandIn:
    """Any attribute path of a stand-in module; calling it raises :class:`HostStandInError`."""

    def __init__(self, path: str):
        self._path = path

    def __getattr__(self, name: str) -> "_StandIn":
        if name.startswith("__"):
            raise AttributeError(name)
        return _StandIn(f"{self._path}.{name}")

    def __call__(self, *args, **kwargs):
        raise HostStandInError(f"{self._path}() is host code: '{self._path.split('.')[0]}' is not installed here "
                               f"(a stand-in of transpiler.language.install_aliases); port the host code to numpy")

    def __repr__(self) -> str:
        return f"<host stand-in {self._path}>"


def _stand_in_module(name: str) -> types.ModuleType:
    module = types.ModuleType(name, f"stand-in for the host module {name} (transpiler.language.aliases)")

    def attribute(attr: str) -> _StandIn:  # PEP 562; dunders (``__file__`` ...) stay missing
        if attr.startswith("__"):
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        return _StandIn(f"{name}.{attr}")

    module.__getattr__ = attribute
    module.__path__ = []  # a package: submodules may be imported
    return module


def _package(name: str) -> types.ModuleType:
    """The package ``name``: the real one if it imports, else an empty namespace made here."""
    if name in sys.modules:
        return sys.modules[name]
    try:
        return importlib.import_module(name)
    except ImportError:
        module = types.ModuleType(name, "namespace made by transpiler.language.install_aliases")
        module.__path__ = []
        sys.modules[name] = module
        return module


def _bind(name: str, module: types.ModuleType) -> None:
    """``sys.modules[name] = module``, each level an attribute of its parent package."""
    sys.modules[name] = module
    child = name
    while "." in child:
        parent, _, leaf = child.rpartition(".")
        setattr(_package(parent), leaf, sys.modules[child])
        child = parent


def install_aliases(host_stand_ins: bool = True) -> List[str]:
    """Install the aliases (and, unless told not to, the host stand-ins); idempotent.

    Returns:
        The module names bound in ``sys.modules`` by this call (aliases first).
    """
    bound = []
    for alias, target in ALIASES.items():
        module = importlib.import_module(target)
        if sys.modules.get(alias) is not module:
            _bind(alias, module)
            bound.append(alias)
    if host_stand_ins:
        for top, subs in HOST_MODULES.items():
            if top in sys.modules or importlib.util.find_spec(top) is not None:
                continue
            for name in (top, *subs):
                _bind(name, _stand_in_module(name))
                bound.append(name)
    return bound


def load_file(path, name: Optional[str] = None) -> types.ModuleType:
    """Execute the Python file ``path`` (any suffix) as a new module and return it.

    The module is registered in ``sys.modules`` under ``name`` (default: from the file name),
    so ``inspect`` finds the source of its kernels, and their locations name ``path``.
    Installs the aliases first.

    Raises:
        OSError: the file cannot be read; any exception its module-level code raises.
    """
    install_aliases()
    path = Path(path).resolve()
    stem = path.name.split(".")[0]
    name = name or "ttd_public_" + "".join(c if c.isalnum() else "_" for c in stem)
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    exec(code, module.__dict__)
    return module


def jit_functions(module: types.ModuleType) -> Dict[str, object]:
    """The ``@triton.jit`` functions defined by ``module`` itself (not imported into it)."""
    from triton.runtime.jit import JITFunction

    return {k: v for k, v in vars(module).items()
            if isinstance(v, JITFunction) and getattr(v, "module", None) == module.__name__}

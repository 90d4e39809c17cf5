"""``python -m transpiler`` runs the ``ttd-lower`` command line."""

from .cli import entry

entry()

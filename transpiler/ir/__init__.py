"""The typed IR (attrs classes) and the dialect declarations.

Importing the package binds the upper modules into the lower ones (``dialect`` gives
``core`` its ``OpDetail``, ``scope`` gives ``core`` its ``block_arguments`` and ``dialect`` its
``resolve``), so that no module imports one that imports it back (issue 30).
"""

from . import dialect, scope  # noqa: F401 (they bind themselves into core, see above)

"""``CliRunner`` that behaves like click 8.2's on click 8.1 (the newest click for Python 3.9).

click 8.2 always captures stdout and stderr apart and makes ``result.output`` both streams;
8.1 needs ``mix_stderr=False`` for ``result.stderr`` and then gives only stdout as ``output``.
"""

import inspect

from click.testing import CliRunner, Result


class _Result81(Result):
    @property
    def output(self) -> str:  # as click 8.2: what the user saw on the terminal
        return self.stdout + (self.stderr if self.stderr_bytes is not None else "")


class _Runner81(CliRunner):
    def __init__(self, **kwargs):
        super().__init__(mix_stderr=False, **kwargs)

    def invoke(self, *args, **kwargs):
        result = super().invoke(*args, **kwargs)
        result.__class__ = _Result81
        return result


def cli_runner() -> CliRunner:
    """A runner whose results have ``stdout``, ``stderr`` and ``output`` (both) as in click 8.2."""
    if "mix_stderr" in inspect.signature(CliRunner.__init__).parameters:
        return _Runner81()
    return CliRunner()

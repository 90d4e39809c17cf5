"""verify-downstream's download progress bar: drawn on a terminal, silent otherwise (and in CI).

    python progress_bar.py VERIFY_DOWNSTREAM WORKDIR
"""

import io
import os
import runpy
import sys
import time

tool = runpy.run_path(sys.argv[1], run_name="verify_downstream")
work = sys.argv[2]
os.makedirs(work, exist_ok=True)


class Terminal(io.StringIO):
    def isatty(self):
        return True


def draw(stream, env_ci):
    os.environ.pop("CI", None)
    if env_ci:
        os.environ["CI"] = "1"
    real, sys.stderr = sys.stderr, stream
    try:
        with tool["DownloadProgress"](work, 1000, "downloading test-wheel", enabled=True):
            with open(os.path.join(work, "part"), "wb") as f:
                f.write(b"x" * 600)
            time.sleep(0.6)
    finally:
        sys.stderr = real
    return stream.getvalue()


print("terminal:", "downloading test-wheel" in draw(Terminal(), False))
print("pipe:", repr(draw(io.StringIO(), False)))
print("CI:", repr(draw(Terminal(), True)))

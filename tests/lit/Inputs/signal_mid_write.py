"""Send SIGNAL to ttd-lower while it writes OUT (which holds an earlier result); check that
OUT is untouched, that nothing else is left in its folder, and that the exit status is
128 + SIGNAL.  Prints one line per run; exits 1 on the first failure.

    python signal_mid_write.py SIGTERM|SIGHUP|SIGINT INPUT WORKDIR
"""

import os
import signal
import subprocess
import sys
import time

name, source, work = sys.argv[1:4]
signum = getattr(signal, name)
folder = os.path.join(work, "out")
os.makedirs(folder)
out, ready = os.path.join(folder, "out.mlir"), os.path.join(work, "ready")
with open(out, "w") as f:
    f.write("previous result\n")
proc = subprocess.Popen([sys.executable, "-m", "transpiler", source, "-o", out], stderr=subprocess.PIPE, text=True,
                        env=dict(os.environ, TTD_LOWER_TEST_PAUSE_WRITE=ready))
deadline = time.monotonic() + 60
while not os.path.exists(ready) and time.monotonic() < deadline and proc.poll() is None:
    time.sleep(0.01)
proc.send_signal(signum)
stderr = proc.communicate(timeout=60)[1]
left = sorted(os.listdir(folder))
with open(out) as f:
    kept = f.read() == "previous result\n"
print(f"{name}: exit {proc.returncode}, folder {left}, output kept: {kept}")
sys.exit(0 if proc.returncode == 128 + signum and left == ["out.mlir"] and kept else 1)

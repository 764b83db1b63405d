"""Issue 45: gevent patches before anything holds ``ssl`` names, in every gunicorn worker.

gunicorn's master imports its config (service.run.gunicorn_conf: settings, the worker classes,
the refusals, the logging config) and forks; each worker then runs ``post_fork`` and only then
patches for gevent (``monkey.patch_all()``). A module imported before the patch that took
``SSLContext`` by name (redis does: ``from ssl import SSLContext``) keeps the unpatched class:
gevent warns (MonkeyPatchWarning) and TLS connections may recurse or block the whole worker.
A fresh interpreter does what the master and a worker do before the patch, and then patches
with warnings as errors.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BEFORE_THE_PATCH = """
import warnings
warnings.simplefilter("error")
import gunicorn.app.wsgiapp, gunicorn.arbiter          # the master
import service.run.gunicorn_conf as conf               # its config, as gunicorn loads it
from gunicorn.util import load_class
load_class(conf.worker_class)                          # the worker class, loaded by the master
conf.post_fork(None, None)                             # in the worker, before it patches
import sys
held = sorted(m for m in ("redis", "flask", "rq") if m in sys.modules)
from gevent import monkey
monkey.patch_all()                                     # what the gevent worker does first
print("loaded before the patch:", held)
"""


def test_the_master_and_post_fork_import_nothing_that_makes_the_patch_late():
    done = subprocess.run(
        [sys.executable, "-c", BEFORE_THE_PATCH], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "loaded before the patch: []"


def test_this_test_would_see_a_late_patch():
    """The check above can fail: importing redis first is exactly what gevent warns about."""
    code = BEFORE_THE_PATCH.replace("from gevent import monkey", "import redis\nfrom gevent import monkey")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0 and "MonkeyPatchWarning" in done.stderr

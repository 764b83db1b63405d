"""A process that dies with its parent (Linux's parent-death signal), and nothing else.

gunicorn's ``post_fork`` hook calls it in each worker before the worker patches for gevent,
so this module imports only the standard library: anything that imports ``ssl`` names there
(redis does) would make gevent's patch come too late (a MonkeyPatchWarning, and TLS at risk).
"""

from __future__ import annotations

import ctypes
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send ``sig`` to this process when its parent dies (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        return

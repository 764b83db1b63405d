"""This process has begun to stop: what must end at once, and whoever must be told.

gunicorn's worker classes (service/run/gunicorn_workers.py) call ``begin()`` when SIGTERM arrives;
the event streams (service/http/sse.py) register a callback that wakes them, and each ends with a
``retry:`` hint so its client resumes elsewhere with ``Last-Event-ID``. Nothing here imports
the web stack: gunicorn's master loads this module before its workers patch for gevent.
"""

from __future__ import annotations

from collections.abc import Callable

_state = {"draining": False}
_callbacks: list[Callable[[], None]] = []


def active() -> bool:
    return _state["draining"]


def on_drain(callback: Callable[[], None]) -> None:
    """Call ``callback`` (once, never from a request) when this process begins to stop."""
    if callback not in _callbacks:
        _callbacks.append(callback)


def begin() -> None:
    if _state["draining"]:
        return
    _state["draining"] = True
    for callback in list(_callbacks):
        try:
            callback()
        except Exception:  # one listener's failure does not keep the others running
            pass


def reset() -> None:
    """For tests that drain an app in-process and then go on."""
    _state["draining"] = False

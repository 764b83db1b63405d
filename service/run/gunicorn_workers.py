"""gunicorn's gevent and gthread workers, stopping the way Go's ``http.Server.Shutdown`` does.

On SIGTERM gunicorn stops accepting and then waits, up to ``graceful_timeout``, for every
connection to end. Two kinds never end by themselves: an event stream (it lasts minutes) and,
under gevent, a kept-alive connection waiting for its next request (it lasts ``keepalive``
seconds). Both kept a stop waiting until the supervisor's SIGKILL. Here SIGTERM also

- tells the process it is draining (service/http/draining.py): every event stream ends at once,
  with a ``retry:`` hint, and its client resumes elsewhere with ``Last-Event-ID``;
- (gevent) closes every connection that is idle between requests, and gives any connection
  that becomes idle afterwards no wait at all. A request in flight finishes, answered with
  ``Connection: close``. gunicorn's gthread worker already caps kept-alive connections on stop.

This module is loaded by gunicorn's master, before its workers patch for gevent: it must not
import Flask, redis or anything that imports ``ssl`` names (service/http/draining.py imports
nothing, and the rooms' ``__init__`` modules import nothing either).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

import gevent
from gunicorn.workers import ggevent, gthread

from ..http import draining

if TYPE_CHECKING:
    from greenlet import greenlet


class GeventWorker(ggevent.GeventWorker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._idle: dict[greenlet, gevent.Timeout] = {}  # connection -> its keep-alive wait

    # gunicorn's own returns a Timeout, used the same way (``with self.timeout_ctx():``); its stubs
    # say None.
    @contextlib.contextmanager
    def timeout_ctx(self) -> Iterator[None]:  # type: ignore[override]
        """The wait for a connection's next request, which a stop cuts short."""
        current = gevent.getcurrent()
        # False: the wait ends quietly, as gunicorn's own (gevent's documented use; not in its stubs).
        timeout = gevent.Timeout(self.cfg.keepalive if self.alive else 0.001, False)  # type: ignore[arg-type]
        self._idle[current] = timeout
        try:
            with timeout:
                yield
        finally:
            self._idle.pop(current, None)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        # Out of the signal handler, as gunicorn does for its own SIGQUIT handling.
        gevent.spawn(self._drain)

    def _drain(self) -> None:
        draining.begin()
        loop = gevent.get_hub().loop
        for connection, timeout in list(self._idle.items()):
            loop.run_callback(self._end_if_idle, connection, timeout)

    def _end_if_idle(self, connection: greenlet, timeout: gevent.Timeout) -> None:
        """The wait's own timeout, raised now: the connection ends as if it had expired.

        Run by the hub, so the connection cannot move between the check and the throw: one
        whose request arrived meanwhile has left its wait (its timeout no longer pending)
        and is not touched; a timeout raised outside its wait would fail that request.
        """
        if self._idle.get(connection) is timeout and timeout.pending:
            connection.throw(timeout)


class ThreadWorker(gthread.ThreadWorker):
    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        draining.begin()


# What SKYLINE_WORKER_CLASS names, as gunicorn's worker_class setting.
WORKER_CLASSES = {
    "gevent": "service.run.gunicorn_workers.GeventWorker",
    "gthread": "service.run.gunicorn_workers.ThreadWorker",
}

"""This worker process's ``Services``, for the job functions RQ calls by their dotted path.

RQ runs ``worker.jobs.play_bot_turn(game_id, version)`` and ``worker.webhooks.deliver_next(...)``
with nothing but their arguments, so the process's collaborators are reached here. The worker's
entry point (``skyline worker``, in ``skyline.cli``) composes them once, from the settings it read
at its start, and installs them before the first job; nothing here reads the environment or
builds a client, so a job cannot run on a second configuration.
"""

from __future__ import annotations

from service.play.services import Services

_installed: list[Services] = []


def install(services: Services) -> None:
    """Make ``services`` this process's (the entry point, once; a test, for its own)."""
    _installed[:] = [services]


def services() -> Services:
    if not _installed:
        raise RuntimeError(
            "this process has no Services: start the worker with `skyline worker`, or install them "
            "(worker.services.install) before running a job"
        )
    return _installed[0]

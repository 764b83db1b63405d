"""What a rated game's view and record add once it has ended: the ratings it moved.

A rated game settles when the archiver writes it (service.archive.ratings.settle): until then, and
while PostgreSQL is away, it shows ``"ratings": null`` and ``"ratings_pending": true``; once
settled, ``"ratings"`` lists each rated seat's change and ``"ratings_pending"`` is false. A rated
game that did not finish (aborted, expired) moved nothing: ``"ratings": []``.
"""

from __future__ import annotations

from typing import Any

from ..archive.archive import ArchiveUnavailable
from ..archive.ratings import RatingChange, RatingReads
from ..store.records import GameMeta
from .repository import GameRepository


def shown_changes(changes: list[RatingChange]) -> list[dict[str, Any]]:
    return [
        {
            "seat": change.seat,
            "player": change.player,
            "before": {"mu": change.before.mu, "sigma": change.before.sigma},
            "after": {"mu": change.after.mu, "sigma": change.after.sigma},
        }
        for change in changes
    ]


def rated_fields(repository: GameRepository, game_id: str, meta: GameMeta, status: str) -> dict[str, Any]:
    """``rated``, and for an ended rated game ``ratings`` and ``ratings_pending`` (the docstring)."""
    if not meta.get("rated"):
        return {}
    if status in ("waiting", "active"):
        return {"rated": True}
    if status != "finished":
        return {"rated": True, "ratings": [], "ratings_pending": False}
    changes = None
    if repository.has_archive:
        try:
            changes = RatingReads(repository.archive).game(game_id)
        except ArchiveUnavailable:
            changes = None
    if changes is None:
        return {"rated": True, "ratings": None, "ratings_pending": True}
    return {"rated": True, "ratings": shown_changes(changes), "ratings_pending": False}

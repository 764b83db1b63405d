"""What the app's views reach, typed: the process's ``Services`` and the app's own parts.

``create_app`` installs them under one extension key; a view asks ``services()`` (the current
app's) and never spells an extension's name, so the type checker follows every collaborator
from the composition root (``skyline.compose``) to the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from flask import Flask, current_app

from ..play.services import Services

if TYPE_CHECKING:
    from .app import SkylineApi

EXTENSION = "skyline"


@dataclass(frozen=True)
class AppParts:
    services: Services
    # GET /catalog's body and its ETag, by language: the same for the app's life.
    catalog_reply: dict[str, tuple[bytes, str]]
    api: SkylineApi  # the contract (flask-smorest)


def install(app: Flask, parts: AppParts) -> None:
    app.extensions[EXTENSION] = parts


def parts(app: Flask | None = None) -> AppParts:
    """The parts of ``app`` (the current app by default)."""
    return cast(AppParts, (current_app if app is None else app).extensions[EXTENSION])


def services(app: Flask | None = None) -> Services:
    """The ``Services`` of ``app`` (the current app by default)."""
    return parts(app).services

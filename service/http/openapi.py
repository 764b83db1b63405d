"""The OpenAPI document, generated from the app's schemas (openapi.yaml is this, written out)."""

from __future__ import annotations

from typing import Any

import yaml
from flask import Flask

from .services import parts


def document(app: Flask) -> dict[str, Any]:
    """The contract of ``app`` (``skyline.web.document_app`` builds one without touching Redis)."""
    return parts(app).api.spec.to_dict()


def document_yaml(app: Flask) -> str:
    return yaml.safe_dump(document(app), sort_keys=False, allow_unicode=True, width=100)

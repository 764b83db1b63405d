"""GET /docs: the interactive reference (Swagger UI) over /openapi.json, from local assets.

The Swagger UI files ship inside the flask-swagger-ui wheel, so the page works offline and
loads nothing from a CDN.
"""

from __future__ import annotations

from flask import Blueprint
from flask_swagger_ui import get_swaggerui_blueprint

DOCS_PATH = "/docs"


def docs_blueprint() -> Blueprint:
    blueprint: Blueprint = get_swaggerui_blueprint(
        DOCS_PATH,
        "/openapi.json",
        config={"app_name": "Skyline API", "tryItOutEnabled": False},
        blueprint_name="docs",
    )
    return blueprint

"""The WSGI entry point for gunicorn: ``service.wsgi:app``."""

from . import create_app

app = create_app()

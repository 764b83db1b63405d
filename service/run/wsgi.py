"""The WSGI entry point for gunicorn: ``service.run.wsgi:app``."""

from ..http.app import create_app

app = create_app()

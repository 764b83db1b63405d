"""The WSGI entry point for gunicorn: ``skyline.wsgi:app``, composed from the settings read here, once."""

from service.config import Settings

from .web import api_app

app = api_app(Settings.from_env())

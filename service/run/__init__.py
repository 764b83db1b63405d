"""Running the processes: the composition root, above every other room.

- cli.py: the ``skyline`` command (serve, worker, healthcheck, openapi, settings, export, import);
- exchange.py: ``skyline export`` and ``skyline import``, and where they find the archive;
- supervisor.py: ``skyline serve``, Redis, gunicorn and the bot workers, supervised;
- embedded.py: the embedded Redis, and the command lines of the supervised children;
- gunicorn_conf.py: gunicorn's settings (``python:service.run.gunicorn_conf``); gunicorn_workers.py:
  its worker classes, which stop gracefully with open event streams; parentdeath.py: children
  that die with their parent (imports only the standard library: gunicorn's post_fork uses it);
  gunicorn_refusals.py: what gunicorn refuses before the app, as problem+json;
- wsgi.py: the app gunicorn serves (``service.run.wsgi:app``).

May import every room, config, and worker/ (the CLI runs a worker). No room imports it.
"""

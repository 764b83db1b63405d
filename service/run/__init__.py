"""Running the processes: the supervisor, the embedded servers, gunicorn; above every other room.

The processes' entry points and their composition are skyline/'s (above service/ and worker/):
skyline/cli.py calls in here for `skyline serve`, `export` and `import`, with the settings it read.

- exchange.py: ``skyline export`` and ``skyline import``, and where they find the archive;
- supervisor.py: ``skyline serve``, Redis, gunicorn and the bot workers, supervised;
- embedded.py: the embedded Redis, and the command lines of the supervised children;
- gunicorn_conf.py: gunicorn's settings (``python:service.run.gunicorn_conf``); gunicorn_workers.py:
  its worker classes, which stop gracefully with open event streams; parentdeath.py: children
  that die with their parent (imports only the standard library: gunicorn's post_fork uses it);
  gunicorn_refusals.py: what gunicorn refuses before the app, as problem+json.

May import every room and config; never worker/ or skyline/ (they are above the service). No room
imports it.
"""

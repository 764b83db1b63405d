"""The top of the house: each process's entry point, where its settings are read and it is composed.

- compose.py: ``build_services``, the one function that builds a process's collaborators (the
  store's and the queues' clients, ``GameStore``, the archive's reads, players, games, seats,
  versions, webhooks, the workers' indexes) from one ``Settings``, for every ``Role``: the API,
  the bot worker (its sweeper and archiver too) and the webhook worker;
- cli.py: the ``skyline`` command (serve, worker, healthcheck, openapi, settings, export, import,
  migrate-keys); it reads the settings once and hands them to the command;
- web.py: the API composed (``api_app``), and the app built for its contract alone (`skyline openapi`);
- wsgi.py: the app gunicorn serves (``skyline.wsgi:app``).

May import everything: service/ (every room) and worker/. Nothing imports it (tests and benches
aside): service/ and worker/ are given what it builds, never reach up for it.
"""

"""Skyline's HTTP service, in six rooms. A room imports only the rooms below it.

    run/     running the processes: the supervisor, the embedded Redis and PostgreSQL, gunicorn's
             settings and workers, export and import. The top room of the service.
    http/    the HTTP contract and its views: the app factory, routes, schemas, problem details,
             body parsing and limits, the fast lane, the event stream, pictures and /play.
    play/    the use cases: create, show, list, act, record. Domain errors, no HTTP.
    store/   Redis: every key (the layout in store/keys.py) and every Lua script.
    archive/ PostgreSQL, beside store/ (neither imports the other): the archive of ended games.
    watch/   logs and metrics. The bottom room.

``config.py`` (the settings) belongs to no room: it imports nothing of the service, and every room
may be given them. ``worker/`` (the RQ side, a sibling package above the service) may import play/,
store/, archive/, watch/ and config, never http/ or run/. ``skyline/``, on top of both, holds the
processes' entry points: it reads the settings once per process and composes what each uses
(``skyline.compose.build_services``); neither service/ nor worker/ imports it, and service/ imports
nothing of worker/. tests/service/test_rooms.py
enforces the order; docs/architecture.md follows a move through the rooms and says where a new
feature goes.
"""

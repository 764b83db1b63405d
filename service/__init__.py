"""Skyline's HTTP service, in six rooms. A room imports only the rooms below it.

    run/     running the processes: the ``skyline`` command, the supervisor, the embedded Redis,
             gunicorn's settings, the WSGI entry point. The composition root, on top.
    http/    the HTTP contract and its views: the app factory, routes, schemas, problem details,
             body parsing and limits, the fast lane, the event stream, pictures and /play.
    play/    the use cases: create, show, list, act, record. Domain errors, no HTTP.
    store/   Redis: every key (the layout in store/keys.py) and every Lua script.
    archive/ PostgreSQL, beside store/ (neither imports the other): the archive of ended games.
    watch/   logs and metrics. The bottom room.

``config.py`` (the settings, read from the environment) belongs to no room: it imports nothing
of the service, and every room may read it. ``worker/`` (the RQ side, a sibling package) may
import play/, store/, archive/, watch/ and config, never http/ or run/. tests/service/test_rooms.py
enforces the order; docs/architecture.md follows a move through the rooms and says where a new
feature goes.
"""

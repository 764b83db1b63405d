"""The `skyline` command: serve (embedded default), worker, healthcheck, openapi, settings, export,
import, ratings rebuild, migrate-keys.

The settings are read here, once, before anything else (``Settings.from_env``), and every command
is given them: a process never reads a second configuration. The options' defaults are the
settings (service.config): ``--port`` is ``PORT``'s, and so on. A setting that does not read stops
the command before anything starts, with one line naming it.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from pathlib import Path

from service.config import SettingError, Settings, settings_table

# docs/deploy.md holds the settings' table between these lines (`skyline settings --update`).
TABLE_BEGIN = "<!-- settings: begin (generated from service/config.py by `skyline settings`) -->"
TABLE_END = "<!-- settings: end -->"


def _openapi(args: argparse.Namespace, settings: Settings) -> int:
    from service.http.openapi import document_yaml

    from .web import document_app

    sys.stdout.write(document_yaml(document_app(settings)))
    return 0


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from service.run.supervisor import serve

    return serve(
        settings,
        port=args.port,
        host=args.host,
        workers=args.workers,
        data_dir=args.data_dir,
        bot_workers=args.bot_workers,
    )


def _worker(args: argparse.Namespace, settings: Settings) -> int:
    """A bot worker (or, with --webhooks, a webhook worker) over the services composed here, once."""
    from service.watch import logs
    from worker.runner import run, run_webhooks

    from .compose import BOT_WORKER, WEBHOOK_WORKER, build_services

    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set.")
    logs.configure(settings.log_level, settings.log_format)
    http_port = args.http_port or None
    if args.webhooks:
        return run_webhooks(build_services(settings, WEBHOOK_WORKER), burst=args.burst, http_port=http_port)
    return run(build_services(settings, BOT_WORKER), burst=args.burst, http_port=http_port)


def _healthcheck(args: argparse.Namespace, settings: Settings) -> int:
    """Exit 0 when the API (``PORT``) or the worker (``SKYLINE_WORKER_PORT``) answers /healthz here."""
    import urllib.request

    ports = [str(port) for port in (settings.port, settings.worker_port) if port]
    for port in ports:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=args.timeout) as reply:
                if reply.status == 200:
                    return 0
        except OSError:
            continue
    print("skyline: nothing healthy answers on ports " + ", ".join(ports), file=sys.stderr)
    return 1


def _export(args: argparse.Namespace, settings: Settings) -> int:
    from service.run.exchange import run_export

    return run_export(args, settings.database_url)


def _import(args: argparse.Namespace, settings: Settings) -> int:
    from service.run.exchange import run_import

    return run_import(args, settings)


def _ratings(args: argparse.Namespace, settings: Settings) -> int:
    from service.run.rebuild import run_rebuild

    return run_rebuild(args, settings.database_url)


def _migrate_keys(args: argparse.Namespace, settings: Settings) -> int:
    """Move the Redis at REDIS_URL from the first key layout to the partitioned one (store.migrate)."""
    from service.store.connect import settings_client
    from service.store.migrate import FirstLayoutOnCluster, migrate_layout

    url = settings.redis_url
    if not url:
        print(
            "skyline: set REDIS_URL to the Redis to move (`skyline serve` moves its embedded one)",
            file=sys.stderr,
        )
        return 2
    client = settings_client(settings)
    try:
        moved = migrate_layout(client)
    except FirstLayoutOnCluster as refused:
        print(f"skyline: {refused}", file=sys.stderr)
        return 1
    print(f"moved {moved.games} games ({moved.keys} keys, {moved.index_entries} index entries)")
    for key in moved.left:
        print(f"left as it was (not a key of the first layout's games): {key}")
    return 0


def _moment(text: str) -> datetime.datetime:
    from service.run.exchange import parse_moment

    return parse_moment(text)


def with_table(document: str, table: str) -> str:
    """``document`` with the text between its settings markers replaced by ``table``."""
    head, begin, rest = document.partition(TABLE_BEGIN)
    _, end, tail = rest.partition(TABLE_END)
    if not begin or not end:
        raise SystemExit(f"skyline: no {TABLE_BEGIN} ... {TABLE_END} block to update")
    return f"{head}{TABLE_BEGIN}\n{table}{TABLE_END}{tail}"


def _settings(args: argparse.Namespace, settings: Settings) -> int:
    """Print the settings' table (markdown), or write it into the document ``--update`` names."""
    if args.update is None:
        sys.stdout.write(settings_table())
        return 0
    document = Path(args.update)
    document.write_text(with_table(document.read_text(encoding="utf-8"), settings_table()), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        settings = Settings.from_env()
    except SettingError as error:
        print(f"skyline: {error}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="skyline", description="Skyline, a rules service for board games.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="serve the API, the workers, Redis and PostgreSQL (embedded unless their URLs are set)"
    )
    serve.add_argument("--host", default=settings.host)
    serve.add_argument("--port", type=int, default=settings.port)
    serve.add_argument("--workers", type=int, default=settings.web_concurrency)
    serve.add_argument("--bot-workers", type=int, default=1)
    serve.add_argument("--data-dir", default=settings.data_dir)
    serve.set_defaults(run=_serve)

    worker = sub.add_parser("worker", help="run an RQ worker playing bot turns (needs REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument(
        "--webhooks", action="store_true", help="deliver webhooks, not bot turns (a queue of its own)"
    )
    worker.add_argument(
        "--http-port",
        type=int,
        default=settings.worker_port,
        help="serve /metrics and /healthz of this worker on this port (default SKYLINE_WORKER_PORT; 0: off)",
    )
    worker.set_defaults(run=_worker)

    health = sub.add_parser("healthcheck", help="exit 0 when the API or worker in this container is healthy")
    health.add_argument("--timeout", type=float, default=3.0)
    health.set_defaults(run=_healthcheck)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document (YAML)")
    openapi.set_defaults(run=_openapi)

    table = sub.add_parser(
        "settings", help="print the settings' table (docs/deploy.md's), or --update a document"
    )
    table.add_argument("--update", metavar="DOCUMENT", help="rewrite the table in DOCUMENT (docs/deploy.md)")
    table.set_defaults(run=_settings)

    data_help = "the data folder whose embedded PostgreSQL holds the archive (when DATABASE_URL is unset)"
    export = sub.add_parser(
        "export", help="write archived games as NDJSON, one game a line (docs/archive.md)"
    )
    export.add_argument("--since", type=_moment, help="games that ended at or after this RFC 3339 time")
    export.add_argument("--until", type=_moment, help="games that ended before this RFC 3339 time")
    export.add_argument("--title", help="games of this title only")
    export.add_argument(
        "--after", type=int, default=0, metavar="POSITION", help="games archived after this position"
    )
    export.add_argument("--output", "-o", metavar="FILE", help="append to FILE (default: standard output)")
    export.add_argument(
        "--resume",
        action="store_true",
        help="continue --output after its last whole line (an export cut short)",
    )
    export.add_argument("--data-dir", default=settings.data_dir, help=data_help)
    export.set_defaults(run=_export)

    load = sub.add_parser("import", help="load an export's NDJSON into an empty archive, replaying each game")
    load.add_argument("file", metavar="FILE", help="the export (- for standard input)")
    load.add_argument(
        "--merge",
        action="store_true",
        help="into an archive that holds games (those already there are skipped)",
    )
    load.add_argument("--data-dir", default=settings.data_dir, help=data_help)
    load.set_defaults(run=_import)

    ratings = sub.add_parser("ratings", help="the ratings of rated games (docs/ratings.md)")
    ratings_commands = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_commands.add_parser(
        "rebuild", help="recompute every rating from the archived games alone, in the order they settled"
    )
    rebuild.add_argument("--data-dir", default=settings.data_dir, help=data_help)
    rebuild.set_defaults(run=_ratings)

    keys = sub.add_parser(
        "migrate-keys",
        help="move the Redis at REDIS_URL to the partitioned key layout (API and workers stopped)",
    )
    keys.set_defaults(run=_migrate_keys)

    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace, Settings], int] = args.run
    return run(args, settings)


if __name__ == "__main__":
    raise SystemExit(main())

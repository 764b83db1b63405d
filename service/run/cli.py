"""The `skyline` command: serve (embedded default), api, worker, openapi."""

from __future__ import annotations

import argparse
import os
import sys


def _openapi(args: argparse.Namespace) -> int:
    from ..http.openapi import document_yaml

    sys.stdout.write(document_yaml())
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .supervisor import serve

    return serve(
        port=args.port,
        host=args.host,
        workers=args.workers,
        data_dir=args.data_dir,
        bot_workers=args.bot_workers,
    )


def _worker(args: argparse.Namespace) -> int:
    # The CLI is the composition root: the only place service reaches into worker.
    from worker.runner import run, run_webhooks

    if args.webhooks:
        return run_webhooks(burst=args.burst, http_port=args.http_port or None)
    return run(burst=args.burst, http_port=args.http_port or None)


def _healthcheck(args: argparse.Namespace) -> int:
    """Exit 0 when the API (``PORT``) or the worker (``SKYLINE_WORKER_PORT``) answers /healthz here."""
    import urllib.request

    ports = [os.environ.get("PORT", "8000"), os.environ.get("SKYLINE_WORKER_PORT", "")]
    for port in filter(None, ports):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=args.timeout) as reply:
                if reply.status == 200:
                    return 0
        except OSError:
            continue
    print("skyline: nothing healthy answers on ports " + ", ".join(filter(None, ports)), file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skyline", description="Skyline, a rules service for board games.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="serve the API with gunicorn and a bot worker (Redis embedded unless REDIS_URL is set)"
    )
    serve.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    serve.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))
    serve.add_argument("--bot-workers", type=int, default=1)
    serve.add_argument("--data-dir", default=os.environ.get("SKYLINE_DATA_DIR", "var"))
    serve.set_defaults(run=_serve)

    worker = sub.add_parser("worker", help="run an RQ worker playing bot turns (needs REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument(
        "--webhooks", action="store_true", help="deliver webhooks, not bot turns (a queue of its own)"
    )
    worker.add_argument(
        "--http-port",
        type=int,
        default=int(os.environ.get("SKYLINE_WORKER_PORT") or 0),
        help="serve /metrics and /healthz of this worker on this port (default SKYLINE_WORKER_PORT; 0: off)",
    )
    worker.set_defaults(run=_worker)

    health = sub.add_parser("healthcheck", help="exit 0 when the API or worker in this container is healthy")
    health.add_argument("--timeout", type=float, default=3.0)
    health.set_defaults(run=_healthcheck)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document (YAML)")
    openapi.set_defaults(run=_openapi)

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())

"""The house keeps its order: each room imports only the rooms below it (service/__init__.py).

    skyline/  >  worker/  >  service/: run  >  http  >  play  >  store | archive  >  watch

skyline/ (the processes' entry points and the one composition root) is on top: nothing of
service/ or worker/ imports it, and service/ imports nothing of worker/. config belongs to no room:
below them all. store/ (Redis) and archive/ (PostgreSQL) stand side by side: neither imports the other.

Read from the source (every ``import``, relative ones resolved, wherever in a module it is),
as tests/engines/test_purity.py reads the engines. Besides the order: play/, store/, archive/ and
watch/ import no web framework and no gunicorn, not even through another module (a fresh interpreter
imports them and the worker and looks at what was loaded); the worker (the RQ side) imports
neither http/ nor run/; every Redis key is spelled in store/keys.py only; and PostgreSQL (psycopg)
is archive/'s alone, but for run/, which starts the embedded server.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Bottom to top, level by level: a room may import its own modules and those of the levels below.
LEVELS = (("watch",), ("store", "archive"), ("play",), ("http",), ("run",))
ROOMS = tuple(room for level in LEVELS for room in level)
RANK = {room: rank for rank, level in enumerate(LEVELS) for room in level}
# Of no room: the package itself and the settings, which any room (and the worker) may read.
BASE = frozenset({"service", "service.config"})
# What only http/ and run/ may use: the web framework, its schemas, the HTTP server.
WEB = frozenset(
    {"flask", "flask_smorest", "flask_swagger_ui", "werkzeug", "webargs", "marshmallow", "apispec"}
)
WEB_OR_SERVER = WEB | {"gunicorn"}
WITHOUT_WEB = ("watch", "store", "archive", "play")
# Who may talk to PostgreSQL: the archive, and run/ (the embedded server, its readiness).
POSTGRES = frozenset({"psycopg", "psycopg_pool"})
WITH_POSTGRES = ("archive", "run")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[str]:
    """Every module ``path`` imports (``from a import b`` counts as a and as a.b), absolute."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def room_of(module: str) -> str | None:
    """The room a service module belongs to; None for the base (and for anything else)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "service" and len(parts) > 1 and parts[1] in ROOMS else None


def service_modules(names: list[str]) -> list[str]:
    # ``from service.play import auth`` names the module service.play.auth: keep what exists.
    return [n for n in names if n.split(".")[0] == "service" and is_module(n)]


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


SERVICE = sorted((ROOT / "service").rglob("*.py"))
WORKER = sorted((ROOT / "worker").rglob("*.py"))
SKYLINE = sorted((ROOT / "skyline").rglob("*.py"))
# Where a process starts, and so where its settings are read (once): the `skyline` command, the
# app gunicorn serves, and gunicorn's own config (the master, before any worker is forked).
ENTRY_POINTS = frozenset({"skyline/cli.py", "skyline/wsgi.py", "service/run/gunicorn_conf.py"})


def test_every_module_of_the_service_is_in_a_room_or_the_base():
    names = [module_name(path) for path in SERVICE]
    loose = [name for name in names if room_of(name) is None and name not in BASE]
    assert not loose, f"put these in a room (service/__init__.py says which): {loose}"
    for room in ROOMS:
        doc = ast.get_docstring(ast.parse((ROOT / "service" / room / "__init__.py").read_text()))
        assert doc and "import" in doc, f"service/{room}/__init__.py says what it holds and may import"


@pytest.mark.parametrize("path", SERVICE, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_room_imports_only_the_rooms_below_it(path):
    module = module_name(path)
    room = room_of(module)
    rank = -1 if room is None else RANK[room]
    upward = []
    for name in service_modules(imports(path)):
        if name in BASE or name in {f"service.{r}" for r in ROOMS}:
            continue
        target = room_of(name)
        if target is None or (target != room and RANK[target] >= rank):
            upward.append(name)
    assert not upward, f"{module} ({room or 'base'}) imports from above: {upward}"


@pytest.mark.parametrize(
    "path",
    [p for p in SERVICE if room_of(module_name(p)) in WITHOUT_WEB or module_name(p) in BASE],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_lower_rooms_know_no_web_framework_and_no_server(path):
    found = [n for n in imports(path) if n.split(".")[0] in WEB_OR_SERVER]
    assert not found, f"{module_name(path)} imports {found}"


@pytest.mark.parametrize("path", [*SERVICE, *WORKER], ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_the_top_and_the_service_imports_no_worker(path):
    """skyline/ composes and starts the processes: what it builds is handed down, never reached
    up for; the service's rooms are below the worker, which runs their use cases."""
    above = {"skyline"} if path in WORKER else {"skyline", "worker"}
    found = [n for n in imports(path) if n.split(".")[0] in above]
    assert not found, f"{module_name(path)} imports from above: {found}"


@pytest.mark.parametrize("path", WORKER, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_worker_imports_no_http_and_no_run(path):
    names = [n for n in imports(path) if n.split(".")[0] in {"service", *WEB_OR_SERVER}]
    bad = [n for n in names if n.split(".")[0] != "service" or room_of(n) in ("http", "run")]
    assert not bad, f"{module_name(path)} imports {bad}"


def test_nothing_loads_a_web_framework_through_the_lower_rooms_or_the_worker():
    """Transitive imports too: a fresh interpreter imports every lower module, the worker, and what
    `skyline worker` composes it with."""
    lower = [module_name(p) for p in SERVICE if room_of(module_name(p)) in WITHOUT_WEB]
    lower += ["service.config", "worker.jobs", "worker.sweeper", "worker.runner", "worker.metrics"]
    lower += ["skyline.compose", "skyline.cli"]  # what a worker process composes itself with
    code = (
        "import importlib, sys\n"
        f"for name in {lower!r}: importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(WEB_OR_SERVER)!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"loaded: {done.stdout.strip()}"


@pytest.mark.parametrize("path", [*SERVICE, *WORKER], ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_archive_and_run_talk_to_postgresql(path):
    found = [n for n in imports(path) if n.split(".")[0] in POSTGRES]
    allowed = room_of(module_name(path)) in WITH_POSTGRES
    assert allowed or not found, f"{module_name(path)} imports {found}: PostgreSQL is archive/'s"


def test_every_redis_key_is_spelled_in_store_keys_only():
    """A key name starts with ``sk:``; only service/store/keys.py writes one out."""
    spelled = []
    for path in [*SERVICE, *WORKER]:
        if path == ROOT / "service" / "store" / "keys.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and str(node.value).startswith("sk:"):
                spelled.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not spelled, spelled


def shipped_code() -> list[Path]:
    """The code of the house outside tests/ and bench/ (each benchmark is a script, its own start)."""
    return [*SERVICE, *WORKER, *SKYLINE, *sorted((ROOT / "harness").rglob("*.py"))]


def calls_to(name: str, path: Path) -> list[int]:
    """The lines of ``path`` that call ``name`` (a function, or an attribute such as a classmethod)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            called = node.func
            spelled = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", None)
            if spelled == name:
                found.append(node.lineno)
    return found


def test_the_settings_are_read_only_where_a_process_starts():
    """One process, one configuration: ``Settings.from_env()`` at the entry points, every other
    place given the settings they read."""
    readers = {
        f"{path.relative_to(ROOT)}:{line}"
        for path in shipped_code()
        for line in calls_to("from_env", path)
        if str(path.relative_to(ROOT)) not in ENTRY_POINTS
    }
    assert not readers, f"pass the settings down instead: {sorted(readers)}"
    for entry in ENTRY_POINTS:
        assert calls_to("from_env", ROOT / entry), f"{entry} is an entry point: it reads the settings"


def test_the_store_is_built_in_one_place():
    """``GameStore(`` in skyline/compose.py alone: every process's store is the one it composes."""
    builders = {
        f"{path.relative_to(ROOT)}:{line}" for path in shipped_code() for line in calls_to("GameStore", path)
    }
    assert [b.split(":")[0] for b in builders] == ["skyline/compose.py"], sorted(builders)

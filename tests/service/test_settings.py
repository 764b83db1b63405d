"""The settings (service/config.py): read in one place, typed, each default written once, every
refusal naming its variable — in the module, in the `skyline` command and in gunicorn — and
docs/deploy.md's table the module's own."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
import requests

from service.config import SettingError, Settings, environment, kind_of, settings_table
from skyline.cli import TABLE_BEGIN, TABLE_END, with_table

from ..conftest import LIVE_ENV, Processes, api_command, free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]

# One bad value of each kind, and the variable it must be named by.
BAD = [
    ("SKYLINE_GAME_TTL_SECONDS", "2w"),  # a whole number
    ("SKYLINE_MAX_BODY_BYTES", "64.5"),  # a whole number, not a float
    ("PORT", "70000"),  # above its maximum
    ("WEB_CONCURRENCY", "0"),  # below its minimum
    ("SKYLINE_TRUSTED_PROXY_HOPS", "-1"),  # below the default minimum, 0
    ("SKYLINE_BOT_STALL_SECONDS", "soon"),  # a number
    ("SKYLINE_SWEEP_SECONDS", "inf"),  # a finite number
    ("SKYLINE_ACCESS_LOG", "nope"),  # a flag
    ("SKYLINE_WEBHOOK_ALLOW_HTTP", "2"),  # a flag
    ("SKYLINE_LOG_FORMAT", "xml"),  # one of a few words
    ("SKYLINE_WORKER_CLASS", "sync"),  # one of a few words
    ("SKYLINE_RATE_LIMIT_PER_ADDRESS", "lots"),  # a rate
    ("SKYLINE_RATE_LIMIT_PER_TOKEN", "10/0"),  # a rate of at least 1 second
    ("SKYLINE_WEBHOOK_RETRY_SCHEDULE", "5,soon"),  # a schedule
]


@pytest.mark.parametrize(("variable", "value"), BAD, ids=[variable for variable, _ in BAD])
def test_each_kind_of_bad_value_is_refused_naming_its_variable(variable, value):
    with pytest.raises(SettingError) as refused:
        Settings.from_env({variable: value})
    message = str(refused.value)
    assert message.startswith(f"{variable}={value!r}: expected "), message
    assert "\n" not in message


@pytest.mark.parametrize("word", ["1", "true", "yes", "on", "TRUE", "Yes", " On "])
def test_a_flag_is_on_with_each_word_of_yes(word):
    assert Settings.from_env(
        {"SKYLINE_ACCESS_LOG": "off", "SKYLINE_WEBHOOK_ALLOW_HTTP": word}
    ).webhook_allow_http


@pytest.mark.parametrize("word", ["0", "false", "no", "off", "NO", "Off"])
def test_a_flag_is_off_with_each_word_of_no(word):
    assert Settings.from_env({"SKYLINE_ACCESS_LOG": word}).access_log is False


def test_unset_and_empty_variables_give_the_defaults_and_values_are_read_by_their_type():
    assert Settings.from_env({}) == Settings()
    assert (
        Settings.from_env({"SKYLINE_GAME_TTL_SECONDS": "  ", "SKYLINE_RATE_LIMIT_PER_ADDRESS": ""})
        == Settings()
    )
    read = Settings.from_env(
        {
            "SKYLINE_GAME_TTL_SECONDS": " 60 ",
            "SKYLINE_BOT_STALL_SECONDS": "2.5",
            "SKYLINE_LOG_LEVEL": "debug",
            "SKYLINE_RATE_LIMIT_PER_TOKEN": "100/1m",
            "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
            "SKYLINE_CORS_ORIGINS": "https://a.example/,https://b.example",
            "SKYLINE_WEBHOOK_RETRY_SCHEDULE": "0.5,1",
            "REDIS_URL": "redis://example:6379/0",
        }
    )
    assert (read.game_ttl_seconds, read.bot_stall_seconds, read.log_level) == (60, 2.5, "DEBUG")
    assert (read.rate_limit_per_token, read.rate_limit_per_address) == ((100, 60), None)
    assert read.cors_origins == ("https://a.example", "https://b.example")
    assert (read.webhook_retry_schedule, read.redis_url) == ((0.5, 1.0), "redis://example:6379/0")


def test_the_queues_redis_is_rq_redis_url_and_by_default_the_stores():
    store = "rediss://store.example:6380/0?ssl_ca_certs=/ca.pem"
    assert Settings.from_env({"REDIS_URL": store}).rq_redis_url is None
    assert Settings.from_env({"REDIS_URL": store}).queue_redis_url == store
    assert Settings.from_env({"REDIS_URL": store, "RQ_REDIS_URL": " "}).queue_redis_url == store
    queue = "unix:///run/rq/redis.sock?db=2"
    read = Settings.from_env({"REDIS_URL": store, "RQ_REDIS_URL": queue})
    assert (read.redis_url, read.rq_redis_url, read.queue_redis_url) == (store, queue, queue)
    assert Settings().queue_redis_url is None  # neither set: `skyline serve` embeds one for both


def test_a_redis_cluster_needs_a_queue_redis_of_its_own_and_never_queues_on_itself():
    cluster = "redis://node-1.example:6379"
    for environ in ({"SKYLINE_REDIS_CLUSTER": "1", "REDIS_URL": cluster}, {"SKYLINE_REDIS_CLUSTER": "1"}):
        with pytest.raises(SettingError, match="RQ_REDIS_URL"):
            Settings.from_env(environ)
    queue = "redis://rq.example:6379/0"
    read = Settings.from_env({"SKYLINE_REDIS_CLUSTER": "yes", "REDIS_URL": cluster, "RQ_REDIS_URL": queue})
    assert read.redis_cluster and read.queue_redis_url == queue
    assert not Settings.from_env({"REDIS_URL": cluster}).redis_cluster


def test_each_default_reads_back_from_the_text_the_docs_show():
    """The table's defaults are what the variables would say: read back, each is the default."""
    for each in fields(Settings):
        if each.default is not None:
            assert kind_of(each.name).read(kind_of(each.name).show(each.default)) == each.default, each.name


def test_every_setting_has_a_variable_of_its_own_and_a_sentence():
    variables = [each.metadata["env"] for each in fields(Settings)]
    assert len(variables) == len(set(variables))
    assert all(each.metadata["doc"].strip() for each in fields(Settings))


def test_the_deploy_guide_holds_the_modules_table_every_setting_with_its_default():
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert TABLE_BEGIN in guide and TABLE_END in guide
    shown = guide.split(TABLE_BEGIN, 1)[1].split(TABLE_END, 1)[0].strip("\n") + "\n"
    assert shown == settings_table(), "run `.venv/bin/skyline settings --update docs/deploy.md`"
    rows = [line for line in shown.splitlines()[2:]]
    assert len(rows) == len(fields(Settings))


def test_the_table_is_rewritten_in_place_between_its_markers():
    document = f"# Guide\n\n{TABLE_BEGIN}\n| stale |\n{TABLE_END}\n\nAfter.\n"
    rewritten = with_table(document, "| fresh |\n")
    assert rewritten == f"# Guide\n\n{TABLE_BEGIN}\n| fresh |\n{TABLE_END}\n\nAfter.\n"


def test_only_the_settings_module_reads_the_environment():
    """``os.environ`` and ``os.getenv`` appear in service/config.py only (reads and writes)."""
    found = []
    for path in [*(ROOT / "service").rglob("*.py"), *(ROOT / "worker").rglob("*.py")]:
        if path == ROOT / "service" / "config.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if named and node.value.id == "os" and node.attr in ("environ", "getenv", "environb", "putenv"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "os":
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno}" for a in node.names if a.name == "environ"
                ]
    assert not found, found


def run_skyline(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "skyline.cli", *args],
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_the_command_refuses_a_bad_setting_in_one_line_before_it_starts_anything():
    done = run_skyline(
        "worker", "--burst", REDIS_URL="redis://127.0.0.1:1/0", SKYLINE_WORKER_TTL_SECONDS="1m"
    )
    assert done.returncode == 2
    assert done.stderr == "skyline: SKYLINE_WORKER_TTL_SECONDS='1m': expected a whole number\n"


def test_the_command_prints_the_table():
    done = run_skyline("settings")
    assert done.returncode == 0 and done.stdout == settings_table()


def test_gunicorn_refuses_a_bad_setting_naming_it(tmp_path):
    done = subprocess.run(
        api_command(free_port(), workers=1),
        env=environment(SKYLINE_ACCESS_LOG="maybe", PROMETHEUS_MULTIPROC_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "skyline: SKYLINE_ACCESS_LOG='maybe': expected a flag" in said and "Traceback" not in said


def served_lines(redis_url: str, tmp_path: Path, **env: str) -> list[str]:
    """The log lines of a gunicorn started with ``env`` that answered one GET /catalog."""
    processes = Processes(environment(**LIVE_ENV, REDIS_URL=redis_url, **env))
    port = free_port()
    processes.start(api_command(port, workers=1))
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        reply = requests.get(
            f"http://127.0.0.1:{port}/catalog", headers={"X-Request-ID": "settings-7"}, timeout=10
        )
        assert reply.status_code == 200
    finally:
        processes.stop()
    return Path(processes.logs[0].name).read_text(errors="replace").splitlines()


def test_access_log_no_writes_no_access_line_and_text_lines_carry_the_request_id(redis_server, tmp_path):
    quiet = served_lines(redis_server.url, tmp_path, SKYLINE_ACCESS_LOG="no", SKYLINE_LOG_FORMAT="json")
    parsed = [json.loads(line) for line in quiet if line.startswith("{")]
    assert parsed and len(parsed) == len(quiet), "JSON lines only"
    assert [line for line in parsed if line["logger"] == "gunicorn.error"], "gunicorn's own lines are there"
    assert not [line for line in parsed if line["logger"] == "skyline.access"], quiet
    # The same request with the access log on (its default), in text: the line is there.
    readable = served_lines(redis_server.url, tmp_path, SKYLINE_LOG_FORMAT="text")
    (access,) = [line for line in readable if " skyline.access [settings-7] request " in line]
    assert "route=/catalog" in access and "status=200" in access and "INFO" in access
    assert not [line for line in readable if line.startswith("{")], "no JSON line in text"

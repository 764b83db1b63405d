"""What reading an index over every partition costs Redis (issue 56, store/partitioned.py).

An index of games is one sorted set per partition (1,024); a sweeper, a webhook worker or the
lobby reads it whole in one script. This measures that script's Redis time (INFO commandstats'
``usec_per_call``, so the client's own time is left out) on one embedded Redis, for an index empty,
holding 50 games, and holding 5,000 (every partition non-empty), and beside it, in the same run,
the one-key read it replaced (``ZRANGEBYSCORE`` of one sorted set holding the same entries).

    .venv/bin/python bench/partition_scans.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.run.embedded import EmbeddedRedis  # noqa: E402
from service.store.games import new_game_id  # noqa: E402
from service.store.keys import index_of  # noqa: E402
from service.store.partitioned import PartitionedIndex  # noqa: E402

CALLS = 200


def redis_usec(client: redis.Redis, command: str, call) -> float:
    client.config_resetstat()
    for _ in range(CALLS):
        call()
    return float(client.info("commandstats")[f"cmdstat_{command}"]["usec_per_call"])


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder), appendonly=False).start()
        try:
            client = redis.Redis(unix_socket_path=server.socket)
            index = PartitionedIndex(client, "bench-due")
            later = time.time() + 10**6  # entries not due: the common case of a sweep
            held = 0
            print("entries  partitioned claim (µs of Redis)  one key ZRANGEBYSCORE (µs)")
            for entries in (0, 50, 5000):
                while held < entries:
                    game_id = new_game_id()
                    client.zadd(index_of("bench-due", game_id), {game_id: later})
                    client.zadd("bench-one-key", {game_id: later})
                    held += 1
                now = time.time()
                index.claim(now, now + 60, 50)  # the script loaded
                scan = redis_usec(client, "evalsha", lambda at=now: index.claim(at, at + 60, 50))
                one = redis_usec(
                    client,
                    "zrangebyscore",
                    lambda at=now: client.zrangebyscore("bench-one-key", "-inf", at, 0, 50),
                )
                print(f"{entries:7d}  {scan:31.1f}  {one:26.1f}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()

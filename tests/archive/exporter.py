"""A process that exports the whole archive, as `skyline export` will, and reports its memory.

    python -m tests.archive.exporter <postgresql URL> <batch>

Prints the games and log entries it streamed and by how much its resident memory rose at most
while it streamed them (kB), sampled after each game: libpq's buffers count, which tracemalloc
cannot see (and getrusage's peak would include the memory of the process that forked this one).
"""

from __future__ import annotations

import os
import sys

from service.archive.archive import Archive


def resident_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def main(url: str, batch: str) -> int:
    with Archive(url) as archive:
        archive.has_game("warm-up")  # the pool's connection and the modules' memory, before measuring
        before = highest = resident_kb()
        games = entries = 0
        for item in archive.stream_games(batch=int(batch)):
            games += 1
            entries += len(item.game.log)
            del item
            highest = max(highest, resident_kb())
    print(games, entries, highest - before)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

"""A process that archives one game, as an archiving worker would, for the crash tests.

    python -m tests.archive.writer <postgresql URL> <game id> <moves> <application name>

Prints ``wrote`` (exit 0), ``already`` (exit 0) or ``unavailable: ...`` (exit 3).
"""

from __future__ import annotations

import sys

from service.archive.archive import Archive, ArchiveUnavailable

from .games import a_game


def main(url: str, game_id: str, moves: str, name: str) -> int:
    game = a_game(game_id, moves=int(moves))
    with Archive(url, name=name, timeout=5) as archive:
        try:
            wrote = archive.write_game(game)
        except ArchiveUnavailable as error:
            print(f"unavailable: {error}", flush=True)
            return 3
    print("wrote" if wrote else "already", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

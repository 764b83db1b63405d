"""A process that archives one rated game (Ada, Bea and an easy bot), as an archiving worker would,
for the crash tests of the ratings.

    python -m tests.archive.rated_writer <postgresql URL> <game id> <application name>

Prints ``wrote`` (exit 0), ``already`` (exit 0) or ``unavailable: ...`` (exit 3).
"""

from __future__ import annotations

import sys

from harness.rated_games import bot, human, rated_game
from service.archive.archive import Archive, ArchiveUnavailable


def the_game(game_id: str):  # type: ignore[no-untyped-def]
    return rated_game(game_id, [human(0, "p_ada"), human(1, "p_bea"), bot(2, "easy")], [2, 1, 3])


def main(url: str, game_id: str, name: str) -> int:
    with Archive(url, name=name, timeout=5) as archive:
        try:
            wrote = archive.write_game(the_game(game_id))
        except ArchiveUnavailable as error:
            print(f"unavailable: {error}", flush=True)
            return 3
    print("wrote" if wrote else "already", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

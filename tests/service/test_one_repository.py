"""Issue 61: one place reads a game from both stores (service/play/repository.py).

Every reader of a game (its view, moves, log and stream, versions, pictures, record, rematch,
a player's finished games, the webhooks' fan-out) asks ``GameRepository``; none reads the
archive's reads itself, so none can forget that a game may have left Redis.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPOSITORY = "service/play/repository.py"
# The archive's reads of one game or of a player's games: the repository's alone.
ARCHIVE_READS = {"read_game", "read_log", "snapshot_at_or_before", "player_games", "has_game"}
# Outside the reads: the archive's own room, the archiver (writes), export and import (whole archive).
ALLOWED = {REPOSITORY, "worker/archiver.py", "service/run/exchange.py"}


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }


def test_only_the_repository_reads_a_game_from_the_archive() -> None:
    offenders = {}
    for path in sorted([*ROOT.glob("service/**/*.py"), *ROOT.glob("worker/**/*.py")]):
        name = path.relative_to(ROOT).as_posix()
        if name in ALLOWED or name.startswith("service/archive/"):
            continue
        found = _calls(path) & ARCHIVE_READS
        if found:
            offenders[name] = sorted(found)
    assert not offenders, f"archive reads outside {REPOSITORY}: {offenders}"


def test_the_check_finds_an_archive_read(tmp_path: Path) -> None:
    sneaky = tmp_path / "reader.py"
    sneaky.write_text("def read(archive, game_id):\n    return archive.read_log(game_id, 1)\n")
    assert _calls(sneaky) & ARCHIVE_READS == {"read_log"}


def test_one_replay_and_one_record_builder() -> None:
    """The engine's replay of a log is written once (service/play/replay.py), and so is a record."""
    for path in sorted(ROOT.glob("service/**/*.py")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        if name != "service/play/replay.py":
            assert ".apply_listed(" not in text or name == "service/play/games.py", name
        if name != "service/play/games.py":
            assert '"moves": [{"seat"' not in text, f"{name} builds a record itself"

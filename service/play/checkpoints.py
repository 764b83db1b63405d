"""States of games at versions, kept by a process: a cache of the one replay (``replay.py``),
never a second source of truth. The versions' reads keep theirs (``versions.py``), the log's
events made by replay theirs (``repository.py``)."""

from __future__ import annotations

import threading
from collections import OrderedDict


class Checkpoints:
    """States of games at versions, as JSON, least recently used dropped beyond ``max_bytes``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> bytes | None:
        with self._lock:
            found = self._entries.get((game_id, version))
            if found is not None:
                self._entries.move_to_end((game_id, version))
            return found

    def put(self, game_id: str, version: int, state: bytes) -> None:
        if len(state) > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop((game_id, version), None)
            self.size -= len(old) if old is not None else 0
            self._entries[(game_id, version)] = state
            self.size += len(state)
            while self.size > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._entries)

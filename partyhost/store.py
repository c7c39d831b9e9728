"""SQLite snapshots of the party, so a restarted host resumes where it stopped.

One row holds the latest snapshot (JSON of :meth:`Party.to_dict` plus the game clock). Writes
use WAL and ``synchronous=NORMAL``: a write costs well under a millisecond, small enough for
the engine loop (see ``docs/performance.md``).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time


class Store:
    """The snapshot file ``<folder>/party.sqlite3``.

    Args:
        folder: the data folder; created when missing.
    Raises:
        OSError: the folder cannot be created.
    """

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.path = os.path.join(folder, "party.sqlite3")
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 1),"
            " saved_at REAL NOT NULL, data TEXT NOT NULL)"
        )
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._last = ""

    def host_key(self) -> str:
        """The secret that gives a TV page on another device host powers: made once, then kept,
        so a restarted host does not silently demote that TV."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'host_key'").fetchone()
        if row:
            return row[0]
        key = secrets.token_urlsafe(12)
        self._db.execute("INSERT INTO meta (key, value) VALUES ('host_key', ?)", (key,))
        return key

    def save(self, snapshot: dict) -> None:
        """Write ``snapshot`` (JSON-ready) unless it equals the last one written."""
        text = json.dumps(snapshot, ensure_ascii=False, sort_keys=True)
        if text == self._last:
            return
        self._db.execute(
            "INSERT INTO snapshot (id, saved_at, data) VALUES (1, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET saved_at = excluded.saved_at, data = excluded.data",
            (time.time(), text),
        )
        self._last = text

    def load(self) -> dict | None:
        """The latest snapshot, or None when there is none."""
        row = self._db.execute("SELECT data FROM snapshot WHERE id = 1").fetchone()
        return json.loads(row[0]) if row else None

    def clear(self) -> None:
        """Forget the saved party (``--fresh``)."""
        self._db.execute("DELETE FROM snapshot")
        self._last = ""

    def close(self) -> None:
        """Close the database."""
        self._db.close()

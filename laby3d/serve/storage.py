"""The class's state in one SQLite file (stdlib ``sqlite3``): pupils' designs and the teacher's
settings, so stopping and starting ``laby3d serve`` on the same folder loses nothing.

A pupil is stored under the key :func:`laby3d.filenames.safe_name` gives their name; no name a
client sends ever becomes a path (the only file is ``class.sqlite3`` in the class folder).
Each call opens its own connection: calls come from the event loop and worker threads alike.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATABASE = "class.sqlite3"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS pupils (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    design TEXT NOT NULL,
    summary TEXT NOT NULL,
    preview TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True, kw_only=True)
class Pupil:
    """One pupil's saved design: ``key`` (file-name safe), ``name`` as typed, the flat ``design``,
    the ``summary`` of its printability report and when it was saved (Unix time, s)."""

    key: str
    name: str
    design: dict[str, Any]
    summary: dict[str, Any]
    updated: float


class ClassStore:
    """Pupils and settings of one class, in ``folder/class.sqlite3``."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / DATABASE
        with self._connection() as connection:
            connection.executescript(_SCHEMA)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=10)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            with connection:  # commits, or rolls back on error
                yield connection
        finally:
            connection.close()

    def save_pupil(
        self, *, key: str, name: str, design: dict[str, Any], summary: dict[str, Any], preview: str
    ) -> Pupil:
        """Store (or replace) a pupil's design, with its report's summary and its 2D preview (SVG)."""
        pupil = Pupil(key=key, name=name, design=design, summary=summary, updated=time.time())
        with self._connection() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO pupils (key, name, design, summary, preview, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key, name, json.dumps(design), json.dumps(summary), preview, pupil.updated),
            )
        return pupil

    def preview(self, key: str) -> str | None:
        """The 2D preview (SVG text) saved with a pupil's design, if any."""
        with self._connection() as connection:
            row = connection.execute("SELECT preview FROM pupils WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def pupil(self, key: str) -> Pupil | None:
        """The pupil stored under ``key``, if any."""
        with self._connection() as connection:
            row = connection.execute(
                "SELECT key, name, design, summary, updated FROM pupils WHERE key = ?", (key,)
            ).fetchone()
        return _pupil(row) if row else None

    def pupils(self) -> list[Pupil]:
        """Every pupil, by name."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT key, name, design, summary, updated FROM pupils ORDER BY name COLLATE NOCASE, key"
            ).fetchall()
        return [_pupil(row) for row in rows]

    def delete_pupil(self, key: str) -> bool:
        """Remove a pupil; whether there was one."""
        with self._connection() as connection:
            return connection.execute("DELETE FROM pupils WHERE key = ?", (key,)).rowcount > 0

    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's JSON value (``default`` when unset)."""
        with self._connection() as connection:
            row = connection.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else default

    def set_setting(self, name: str, value: Any) -> None:
        """Store a setting as JSON."""
        with self._connection() as connection:
            connection.execute("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", (name, json.dumps(value)))


def _pupil(row: tuple[Any, ...]) -> Pupil:
    key, name, design, summary, updated = row
    return Pupil(key=key, name=name, design=json.loads(design), summary=json.loads(summary), updated=updated)

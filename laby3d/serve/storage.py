"""The class's state in one SQLite file (stdlib ``sqlite3``): the pupils (name, the session that
holds it, their design with its printability report and status) and the teacher's settings, so
stopping and starting ``laby3d serve`` on the same folder loses nothing.

A pupil is stored under the key of their folded name (:func:`laby3d.serve.identity.name_key`); no
name a client sends ever becomes a path (the only file is ``class.sqlite3`` in the class folder,
readable by its owner only: it holds the teacher's token and the session key). Each call opens its
own connection: calls come from the event loop and worker threads alike.
"""

from __future__ import annotations

import json
import os
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
    session TEXT,
    design TEXT,
    report TEXT,
    status TEXT,
    version INTEGER,
    preview TEXT,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = "key, name, session, design, report, status, version, updated"


@dataclass(frozen=True, kw_only=True)
class Pupil:
    """One pupil: ``key`` (their folded name), ``name`` as typed, the ``session`` id of the browser
    that holds the name (None when free), the flat ``design`` (None until saved), its
    printability ``report`` and ``status`` (``ok``, ``WARN: …``, ``invalid: …``) under the locks
    of ``version``, and when it last changed (Unix time, s)."""

    key: str
    name: str
    session: str | None
    design: dict[str, Any] | None
    report: dict[str, Any] | None
    status: str | None
    version: int | None
    updated: float


class ClassStore:
    """Pupils and settings of one class, in ``folder/class.sqlite3`` (mode 0600)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = folder / DATABASE
        os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))  # created private before SQLite opens it
        os.chmod(self.path, 0o600)  # and made private if an older version created it
        with self._connection() as connection:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(pupils)")}
            if columns and "session" not in columns:  # the first version's table: its designs move over
                connection.execute("ALTER TABLE pupils RENAME TO pupils_v1")
            connection.executescript(_SCHEMA)
            if columns and "session" not in columns:
                connection.execute(
                    "INSERT INTO pupils (key, name, design, preview, updated) "
                    "SELECT key, name, design, preview, updated FROM pupils_v1"
                )
                connection.execute("DROP TABLE pupils_v1")

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=10)
        try:
            connection.execute("PRAGMA journal_mode=WAL")  # its -wal and -shm files take the file's mode
            connection.execute("PRAGMA synchronous=NORMAL")
            with connection:  # commits, or rolls back on error
                yield connection
        finally:
            connection.close()

    def join(self, *, key: str, name: str, session: str) -> None:
        """Give ``session`` the name (a new pupil, or one whose name was free)."""
        with self._connection() as connection:
            connection.execute(
                "INSERT INTO pupils (key, name, session, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET session = excluded.session",
                (key, name, session, time.time()),
            )

    def release(self, key: str) -> bool:
        """Free a pupil's name (their design stays); whether there was such a pupil."""
        with self._connection() as connection:
            return connection.execute("UPDATE pupils SET session = NULL WHERE key = ?", (key,)).rowcount > 0

    def sessions(self) -> dict[str, str]:
        """Every held name: key → session id."""
        with self._connection() as connection:
            rows = connection.execute("SELECT key, session FROM pupils WHERE session IS NOT NULL").fetchall()
        return dict(rows)

    def save_design(
        self,
        *,
        key: str,
        design: dict[str, Any],
        report: dict[str, Any] | None,
        status: str,
        version: int,
        preview: str,
    ) -> None:
        """Store a pupil's design with its report, status (under the locks of ``version``) and its
        2D preview (SVG)."""
        with self._connection() as connection:
            connection.execute(
                "UPDATE pupils SET design = ?, report = ?, status = ?, version = ?, preview = ?, updated = ? "
                "WHERE key = ?",
                (json.dumps(design), json.dumps(report), status, version, preview, time.time(), key),
            )

    def set_status(
        self,
        *,
        key: str,
        design: dict[str, Any],
        report: dict[str, Any] | None,
        status: str,
        version: int,
        preview: str | None = None,
    ) -> None:
        """A pupil's report and status computed again (after new locks) for ``design``; nothing
        changes if the pupil saved another design meanwhile."""
        with self._connection() as connection:
            connection.execute(
                "UPDATE pupils SET report = ?, status = ?, version = ?, preview = COALESCE(?, preview) "
                "WHERE key = ? AND design = ?",
                (json.dumps(report), status, version, preview, key, json.dumps(design)),
            )

    def preview(self, key: str) -> str | None:
        """The 2D preview (SVG text) saved with a pupil's design, if any."""
        with self._connection() as connection:
            row = connection.execute("SELECT preview FROM pupils WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def pupil(self, key: str) -> Pupil | None:
        """The pupil stored under ``key``, if any."""
        with self._connection() as connection:
            row = connection.execute(f"SELECT {_COLUMNS} FROM pupils WHERE key = ?", (key,)).fetchone()
        return _pupil(row) if row else None

    def pupils(self) -> list[Pupil]:
        """Every pupil, by name."""
        with self._connection() as connection:
            rows = connection.execute(f"SELECT {_COLUMNS} FROM pupils ORDER BY name COLLATE NOCASE, key").fetchall()
        return [_pupil(row) for row in rows]

    def delete_pupil(self, key: str) -> bool:
        """Remove a pupil and their design; whether there was one."""
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
    key, name, session, design, report, status, version, updated = row
    return Pupil(
        key=key,
        name=name,
        session=session,
        design=json.loads(design) if design is not None else None,
        report=json.loads(report) if report is not None else None,
        status=status,
        version=version,
        updated=updated,
    )

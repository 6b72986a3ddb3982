"""The class's state in one SQLite file (stdlib ``sqlite3``): the pupils (name, personal code,
the session that holds the name, their saved design and their draft, the report and status of
the design the class set takes) and the teacher's settings, so stopping and starting ``laby3d
serve`` on the same folder loses nothing.

A pupil's draft is their last valid preview, kept as they work (autosave); their design is what
they last saved ("Save my maze", or a download). The class set takes the saved design, else the
draft (:attr:`Pupil.kept`); its report, status and 2D preview are stored with the pupil.

A pupil is stored under the key of their folded name (:func:`laby3d.serve.identity.name_key`); no
name a client sends ever becomes a path: the files are ``class.sqlite3`` in the class folder,
readable by its owner only (it holds the teacher's token and the session key), and the outline
images pupils upload, in ``uploads/`` under the SHA-256 of their bytes, each with the pupils (or
the teacher) who uploaded it. Each call opens its
own connection: calls come from the event loop and worker threads alike.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from laby3d.errors import InternalError

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
    updated REAL NOT NULL,
    draft TEXT,
    changed REAL,
    saved REAL,
    pin TEXT
);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS uploads (
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    original TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (name, owner)
);
"""
#: The folder of the uploaded outline images, in the class folder.
UPLOADS = "uploads"
_COLUMNS = "key, name, session, design, report, status, version, updated, draft, changed, saved, pin"
#: Columns later versions added, and their type (added to an older file as it opens).
_ADDED = {"draft": "TEXT", "changed": "REAL", "saved": "REAL", "pin": "TEXT"}


@dataclass(frozen=True, kw_only=True)
class Pupil:
    """One pupil: ``key`` (their folded name), ``name`` as typed, the ``session`` id of the browser
    that holds the name (None when none does), the flat ``design`` they saved (None until saved)
    and their ``draft`` (their last valid preview), the printability ``report`` and ``status``
    (``ok``, ``WARN: …``, ``invalid: …``) of the design the class set takes under the locks of
    ``version``, when the row last changed (``updated``), when the draft last ``changed`` and the
    design was last ``saved`` (Unix time, s), and their personal code (``pin``)."""

    key: str
    name: str
    session: str | None
    design: dict[str, Any] | None
    report: dict[str, Any] | None
    status: str | None
    version: int | None
    updated: float
    draft: dict[str, Any] | None = None
    changed: float | None = None
    saved: float | None = None
    pin: str | None = None

    @property
    def kept(self) -> dict[str, Any] | None:
        """The design the class set takes: the saved one, else the draft."""
        return self.design if self.design is not None else self.draft

    @property
    def drafted(self) -> bool:
        """Whether the class set takes a draft the pupil never saved."""
        return self.design is None and self.draft is not None


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
            present = {row[1] for row in connection.execute("PRAGMA table_info(pupils)")}
            for column, kind in _ADDED.items():
                if column not in present:
                    connection.execute(f"ALTER TABLE pupils ADD COLUMN {column} {kind}")
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

    def join(self, *, key: str, name: str, session: str, pin: str) -> None:
        """Give ``session`` the name: a new pupil with personal code ``pin``, or the pupil of that
        name (their code unchanged)."""
        with self._connection() as connection:
            connection.execute(
                "INSERT INTO pupils (key, name, session, updated, pin) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET session = excluded.session",
                (key, name, session, time.time(), pin),
            )

    def upgrade(self, key_of: Callable[[str], str], new_pin: Callable[[], str]) -> None:
        """Bring pupils stored by an older version to today's rules: each under the key of its
        name (``key_of``; one that another pupil holds already stays as it was) and with a
        personal code."""
        with self._connection() as connection:
            rows = connection.execute("SELECT key, name, pin FROM pupils").fetchall()
            keys = {key for key, _, _ in rows}
            for key, name, pin in rows:
                wanted = key_of(name)
                if wanted != key and wanted and wanted not in keys:
                    connection.execute("UPDATE pupils SET key = ? WHERE key = ?", (wanted, key))
                    keys = (keys - {key}) | {wanted}
                    key = wanted
                if not pin:
                    connection.execute("UPDATE pupils SET pin = ? WHERE key = ?", (new_pin(), key))

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
        saved: bool = True,
    ) -> None:
        """Store a pupil's design with its report, status (under the locks of ``version``) and 2D
        preview (SVG): as their saved design and their draft, or (``saved`` false: a preview,
        autosaved) as their draft only, whose report, status and preview become the pupil's
        while they have saved nothing (the class set then takes the draft)."""
        now, text = time.time(), json.dumps(design)
        values = (json.dumps(report), status, version, preview, now)
        with self._connection() as connection:
            if saved:
                connection.execute(
                    "UPDATE pupils SET design = ?, draft = ?, changed = ?, saved = ?, report = ?, status = ?, "
                    "version = ?, preview = ?, updated = ? WHERE key = ?",
                    (text, text, now, now, *values, key),
                )
                return
            unsaved = "CASE WHEN design IS NULL THEN ? ELSE {} END"
            kept = ", ".join(
                f"{name} = {unsaved.format(name)}" for name in ("report", "status", "version", "preview", "updated")
            )
            connection.execute(
                f"UPDATE pupils SET draft = ?, changed = ?, {kept} WHERE key = ?",
                (text, now, *values, key),
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
        """A pupil's report and status computed again (after new locks) for ``design`` (the one the
        class set takes); nothing changes if the pupil saved or drafted another design meanwhile."""
        with self._connection() as connection:
            connection.execute(
                "UPDATE pupils SET report = ?, status = ?, version = ?, preview = COALESCE(?, preview) "
                "WHERE key = ? AND COALESCE(design, draft) = ?",
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
            connection.execute("DELETE FROM uploads WHERE owner = ?", (key,))
            return connection.execute("DELETE FROM pupils WHERE key = ?", (key,)).rowcount > 0

    def save_upload(self, *, owner: str, name: str, data: bytes, original: str) -> None:
        """Keep an uploaded image checked already, stored as ``uploads/name`` (``name`` is its
        digest: the same image is one file, whoever uploads it), as ``owner``'s (a pupil's key,
        or :data:`laby3d.serve.uploads.TEACHER`), ``original`` the file name they gave."""
        from laby3d.serve.uploads import STORED_NAME

        if not STORED_NAME.fullmatch(name):
            raise InternalError(f"an upload is stored under its digest, not {name!r}")
        folder = self.path.parent / UPLOADS
        folder.mkdir(exist_ok=True, mode=0o700)
        path = folder / name
        if self._stored(path, name) is None:
            temporary = folder / f".{name}.{os.getpid()}.part"
            try:
                descriptor = os.open(temporary, os.O_CREAT | os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
                with os.fdopen(descriptor, "wb") as file:
                    file.write(data)
                os.replace(temporary, path)
            except OSError:  # a full disk: no part of the file stays
                temporary.unlink(missing_ok=True)
                raise
        with self._connection() as connection:
            connection.execute(
                "INSERT OR IGNORE INTO uploads (name, owner, original, created) VALUES (?, ?, ?, ?)",
                (name, owner, original, time.time()),
            )

    def upload_count(self, owner: str) -> int:
        """How many images ``owner`` uploaded."""
        with self._connection() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM uploads WHERE owner = ?", (owner,)).fetchone()[0])

    def upload_path(self, name: str, owners: tuple[str, ...] | None = None) -> Path | None:
        """The stored file of upload ``name`` when one of ``owners`` uploaded it (None: anyone
        in the class) and the file is still what was stored (a regular file, not a link, whose
        bytes have that digest); else None."""
        from laby3d.serve.uploads import STORED_NAME

        if not STORED_NAME.fullmatch(name):
            return None
        with self._connection() as connection:
            rows = connection.execute("SELECT owner FROM uploads WHERE name = ?", (name,)).fetchall()
        if not any(owners is None or owner in owners for (owner,) in rows):
            return None
        return self._stored(self.path.parent / UPLOADS / name, name)

    @staticmethod
    def _stored(path: Path, name: str) -> Path | None:
        """``path`` when it is a regular file (never following a link) whose digest is ``name``'s."""
        import hashlib
        import stat

        from laby3d.serve.uploads import DIGEST_DIGITS, MAX_UPLOAD_BYTES

        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a link, a pipe: no
        except OSError:
            return None
        with os.fdopen(descriptor, "rb") as file:
            found = os.fstat(file.fileno())
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_UPLOAD_BYTES:
                return None
            digest = hashlib.sha256(file.read()).hexdigest()
        return path if digest[:DIGEST_DIGITS] == name.partition(".")[0] else None

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
    key, name, session, design, report, status, version, updated, draft, changed, saved, pin = row
    return Pupil(
        key=key,
        name=name,
        session=session,
        design=json.loads(design) if design is not None else None,
        report=json.loads(report) if report is not None else None,
        status=status,
        version=version,
        updated=updated,
        draft=json.loads(draft) if draft is not None else None,
        changed=changed,
        saved=saved,
        pin=pin,
    )

"""The one place that writes files: all or nothing, inside the output folder, one run per folder.

:func:`write_outputs` writes a group of files (one maze's outputs) so that either every file is
replaced or none is: each goes first to a temporary file in its own folder, and only when all are
written are they renamed into place. On any error this run's temporaries are removed, earlier
files are left as they were and an :class:`OutputError` says, on one line, which path failed and
why in words (read-only, no space left, is a directory, parent is a file, permission denied).

Temporary names carry the writing process's id and a token of the call
(``.<pid>.<token>.<n>.laby3d-tmp``), so :func:`remove_stale_temporaries` deletes only those of
dead processes and this process's own leftovers, never another run's files in flight.
:func:`output_lock` keeps a second run out of a folder while one is writing there.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from laby3d.errors import OutputError
from laby3d.quoting import shown

#: Ending of every temporary file :func:`write_outputs` creates.
TEMPORARY_SUFFIX = ".laby3d-tmp"
#: Lock file :func:`output_lock` holds in an output folder.
LOCK_NAME = ".laby3d.lock"
#: Longest file name (bytes of its UTF-8 form) the usual file systems take.
MAX_NAME_BYTES = 255

_TEMPORARY = re.compile(rf"\.(\d+)\.[0-9a-f]+\.\d+{re.escape(TEMPORARY_SUFFIX)}")
_CAUSES = {
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "parent is a file",
    errno.ENAMETOOLONG: "file name too long",
    errno.ELOOP: "too many levels of symbolic links",
}
#: Temporaries this process is writing right now (other threads' included): never stale.
_IN_FLIGHT: set[Path] = set()
_IN_FLIGHT_LOCK = threading.Lock()


def write_atomic(path: str | os.PathLike[str], data: bytes, *, root: str | os.PathLike[str] | None = None) -> Path:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    return write_outputs({Path(path): data}, root=root)[0]


def write_outputs(
    contents: Mapping[str, bytes] | Mapping[Path, bytes], *, root: str | os.PathLike[str] | None = None
) -> list[Path]:
    """Write every ``path -> bytes`` all or nothing; returns the paths written, in order.

    With ``root``, every file must land inside that folder once symbolic links are resolved
    (a link pointing out of it is refused, never followed). Raises :class:`OutputError`.
    """
    targets = [Path(path) for path in contents]
    _check_names(targets)
    root_folder = _real_root(Path(root)) if root is not None else None
    token = secrets.token_hex(4)
    temporaries: list[Path] = []
    placed: list[tuple[Path, Path, Path]] = []  # temporary, its final path, the path as asked
    try:
        for index, (target, data) in enumerate(zip(targets, contents.values(), strict=True)):
            folder = _prepared_folder(target, root_folder)
            final = folder / target.name
            if final.is_dir() and not final.is_symlink():
                raise OutputError(f"cannot write {target}: is a directory")
            temporary = folder / f".{os.getpid()}.{token}.{index}{TEMPORARY_SUFFIX}"
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT.add(temporary)
            temporaries.append(temporary)
            _write_new(temporary, data, target)
            placed.append((temporary, final, target))
        for temporary, final, target in placed:
            _replace(temporary, final, target)
    finally:
        for temporary in temporaries:
            try:
                temporary.unlink(missing_ok=True)
            except OSError:
                pass  # the folder itself became unwritable: nothing more can be done
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT.discard(temporary)
    return targets


def _check_names(targets: list[Path]) -> None:
    """Every name fits the file system, and no two paths differ only in case."""
    seen: dict[str, Path] = {}
    for target in targets:
        for part in target.parts:
            size = len(os.fsencode(part))
            if size > MAX_NAME_BYTES:
                raise OutputError(
                    f"cannot write {target}: the name {shown(part, 40)} is {size} bytes, file systems allow "
                    f"{MAX_NAME_BYTES}"
                )
        key = str(target.absolute()).casefold()
        if key in seen:
            raise OutputError(
                f"cannot write {target}: same name as {seen[key]} but for case (one would overwrite the other on "
                "Windows and macOS)"
            )
        seen[key] = target


def _real_root(root: Path) -> Path:
    """The output folder, created if missing, with symbolic links resolved."""
    if os.path.lexists(root) and not root.is_dir():
        raise OutputError(f"cannot write into {root}: it is a file, not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create the output folder {root}: {cause(error)}") from None
    return root.resolve()


def _prepared_folder(target: Path, root: Path | None) -> Path:
    """The real (symlink-free) folder of ``target``, created if missing, checked inside ``root``."""
    folder = Path(os.path.normpath(target.parent.absolute()))  # '..' resolved first: mkdir never climbs out
    existing = folder
    while not os.path.lexists(existing):
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"cannot write {target}: parent {existing} is a file")
    _check_inside(existing.resolve(), root, target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {target}: cannot create folder {folder}: {cause(error)}") from None
    real = folder.resolve()
    _check_inside(real, root, target)
    return real


def _check_inside(real: Path, root: Path | None, target: Path) -> None:
    if root is not None and real != root and root not in real.parents:
        raise OutputError(f"cannot write {target}: it leads to {real}, outside the output folder {root}")


def _write_new(temporary: Path, data: bytes, target: Path) -> None:
    """Create ``temporary`` (never an existing file, never through a link) holding ``data``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(temporary, flags, 0o666)  # the umask applies, as for any new file
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
        finally:
            os.close(handle)
    except OSError as error:
        raise OutputError(f"cannot write {target}: {cause(error)}") from None


def _replace(temporary: Path, final: Path, target: Path) -> None:
    try:
        os.replace(temporary, final)
    except OSError as error:
        raise OutputError(f"cannot write {target}: {cause(error)}") from None


def cause(error: OSError) -> str:
    """The reason an operating-system error gives, in words (``"no space left on device"``)."""
    if error.errno in _CAUSES:
        return _CAUSES[error.errno]
    return (error.strerror or str(error)).lower()


def remove_stale_temporaries(folder: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporaries under ``folder`` left by dead processes or by this process outside
    a write (an interrupted run); returns them. Symbolic links are not followed.

    Another live process's temporaries stay: they are a concurrent run's files in flight.
    """
    removed = []
    for directory, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not os.path.islink(os.path.join(directory, name))]
        for name in files:
            match = _TEMPORARY.fullmatch(name)
            if not match:
                continue
            path = Path(directory, name)
            pid = int(match[1])
            with _IN_FLIGHT_LOCK:
                in_flight = path.absolute() in _IN_FLIGHT or Path(os.path.realpath(path)) in _IN_FLIGHT
            if in_flight or (pid != os.getpid() and _process_alive(pid)):
                continue
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    except (OverflowError, OSError):
        return False
    return True


@contextmanager
def output_lock(folder: str | os.PathLike[str], *, wait: bool = False) -> Iterator[Path]:
    """Hold ``folder``'s lock file (created with the folder if missing) for the ``with`` block.

    A second run on the same folder gets an :class:`OutputError` at once, or waits for the lock
    with ``wait=True``. The lock file is removed when the block ends (so a finished run leaves
    only its outputs); a process that dies releases the lock with it.
    """
    import fcntl

    path = _real_root(Path(folder)) / LOCK_NAME
    while True:
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC, 0o666)
        except OSError as error:
            raise OutputError(f"cannot lock {path}: {cause(error)}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            holder = os.pread(handle, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(handle)
            raise OutputError(
                f"{folder} is in use by another laby3d run (process {holder}, lock {path}); "
                "wait for it to finish or choose another output folder"
            ) from None
        try:
            current = os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            current = -1
        if current == os.fstat(handle).st_ino:
            break
        os.close(handle)  # the previous holder removed this file as it finished: lock the new one
    try:
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass  # the folder became unwritable: the empty lock file stays, harmless
        os.close(handle)  # closing releases the lock

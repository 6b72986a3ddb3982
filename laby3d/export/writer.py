"""The one place that writes files: all or nothing, inside the output folder, one run per folder.

:func:`write_outputs` writes a group of files (one maze's outputs) so that either every file is
replaced or none is: each goes first to a temporary file in its own folder, and only when all are
written are they renamed into place. On any error this run's temporaries are removed, earlier
files are left as they were (a rename that fails midway puts back the files already renamed:
the previous file, kept as a hard link until the group is in place, or nothing when there was
none) and an :class:`OutputError` says, on one line, which path failed and why in words
(read-only, no space left, is a directory, parent is a file, permission denied, a name the file
system refuses).

Temporary names carry the writing process's id and a token of the call
(``.<pid>.<token>.<n>.laby3d-tmp``), so :func:`remove_stale_temporaries` deletes only those of
dead processes and this process's own leftovers, never another run's files in flight.
:func:`output_lock` keeps a second run out of a folder while one is writing there (``filelock``:
the operating system's own lock, on Windows as on Unix, released when its process dies).

Nothing is written in the operating system's folders (:data:`SYSTEM_FOLDERS`: ``/etc``, ``/usr``,
``/proc``…), and an output folder is never the root of the file system or a home folder itself
(:func:`check_output_folder`); ``~`` and ``$VARIABLES`` in a typed path are expanded as a shell
would (:func:`expand_path`).
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from laby3d.errors import OutputError, ParameterError
from laby3d.quoting import shown, shown_path

#: Ending of every temporary file :func:`write_outputs` creates.
TEMPORARY_SUFFIX = ".laby3d-tmp"
#: Lock file :func:`output_lock` holds in an output folder.
LOCK_NAME = ".laby3d.lock"
#: Longest file name (bytes of its UTF-8 form) the usual file systems take.
MAX_NAME_BYTES = 255
#: Longest whole path (bytes, absolute) written: Linux's PATH_MAX less room for a temporary's name.
MAX_PATH_BYTES = 4000

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
#: Folders of the operating system, each with everything inside it: laby3d writes nothing there
#: (Linux and macOS; on Windows the folders of ``SystemRoot``, ``ProgramFiles``… are added).
SYSTEM_FOLDERS = (
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/snap",
    "/sys", "/usr", "/var", "/System", "/Library", "/Applications", "/private/etc", "/private/var",
)  # fmt: skip
#: Folders inside :data:`SYSTEM_FOLDERS` meant for anyone's files: the temporary folders.
OPEN_FOLDERS = ("/var/tmp", "/var/folders", "/private/var/tmp", "/private/var/folders")
#: Windows' system folders, by the environment variable naming each.
WINDOWS_FOLDERS = ("SystemRoot", "ProgramFiles", "ProgramFiles(x86)", "ProgramData")
#: Folders that hold every user's home folder (never an output folder themselves).
HOMES = ("/home", "/Users")
_VARIABLE = re.compile(r"\$(?:\{(?P<braced>[^}]*)\}|(?P<name>\w+))")
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
                raise OutputError(f"cannot write {shown_path(target)}: is a directory")
            temporary = _temporary(folder, token, index, temporaries)
            _write_new(temporary, data, target)
            placed.append((temporary, final, target))
        _place(placed, token, temporaries)
    finally:
        _remove_temporaries(temporaries)
    return targets


def _remove_temporaries(temporaries: list[Path]) -> None:
    """Remove every temporary (and the previous files' backups) even when Ctrl-C comes in the
    middle: the clean-up goes on to the end, then the interruption is raised (a Ctrl-C after a
    run had placed its files used to leave the backups not yet removed)."""
    remaining = list(temporaries)
    interrupted: BaseException | None = None
    while remaining:
        try:
            while remaining:
                temporary = remaining[-1]
                try:
                    temporary.unlink(missing_ok=True)
                except OSError:
                    pass  # the folder itself became unwritable: nothing more can be done
                with _IN_FLIGHT_LOCK:
                    _IN_FLIGHT.discard(temporary)
                remaining.pop()
        except BaseException as error:  # noqa: BLE001 - KeyboardInterrupt, SystemExit: after the clean-up
            interrupted = interrupted or error
    if interrupted is not None:
        raise interrupted


def _temporary(folder: Path, token: str, index: int, temporaries: list[Path]) -> Path:
    """A new temporary name in ``folder`` (recorded in ``temporaries``, never stale while in flight)."""
    temporary = folder / f".{os.getpid()}.{token}.{index}{TEMPORARY_SUFFIX}"
    with _IN_FLIGHT_LOCK:
        _IN_FLIGHT.add(temporary)
    temporaries.append(temporary)
    return temporary


def _place(placed: list[tuple[Path, Path, Path]], token: str, temporaries: list[Path]) -> None:
    """Rename every temporary to its final path; when one rename fails, undo the ones before it
    (each previous file is kept as a hard link, or a copy, until the whole group is in place)."""
    backup_token = secrets.token_hex(4)
    while backup_token == token:
        backup_token = secrets.token_hex(4)
    done: list[tuple[Path, Path | None, Path]] = []  # final path, its previous file's backup, as asked
    try:
        for index, (temporary, final, target) in enumerate(placed):
            backup = None
            if os.path.lexists(final):
                backup = _temporary(final.parent, backup_token, index, temporaries)
                _keep(final, backup, target)
            _replace(temporary, final, target)
            done.append((final, backup, target))
    except OutputError as error:
        failed = _undo(done)
        if failed:
            raise OutputError(f"{error}; and could not put back {shown_path(failed)}") from None
        raise


def _keep(final: Path, backup: Path, target: Path) -> None:
    """A second name (hard link) for ``final``'s current file, or a copy where links are not allowed."""
    try:
        os.link(final, backup, follow_symlinks=False)
        return
    except (OSError, NotImplementedError):
        pass
    try:
        shutil.copy2(final, backup, follow_symlinks=False)
    except OSError as error:
        raise OutputError(f"cannot write {shown_path(target)}: cannot keep the previous file: {cause(error)}") from None


def _undo(done: list[tuple[Path, Path | None, Path]]) -> Path | None:
    """Put back what was there before each renamed file; returns the first path that could not be."""
    failed = None
    for final, backup, target in reversed(done):
        try:
            if backup is None:
                final.unlink(missing_ok=True)
            else:
                os.replace(backup, final)
        except OSError:
            failed = failed or target
    return failed


def _check_names(targets: list[Path]) -> None:
    """Every name fits the file system, and no two paths differ only in case."""
    seen: dict[str, Path] = {}
    for target in targets:
        check_path(target)
        key = str(target.absolute()).casefold()
        if key in seen:
            raise OutputError(
                f"cannot write {shown_path(target)}: same name as {shown_path(seen[key])} but for case (one would "
                "overwrite the other on Windows and macOS)"
            )
        seen[key] = target


def check_path(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OutputError` naming ``path`` unless a file system can take it: no NUL
    character, no name over :data:`MAX_NAME_BYTES` bytes, at most :data:`MAX_PATH_BYTES` in all."""
    text = os.fspath(path)
    if "\0" in text:
        raise OutputError(f"cannot write {shown_path(text)}: a path cannot hold the NUL character")
    try:
        absolute = os.fsencode(os.path.abspath(text))
    except UnicodeEncodeError:
        raise OutputError(f"cannot write {shown_path(text)}: the file system cannot encode this name") from None
    if len(absolute) > MAX_PATH_BYTES:
        raise OutputError(
            f"cannot write {shown_path(text)}: the path is {len(absolute):,} bytes long, file systems allow "
            f"{MAX_PATH_BYTES:,}"
        )
    for part in Path(text).parts:
        size = len(os.fsencode(part))
        if size > MAX_NAME_BYTES:
            raise OutputError(
                f"cannot write {shown_path(text)}: the name {shown(part, 40)} is {size} bytes, file systems allow "
                f"{MAX_NAME_BYTES}"
            )


def expand_path(text: str) -> str:
    """``text`` with ``~`` (or ``~user``) at its start and ``$NAME`` or ``${NAME}`` expanded as a
    shell would; raises :class:`ParameterError` for a variable that is not set or a user that does
    not exist (a shell would leave an empty word, or the ``~``: a folder named ``$HOME`` or ``~``
    is never what was meant).

    >>> os.environ["LABY3D_CLASS"] = "5B"
    >>> expand_path("out/${LABY3D_CLASS}/$LABY3D_CLASS.stl")
    'out/5B/5B.stl'
    >>> expand_path("~") == os.path.expanduser("~")
    True
    """
    head, slash, rest = text.partition("/") if text.startswith("~") else ("", "", text)
    if head:
        home = os.path.expanduser(head)
        if home == head:
            raise ParameterError(
                f"names the home folder of {shown(head[1:])}, who is not a user here, got {shown(text)}"
            )
        head = home

    def value(found: re.Match[str]) -> str:
        name = found["braced"] if found["braced"] is not None else found["name"]
        if name not in os.environ:
            raise ParameterError(
                f"uses ${name}, which is not set (laby3d expands ~ and $VARIABLES as a shell would): set it or "
                f"write the path in full, got {shown(text)}"
            )
        return os.environ[name]

    return head + slash + _VARIABLE.sub(value, rest)


def _within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it (both absolute and normalised)."""
    path, folder = os.path.normcase(path), os.path.normcase(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _system_folders() -> list[str]:
    folders = [os.path.normpath(folder) for folder in SYSTEM_FOLDERS]
    return folders + [os.path.normpath(os.environ[name]) for name in WINDOWS_FOLDERS if os.environ.get(name)]


def system_folder(folder: str | os.PathLike[str]) -> str | None:
    """The folder of the operating system (:data:`SYSTEM_FOLDERS`) that ``folder`` is or lies
    in, as written or once symbolic links are resolved; None when it is in none (the temporary
    folders of :data:`OPEN_FOLDERS` are in none).

    >>> system_folder("/etc/laby3d"), system_folder("/var/tmp/class"), system_folder("/home/ana/mazes")
    ('/etc', None, None)
    """
    absolute = os.path.normpath(os.path.abspath(folder))
    for candidate in dict.fromkeys([absolute, os.path.realpath(absolute)]):
        if any(_within(candidate, os.path.normpath(open_folder)) for open_folder in OPEN_FOLDERS):
            continue
        for system in _system_folders():
            if _within(candidate, system):
                return system
    return None


def check_not_system(target: str | os.PathLike[str]) -> None:
    """Raise :class:`OutputError` when the file ``target`` would go in a folder of the operating
    system (:func:`system_folder`) or at the root of the file system."""
    folder = os.path.dirname(os.path.normpath(os.path.abspath(target)))
    system = system_folder(folder)
    if system is None and os.path.dirname(folder) != folder:
        return
    what = "the root of the file system" if system is None else "a folder of the operating system"
    raise OutputError(
        f"cannot write {shown_path(target)}: {shown_path(system or folder)} is {what}; write it in a folder "
        f"of your own, such as {shown_path(os.path.join('~', 'laby3d', Path(target).name), 60)}"
    )


def check_output_folder(folder: str | os.PathLike[str], *, example: str = "mazes") -> None:
    """Refuse, as the folder a run fills (a folder per job, a manifest, a lock), the root of a
    file system, a home folder itself (or the folder of every home) and a folder of the operating
    system; the message offers a new folder, ``~/laby3d/<example>``."""
    absolute = os.path.normpath(os.path.abspath(folder))
    home = os.path.normpath(os.path.expanduser("~"))
    suggestion = shown_path(os.path.join("~", "laby3d", example), 60)  # laby3d expands ~ as it is typed
    homes = [os.path.normcase(folder) for folder in HOMES]
    reason = None
    for candidate in dict.fromkeys([absolute, os.path.realpath(absolute)]):
        if os.path.dirname(candidate) == candidate:
            reason = "it is the root of the file system"
        elif os.path.normcase(candidate) in homes:
            reason = "it holds the home folders"
        elif _within(home, candidate) or os.path.normcase(os.path.dirname(candidate)) in homes:
            reason = "it is a home folder itself, where a run would add its folders, manifest and lock among yours"
        if reason:
            break
    system = system_folder(absolute)
    if reason is None and system is not None:
        inside = "it is" if os.path.normcase(system) == os.path.normcase(absolute) else "it is inside"
        reason = f"{inside} {shown_path(system)}, a folder of the operating system"
    if reason is not None:
        raise OutputError(
            f"cannot use {shown_path(folder)} as the output folder: {reason}; use a new folder such as {suggestion}"
        )


def _real_root(root: Path) -> Path:
    """The output folder, created if missing, with symbolic links resolved."""
    check_path(root)
    check_output_folder(root)
    if os.path.lexists(root) and not root.is_dir():
        raise OutputError(f"cannot write into {shown_path(root)}: it is a file, not a folder")
    try:
        make_folders(root)
        return root.resolve()
    except (OSError, RuntimeError) as error:
        reason = cause(error) if isinstance(error, OSError) else "too many levels of symbolic links"
        raise OutputError(f"cannot create the output folder {shown_path(root)}: {reason}") from None


def make_folders(folder: Path) -> None:
    """``folder`` and its missing parents, created one by one from the top (``Path.mkdir`` with
    ``parents=True`` recurses once per level: a path 1,500 folders deep overflowed it)."""
    missing = []
    current = Path(os.path.normpath(folder.absolute()))
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir()
        except FileExistsError:
            if not path.is_dir():
                raise


def _prepared_folder(target: Path, root: Path | None) -> Path:
    """The real (symlink-free) folder of ``target``, created if missing, checked inside ``root``."""
    folder = Path(os.path.normpath(target.parent.absolute()))  # '..' resolved first: mkdir never climbs out
    check_not_system(target)
    existing = folder
    while not os.path.lexists(existing):
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"cannot write {shown_path(target)}: parent {shown_path(existing)} is a file")
    try:
        _check_inside(existing.resolve(), root, target)
        make_folders(folder)
        real = folder.resolve()
    except (OSError, RuntimeError) as error:
        reason = cause(error) if isinstance(error, OSError) else "too many levels of symbolic links"
        raise OutputError(f"cannot write {shown_path(target)}: cannot create its folder: {reason}") from None
    _check_inside(real, root, target)
    return real


def _check_inside(real: Path, root: Path | None, target: Path) -> None:
    if root is not None and real != root and root not in real.parents:
        raise OutputError(
            f"cannot write {shown_path(target)}: it leads to {shown_path(real)}, outside the output folder "
            f"{shown_path(root)}"
        )


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
        raise OutputError(f"cannot write {shown_path(target)}: {cause(error)}") from None


def _replace(temporary: Path, final: Path, target: Path) -> None:
    try:
        os.replace(temporary, final)
    except OSError as error:
        raise OutputError(f"cannot write {shown_path(target)}: {cause(error)}") from None


def remove_output(path: str | os.PathLike[str]) -> None:
    """Remove the file at ``path`` if there is one; an :class:`OutputError` names it when it cannot
    be (it is a folder, the folder is read-only...)."""
    try:
        Path(path).unlink(missing_ok=True)
    except OSError as error:
        raise OutputError(f"cannot replace {shown_path(path)}: {cause(error)}") from None


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
    removed: list[Path] = []
    try:
        device = os.stat(folder).st_dev
    except OSError:
        return removed
    for directory, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if _same_file_system(os.path.join(directory, name), device)]
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


def _same_file_system(folder: str, device: int) -> bool:
    """Whether ``folder`` is a real folder (not a link) on the file system ``device``: the sweep
    of temporaries stays in the output folder, never in a link's target or a disk mounted in it."""
    try:
        return not os.path.islink(folder) and os.stat(folder).st_dev == device
    except OSError:
        return False


def _process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (``psutil``: on Windows, sending signal 0 would end the process)."""
    import psutil

    try:
        return psutil.pid_exists(pid)
    except (OverflowError, ValueError, OSError):
        return False


@contextmanager
def output_lock(folder: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold ``folder``'s lock file (created with the folder if missing) for the ``with`` block.

    A second run on the same folder, from another process or this one, gets an
    :class:`OutputError` at once. The lock is the operating system's (``filelock``: ``flock`` on
    Unix, ``LockFileEx`` on Windows), so a process that dies releases it. The lock file is
    removed while still held when the block ends normally, so a finished run leaves only its
    outputs; a block left by an exception (Ctrl-C, a kill) leaves it, released, to mark the folder
    as a laby3d run's for the next one. A run that locked a file its previous holder has just
    removed locks the folder's new one instead. A lock file that is a symbolic link is refused,
    never followed.
    """
    from filelock import FileLock, Timeout

    path = _real_root(Path(folder)) / LOCK_NAME
    while True:
        _check_lock_file(path)
        lock = FileLock(path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise OutputError(
                f"{shown_path(folder)} is in use by another laby3d run (lock {shown_path(path)}); wait for it to "
                "finish or choose another output folder"
            ) from None
        except OSError as error:
            raise OutputError(f"cannot lock {shown_path(path)}: {cause(error)}") from None
        if os.path.lexists(path):
            break
        lock.release()  # the previous holder removed this file as it finished: lock the folder's new one
    try:
        yield path
    except BaseException:
        lock.release()
        raise
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # the folder became unwritable (or Windows keeps the held file): it stays, empty and harmless
    lock.release()


def _check_lock_file(path: Path) -> None:
    """The lock file can be made or opened as a plain file (so that only another run's lock
    reads as "in use"): a symbolic link, a folder or a file system error is named."""
    if os.path.islink(path):
        raise OutputError(
            f"cannot lock {shown_path(path)}: it is a symbolic link, and laby3d follows no link in its output "
            "folder; remove the link and run again"
        )
    if os.path.isdir(path):
        raise OutputError(f"cannot lock {shown_path(path)}: it is a folder; remove it and run again")
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        os.close(os.open(path, flags, 0o666))
    except OSError as error:
        raise OutputError(f"cannot lock {shown_path(path)}: {cause(error)}") from None

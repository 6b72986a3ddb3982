"""The writer: all-or-nothing groups, causes in words, no escape through links, one run per folder.

Disk failures are real ones: a 2 MB tmpfs that fills up and a read-only bind mount (the tests run
as root, where file modes do not stop writes); they skip, saying why, where mounting is not
allowed.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from laby3d.errors import OutputError
from laby3d.export import writer
from laby3d.export.writer import (
    LOCK_NAME,
    TEMPORARY_SUFFIX,
    output_lock,
    remove_stale_temporaries,
    write_atomic,
    write_outputs,
)


def leftovers(folder: Path) -> list[Path]:
    """Temporaries anywhere under ``folder``."""
    return [path for path in folder.rglob("*") if path.name.endswith(TEMPORARY_SUFFIX)]


def mount(arguments: list[str]) -> None:
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    result = subprocess.run(["mount", *arguments], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        pytest.skip(f"mounting is not allowed here: {result.stderr.strip()}")


@pytest.fixture
def mounts():
    """Mount points made by a test, unmounted afterwards."""
    points: list[Path] = []
    yield points
    for point in reversed(points):
        subprocess.run(["umount", "-l", str(point)], capture_output=True, check=False)


def test_group_is_written_and_has_the_usual_permissions(tmp_path: Path) -> None:
    contents = {str(tmp_path / "out" / "a.txt"): b"alpha", str(tmp_path / "out" / "sub" / "b.txt"): b"beta"}
    written = write_outputs(contents)
    assert [path.read_bytes() for path in written] == [b"alpha", b"beta"]
    mask = os.umask(0)
    os.umask(mask)
    assert (written[0].stat().st_mode & 0o777) == 0o666 & ~mask
    assert leftovers(tmp_path) == []


def test_full_disk_leaves_earlier_files_and_no_temporaries(tmp_path: Path, mounts: list[Path]) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    mount(["-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)])
    mounts.append(disk)
    (disk / "a.bin").write_bytes(b"earlier")
    with pytest.raises(OutputError) as error:
        write_outputs({disk / "a.bin": b"x" * 1_200_000, disk / "b.bin": b"y" * 1_200_000})
    assert str(error.value) == f"cannot write {disk / 'b.bin'}: no space left on device"
    assert (disk / "a.bin").read_bytes() == b"earlier"
    assert not (disk / "b.bin").exists() and leftovers(disk) == []


def test_read_only_folder_is_named_with_its_cause(tmp_path: Path, mounts: list[Path]) -> None:
    source, view = tmp_path / "source", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    (source / "earlier.txt").write_bytes(b"earlier")
    mount(["--bind", str(source), str(view)])
    mounts.append(view)
    mount(["-o", "remount,bind,ro", str(view)])
    with pytest.raises(OutputError) as error:
        write_outputs({view / "earlier.txt": b"new", view / "more.txt": b"more"})
    assert str(error.value) == f"cannot write {view / 'earlier.txt'}: read-only file system"
    assert (source / "earlier.txt").read_bytes() == b"earlier"
    assert sorted(path.name for path in source.iterdir()) == ["earlier.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a folder without write permission")
def test_folder_without_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    with pytest.raises(OutputError, match="permission denied"):
        write_atomic(locked / "a.txt", b"a")


def test_output_path_that_is_a_directory_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "maze.png").mkdir()
    with pytest.raises(OutputError) as error:
        write_outputs({tmp_path / "maze.txt": b"text", tmp_path / "maze.png": b"png"})
    assert str(error.value) == f"cannot write {tmp_path / 'maze.png'}: is a directory"
    assert not (tmp_path / "maze.txt").exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("depth", ["parent", "grandparent"])
def test_parent_that_is_a_file(tmp_path: Path, depth: str) -> None:
    (tmp_path / "notes").write_text("a file")
    target = tmp_path / "notes" / "maze.png" if depth == "parent" else tmp_path / "notes" / "sub" / "maze.png"
    with pytest.raises(OutputError) as error:
        write_atomic(target, b"png")
    assert str(error.value) == f"cannot write {target}: parent {tmp_path / 'notes'} is a file"


def test_symlink_out_of_the_output_folder_is_not_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "out", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    (root / "job").symlink_to(outside)
    (root / "inner").symlink_to(root / "real", target_is_directory=True)
    (root / "real").mkdir()
    for target in (root / "job" / "maze.png", root / "job" / "deeper" / "maze.png"):
        with pytest.raises(OutputError, match="outside the output folder"):
            write_outputs({target: b"png"}, root=root)
    with pytest.raises(OutputError, match="outside the output folder"):
        write_outputs({root / "new" / ".." / ".." / "elsewhere" / "made" / "maze.png": b"png"}, root=root)
    assert list(outside.iterdir()) == [] and not (root / "new").exists()
    write_outputs({root / "inner" / "maze.png": b"png"}, root=root)  # a link that stays inside is fine
    assert (root / "real" / "maze.png").read_bytes() == b"png"


def test_a_file_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    root, victim = tmp_path / "out", tmp_path / "victim.txt"
    root.mkdir()
    victim.write_text("keep")
    (root / "maze.png").symlink_to(victim)
    write_outputs({root / "maze.png": b"png"}, root=root)
    assert victim.read_text() == "keep"
    assert not (root / "maze.png").is_symlink() and (root / "maze.png").read_bytes() == b"png"


def test_file_names_longer_than_255_bytes_are_refused(tmp_path: Path) -> None:
    write_atomic(tmp_path / ("a" * 251 + ".png"), b"ok")  # 255 bytes: the limit itself
    for name in ("a" * 252 + ".png", "é" * 126 + ".png"):  # 256 and 256 bytes
        with pytest.raises(OutputError, match="is 256 bytes, file systems allow 255"):
            write_atomic(tmp_path / name, b"too long")


def test_names_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="same name as .* but for case"):
        write_outputs({tmp_path / "Ana.png": b"1", tmp_path / "ana.png": b"2"})
    assert list(tmp_path.iterdir()) == []


def test_an_interruption_removes_this_runs_temporaries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_bytes(b"earlier")
    real_write, calls = os.write, []

    def interrupted_write(handle: int, data: memoryview) -> int:
        calls.append(handle)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_write(handle, data)

    monkeypatch.setattr(writer.os, "write", interrupted_write)
    with pytest.raises(KeyboardInterrupt):
        write_outputs({tmp_path / "a.txt": b"new", tmp_path / "b.txt": b"new"})
    assert (tmp_path / "a.txt").read_bytes() == b"earlier"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt"]


def test_an_interruption_during_the_clean_up_still_removes_every_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second run keeps each previous file as a backup until the group is placed, then
    removes them: Ctrl-C among those removals finishes them before it stops the run (CI saw a
    batch's backups left by a Ctrl-C)."""
    files = {tmp_path / f"{name}.txt": b"old" for name in "abcdef"}
    write_outputs(files)
    real_unlink, calls = Path.unlink, []

    def interrupted_unlink(path: Path, missing_ok: bool = False) -> None:
        calls.append(path)
        real_unlink(path, missing_ok=missing_ok)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(Path, "unlink", interrupted_unlink)
    with pytest.raises(KeyboardInterrupt):
        write_outputs(dict.fromkeys(files, b"new"))
    monkeypatch.undo()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(path.name for path in files)
    assert all(path.read_bytes() == b"new" for path in files)


def temporary_of(pid: int, folder: Path) -> Path:
    path = folder / f".{pid}.0123abcd.0{TEMPORARY_SUFFIX}"
    path.write_bytes(b"partial")
    return path


def test_only_stale_temporaries_are_removed(tmp_path: Path) -> None:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = temporary_of(int(finished.stdout), tmp_path)
    (tmp_path / "sub").mkdir()
    own = temporary_of(os.getpid(), tmp_path / "sub")  # left by this process, in a subfolder
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as other:
        try:
            alive = temporary_of(other.pid, tmp_path)
            finished_output = tmp_path / "maze.png"
            finished_output.write_bytes(b"done")
            assert sorted(remove_stale_temporaries(tmp_path)) == sorted([dead, own])
            assert alive.exists() and finished_output.exists()
        finally:
            other.kill()
    assert remove_stale_temporaries(tmp_path) == [alive]


#: Each run writes 40 groups of three 1.2 MB files, cleaning stale temporaries before each group
#: as a batch does; with files this size a cleaner that deletes every temporary breaks the other
#: run (checked: it fails most times), this one must never.
TWO_WRITERS = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from laby3d.export.writer import remove_stale_temporaries, write_outputs

    folder, who = Path(sys.argv[1]), sys.argv[2]
    for group in range(40):
        remove_stale_temporaries(folder)
        write_outputs({folder / f"{who}-{part}.bin": f"{who} {group} {part}".encode() * 100_000 for part in range(3)})
    """
)


def test_two_runs_into_one_folder_never_delete_each_others_temporaries(tmp_path: Path) -> None:
    runs = [
        subprocess.Popen([sys.executable, "-c", TWO_WRITERS, str(tmp_path), who], stderr=subprocess.PIPE, text=True)
        for who in ("first", "second")
    ]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    for who in ("first", "second"):
        for part in range(3):
            assert (tmp_path / f"{who}-{part}.bin").read_bytes() == f"{who} 39 {part}".encode() * 100_000
    assert leftovers(tmp_path) == []


HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from laby3d.export.writer import output_lock

    with output_lock(sys.argv[1]):
        print("locked", flush=True)
        time.sleep(60)
    """
)


def test_a_second_run_on_a_locked_folder_refuses_clearly(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(tmp_path)], stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
            with pytest.raises(OutputError) as error, output_lock(tmp_path):
                pass
            assert str(error.value).startswith(f"{tmp_path} is in use by another laby3d run (lock ")
        finally:
            holder.kill()
    with output_lock(tmp_path) as lock:  # released when its process died
        assert lock == tmp_path.resolve() / LOCK_NAME
        with pytest.raises(OutputError, match="in use by another laby3d run"), output_lock(tmp_path):
            pass  # even from the same process: one run per folder
    assert not (tmp_path / LOCK_NAME).exists()  # a finished run leaves only its outputs


def test_output_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("a file")
    with pytest.raises(OutputError, match="it is a file, not a folder"), output_lock(tmp_path / "out"):
        pass
    with pytest.raises(OutputError, match="it is a file, not a folder"):
        write_outputs({tmp_path / "out" / "a.png": b"png"}, root=tmp_path / "out")


KEEPS_WRITING = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from laby3d.export.writer import write_outputs

    folder = Path(sys.argv[1])
    print("started", flush=True)
    for group in range(10_000):
        write_outputs({folder / f"{part}.bin": bytes([group % 251]) * 400_000 for part in range(3)})
    """
)


@pytest.mark.parametrize("delay", [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5])
def test_a_killed_writer_leaves_whole_files_and_stale_temporaries_only(tmp_path: Path, delay: float) -> None:
    with subprocess.Popen([sys.executable, "-c", KEEPS_WRITING, str(tmp_path)], stdout=subprocess.PIPE) as run:
        assert run.stdout is not None and run.stdout.readline() == b"started\n"
        time.sleep(delay)
        run.kill()  # SIGKILL: no clean-up of its own
    for part in range(3):
        path = tmp_path / f"{part}.bin"
        if path.exists():
            data = path.read_bytes()
            assert len(data) == 400_000 and data == data[:1] * 400_000  # one whole group's file, never a mix
    remove_stale_temporaries(tmp_path)
    assert leftovers(tmp_path) == []


# --- issue 21: a failed rename rolls back, paths a file system refuses, portable calls only ------


def failing_on_rename(monkeypatch: pytest.MonkeyPatch, number: int) -> list[tuple[str, str]]:
    """Make the ``number``-th rename of a temporary into place fail (ENOSPC); returns the renames."""
    real_replace = os.replace
    renames: list[tuple[str, str]] = []

    def replace(source, destination) -> None:  # type: ignore[no-untyped-def]
        into_place = not os.fspath(destination).endswith(TEMPORARY_SUFFIX)
        if into_place and os.fspath(source).endswith(TEMPORARY_SUFFIX):
            renames.append((os.fspath(source), os.fspath(destination)))
            if len(renames) == number:
                raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(source, destination)

    monkeypatch.setattr(writer.os, "replace", replace)
    return renames


@pytest.mark.parametrize("existing", ["none", "some", "all"])
def test_a_rename_failing_midway_puts_back_the_files_already_renamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: str
) -> None:
    names = ["a.stl", "b.png", "c.txt"]
    before = {name: f"old {name}".encode() for name in names[: {"none": 0, "some": 1, "all": 3}[existing]]}
    for name, data in before.items():
        (tmp_path / name).write_bytes(data)
    renames = failing_on_rename(monkeypatch, 2)
    with pytest.raises(OutputError, match="b.png: no space left on device"):
        write_outputs({tmp_path / name: f"new {name}".encode() for name in names})
    assert [Path(into).name for _, into in renames[:2]] == ["a.stl", "b.png"]  # the second failed
    assert "c.txt" not in [Path(into).name for _, into in renames]  # the third never ran
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
    assert leftovers(tmp_path) == []


def test_a_symbolic_link_renamed_over_is_put_back_as_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "target.txt").write_text("kept")
    (tmp_path / "a.txt").symlink_to("target.txt")
    failing_on_rename(monkeypatch, 2)
    with pytest.raises(OutputError):
        write_outputs({tmp_path / "a.txt": b"new", tmp_path / "b.txt": b"new"})
    assert (tmp_path / "a.txt").is_symlink() and (tmp_path / "a.txt").read_text() == "kept"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt", "target.txt"]


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("a\0b/m.txt", "a path cannot hold the NUL character"),
        ("/".join(["d"] * 2500) + "/m.txt", "file systems allow 4,000"),
        ("/".join(["d"] * 2500), "file systems allow 4,000"),
    ],
    ids=["NUL", "2,500 folders deep", "2,500-deep folder"],
)
def test_paths_a_file_system_refuses_are_named_on_one_line(tmp_path: Path, path: str, fragment: str) -> None:
    target = tmp_path / path
    for call in (lambda: write_outputs({target: b"x"}), lambda: output_lock(target).__enter__()):
        with pytest.raises(OutputError) as error:
            call()
        message = str(error.value)
        assert fragment in message and len(message) <= 300 and "\n" not in message
    assert list(tmp_path.iterdir()) == []


def test_a_deep_folder_within_the_limits_is_created_without_recursion() -> None:
    top = Path(tempfile.mkdtemp())  # not under pytest's folders: its clean-up recurses once per level
    deep = top.joinpath(*["d"] * 1100)  # 2,200 bytes: fits; Path.mkdir(parents=True) recursed per level
    try:
        (written,) = write_outputs({deep / "m.txt": b"x"})
        assert written.read_bytes() == b"x"
    finally:
        (deep / "m.txt").unlink(missing_ok=True)
        while deep != top.parent:
            if deep.exists():
                deep.rmdir()
            deep = deep.parent


def test_the_writer_makes_no_unix_only_call() -> None:
    """fcntl, os.pread/pwrite and os.kill(pid, 0) (which ends the process on Windows) are out of
    the main paths: the lock is filelock's, a process is looked up with psutil."""
    source = Path(writer.__file__).read_text(encoding="utf-8")
    for call in ("fcntl", "os.pread", "os.pwrite", "os.kill", "os.getuid", "signal."):
        assert call not in source, call


def test_a_dead_process_is_not_alive_and_this_one_is() -> None:
    assert writer._process_alive(os.getpid())
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert not writer._process_alive(int(done.stdout))
    assert not writer._process_alive(2**80)


# --- issue 28: folders laby3d should not touch, the lock named as it is ---------------------------


@pytest.mark.parametrize("folder", ["/", "/etc", "/etc/laby3d", "/usr/local/share/mazes", "/proc", "/sys", "/dev/shm"])
def test_system_folders_are_never_output_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    """As root, ``output_dir: /`` walked 661,120 files for temporaries and wrote /.laby3d.lock, and
    /etc got a manifest.json; /proc was "in use by another laby3d run"."""
    walked: list[str] = []
    real_walk = os.walk
    monkeypatch.setattr(writer.os, "walk", lambda top, *a, **k: walked.append(top) or real_walk(top, *a, **k))
    before = set(os.listdir(folder)) if os.path.isdir(folder) else None
    with pytest.raises(OutputError) as error, output_lock(folder):
        pass
    message = str(error.value)
    assert message.startswith(f"cannot use {folder} as the output folder: it is ") and "in use" not in message
    assert "use a new folder such as " in message and len(message) <= 300
    assert walked == []
    assert (set(os.listdir(folder)) if os.path.isdir(folder) else None) == before
    with pytest.raises(OutputError, match="a folder of the operating system|root of the file system"):
        write_outputs({Path(folder) / "m.txt": b"x"})
    assert not os.path.lexists(Path(folder) / "m.txt")


@pytest.mark.parametrize("folder", ["/var/tmp/laby3d-test-{pid}", "{tmp}/etc", "{tmp}/home"])
def test_temporary_and_own_folders_named_like_system_ones_are_fine(tmp_path: Path, folder: str) -> None:
    path = Path(folder.format(pid=os.getpid(), tmp=tmp_path))
    try:
        with output_lock(path):
            write_outputs({path / "m.txt": b"x"}, root=path)
        assert (path / "m.txt").read_bytes() == b"x"
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_a_link_into_a_system_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "config").symlink_to("/etc")
    with pytest.raises(OutputError, match=r"it is inside /etc, a folder of the operating system|it is /etc"):
        with output_lock(tmp_path / "config" / "mazes"):
            pass
    with pytest.raises(OutputError, match="/etc is a folder of the operating system"):
        write_outputs({tmp_path / "config" / "m.txt": b"x"})
    assert not os.path.lexists("/etc/mazes") and not os.path.lexists("/etc/m.txt")


def test_a_home_folder_itself_is_not_an_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "ana"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    with pytest.raises(OutputError, match="it is a home folder itself") as error, output_lock(home):
        pass
    assert str(error.value).endswith("; use a new folder such as ~/laby3d/mazes")
    with output_lock(home / "mazes"):  # a folder of its own in the home is the place
        pass
    write_atomic(home / "m.txt", b"one file named by the user")  # a file may go in the home itself
    with pytest.raises(OutputError, match="it holds the home folders"), output_lock("/home"):
        pass


def test_a_symbolic_link_as_the_lock_is_named_as_such(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).symlink_to(tmp_path / LOCK_NAME)  # a loop
    with pytest.raises(OutputError) as error, output_lock(tmp_path):
        pass
    assert str(error.value) == (
        f"cannot lock {tmp_path.resolve() / LOCK_NAME}: it is a symbolic link, and laby3d follows no link in its "
        "output folder; remove the link and run again"
    )
    (tmp_path / LOCK_NAME).unlink()
    (tmp_path / LOCK_NAME).symlink_to("/etc/passwd")
    with pytest.raises(OutputError, match="it is a symbolic link"), output_lock(tmp_path):
        pass


def test_a_lock_that_cannot_be_made_is_not_in_use(tmp_path: Path, mounts: list[Path]) -> None:
    view = tmp_path / "view"
    view.mkdir()
    mount(["-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(view)])
    mounts.append(view)
    with pytest.raises(OutputError) as error, output_lock(view):
        pass
    assert str(error.value) == f"cannot lock {view / LOCK_NAME}: read-only file system"


def test_an_interrupted_run_leaves_its_released_lock_to_mark_the_folder(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt), output_lock(tmp_path):
        raise KeyboardInterrupt
    assert (tmp_path / LOCK_NAME).is_file()
    with output_lock(tmp_path):  # released: the next run takes it, and removes it as it finishes
        pass
    assert not (tmp_path / LOCK_NAME).exists()


def test_the_sweep_of_temporaries_stays_on_the_output_folders_disk(tmp_path: Path, mounts: list[Path]) -> None:
    inner = tmp_path / "out" / "usb"
    inner.mkdir(parents=True)
    mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs", str(inner)])
    mounts.append(inner)
    elsewhere = temporary_of(2**22 + 7, inner)  # a dead process's, on another file system
    here = temporary_of(2**22 + 7, tmp_path / "out")
    assert remove_stale_temporaries(tmp_path / "out") == [here]
    assert elsewhere.exists()


@pytest.mark.parametrize(
    ("typed", "expanded"),
    [
        ("~/mazes", "{home}/mazes"),
        ("~", "{home}"),
        ("$HOME/mazes", "{home}/mazes"),
        ("${HOME}/m-${CLASS}.stl", "{home}/m-5B.stl"),
        ("out/a~b/$CLASS", "out/a~b/5B"),
        ("plain/path", "plain/path"),
    ],
)
def test_paths_are_expanded_as_a_shell_would(monkeypatch: pytest.MonkeyPatch, typed: str, expanded: str) -> None:
    monkeypatch.setenv("HOME", "/tmp/ana")
    monkeypatch.setenv("CLASS", "5B")
    assert writer.expand_path(typed) == expanded.format(home="/tmp/ana")


def test_a_variable_not_set_or_an_unknown_user_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from laby3d.errors import ParameterError

    monkeypatch.delenv("LABY3D_NOT_SET", raising=False)
    with pytest.raises(ParameterError, match=r"uses \$LABY3D_NOT_SET, which is not set"):
        writer.expand_path("$LABY3D_NOT_SET/out")
    with pytest.raises(ParameterError, match="names the home folder of 'no-such-user-here', who is not a user here"):
        writer.expand_path("~no-such-user-here/out")

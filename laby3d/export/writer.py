"""The one place that writes files: atomically (temporary file in the same folder, then rename)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

#: Pattern of the temporary files :func:`write_atomic` renames into place.
TEMPORARY_GLOB = ".*.laby3d-tmp"


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".laby3d-tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def write_outputs(contents: Mapping[str, bytes]) -> list[Path]:
    """Write every ``path -> bytes`` (all rendered beforehand, so a bad output writes nothing)."""
    return [write_atomic(path, data) for path, data in contents.items()]

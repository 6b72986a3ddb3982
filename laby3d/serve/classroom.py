"""One class as the server sees it: its folder (locked: one server per class), store, defaults
(from ``--config``), the teacher's locks and token, the class code, who holds which name, and a
bounded cache of recent previews.

Pure bookkeeping: no HTTP here (:mod:`laby3d.serve.app`) and no rendering (:mod:`.work`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laby3d.errors import Laby3dError, ParameterError
from laby3d.filenames import safe_name
from laby3d.options.build import merge
from laby3d.options.job import Job
from laby3d.serve.fields import CLASS_FORMATS, PREVIEW_FORMATS, design_data, job_for
from laby3d.serve.identity import (
    checked_name,
    name_key,
    new_pin,
    new_session,
    same_code,
    same_secret,
    taken_message,
    wrong_pin_message,
)
from laby3d.serve.storage import ClassStore, Pupil
from laby3d.serve.uploads import OUTLINE, TEACHER, UPLOAD_PREFIX, outlines_of

#: The lock file that keeps a second server off the class's folder.
FOLDER_LOCK = "serve.lock"


class ClassInUse(Laby3dError):
    """Another ``laby3d serve`` is running on the class's folder."""


@dataclass(kw_only=True)
class ClassSettings:
    """What the teacher decides at start-up: class name, folder, defaults of every design (a YAML
    job's mapping, presets resolved), the formats of the class set, the class code pupils type to
    join (none: anyone on the network may join; case and accents aside), the pupils' address as
    printed, and the host names the server answers to besides its own addresses (a school's DNS
    name for it: ``--host-name``)."""

    class_name: str = "class"
    folder: Path
    defaults: dict[str, Any] = field(default_factory=dict)
    formats: tuple[str, ...] = CLASS_FORMATS
    code: str | None = None
    address: str | None = None
    host_names: tuple[str, ...] = ()
    #: Where an outline file the teacher names (in the config's defaults, or a lock) is read
    #: from when its path is relative: the config file's folder (None: the working folder).
    config_folder: Path | None = None


def settings_from_config(
    class_name: str, folder: Path | None, config: Path | None, *, code: str | None = None
) -> ClassSettings:
    """The class settings of ``laby3d serve``'s flags: ``config`` (a batch YAML file; only its
    ``defaults`` are read, checked as a job) gives the defaults, their formats and language. A
    ``preset`` there is resolved into the defaults (its values under the file's own), so the form
    shows exactly what is made. An outline file the defaults name is read from the config's
    folder when its path is relative (:func:`teacher_outline`)."""
    defaults: dict[str, Any] = {}
    config_folder = config.resolve().parent if config is not None else None
    if config is not None:
        from laby3d.config import ConfigError, job_from_dict
        from laby3d.options.presets import PRESETS
        from laby3d.yamlsafe import load_yaml_file

        data = load_yaml_file(config)
        if not isinstance(data, dict) or not isinstance(data.get("defaults", {}), dict):
            raise ConfigError(f"{config.name}: expected a mapping whose 'defaults' is a mapping of job options")
        defaults = dict(data.get("defaults") or {})
        maze = defaults.get("maze")
        if isinstance(maze, dict) and "outline" in maze:
            defaults["maze"] = {**maze, "outline": teacher_outline(maze["outline"], config_folder)}
        job_from_dict({**defaults, "name": "defaults"}, f"{config.name}: defaults")
        preset = defaults.pop("preset", None)
        if isinstance(preset, str):
            defaults = merge(PRESETS[preset], defaults)
    formats = tuple(defaults.pop("formats", CLASS_FORMATS))
    for key in ("name", "names", "count", "seed", "label"):
        defaults.pop(key, None)
    folder = folder if folder is not None else Path("outputs") / "serve" / safe_name(class_name)
    return ClassSettings(
        class_name=class_name, folder=folder, defaults=defaults, formats=formats, code=code, config_folder=config_folder
    )


def teacher_outline(value: Any, folder: Path | None) -> Any:
    """An outline the teacher gives (a default, a lock): a file's relative path made absolute
    from ``folder`` (the config's), so the workers, the class set and ``laby3d batch`` on its
    YAML read the same file; a built-in, ``text:…``, an upload or another value as given."""
    from laby3d.geometry.outlines import BUILT_IN, TEXT_PREFIX
    from laby3d.serve.uploads import UPLOAD_PREFIX

    if not isinstance(value, str) or not value.strip() or folder is None:
        return value
    text = value.strip()
    if text in BUILT_IN or text.startswith((TEXT_PREFIX, UPLOAD_PREFIX)):
        return value
    path = Path(text).expanduser()
    return value if path.is_absolute() else str(folder / path)


@dataclass(frozen=True, kw_only=True)
class DesignRequest:
    """What a render needs to make a pupil's job (picklable, for the workers): their flat
    ``design``, the class ``defaults`` under it, the teacher's ``locks`` over it, the pupil's
    ``name``, engraved as the label (as the class set engraves it) unless the teacher locked one,
    and the stored ``files`` of the uploads the design may use (``upload:NAME`` → path)."""

    design: Mapping[str, Any]
    defaults: Mapping[str, Any]
    locks: Mapping[str, Any]
    name: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)

    def job(self, formats: tuple[str, ...] | list[str] | None = None) -> Job:
        """The checked job with ``formats`` (None: the preview's,
        :data:`laby3d.serve.fields.PREVIEW_FORMATS`); raises :class:`ParameterError` whose field
        is the dotted path at fault."""
        if formats is None:
            formats = PREVIEW_FORMATS
        design = dict(self.design)
        if self.name is not None:
            design["label"] = self.name
        return job_for(design, defaults=self.defaults, locks=self.locks, formats=formats, files=self.files)

    def key(self) -> str:
        """A short fingerprint (the same request gives the same key, across restarts)."""
        data = [self.design, self.defaults, self.locks, self.name, self.files]
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


class PreviewCache:
    """Recent previews by their request's key, at most ``max_bytes`` of GLB and SVG (oldest out)."""

    def __init__(self, max_bytes: int = 64 << 20) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._bytes = 0

    def get(self, key: str) -> dict[str, Any] | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, item: dict[str, Any]) -> None:
        if key in self._items:
            return
        size = len(item["glb"]) + len(item["svg"])
        if size > self.max_bytes:
            return
        self._items[key] = item
        self._bytes += size
        while self._bytes > self.max_bytes:
            _, old = self._items.popitem(last=False)
            self._bytes -= len(old["glb"]) + len(old["svg"])


def summary_of(report: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the class list shows of a printability report: fits, size, time, filament, warnings."""
    report = report or {}
    printer = report.get("printer") or {}
    return {
        "ok": bool(report.get("ok")),
        "size_mm": report.get("size_mm"),
        "printer": printer.get("name"),
        "fits": printer.get("fits") if printer else bool(report.get("common_printers")),
        "print_time": (report.get("print_time") or {}).get("text"),
        "print_seconds": (report.get("print_time") or {}).get("seconds"),
        "filament_g": (report.get("mass") or {}).get("typical_g"),
        "warnings": list(report.get("warnings") or []),
    }


def status_of(report: Mapping[str, Any] | None) -> str:
    """``ok`` or ``WARN: <first warning>``, as ``laby3d batch`` says it of a maze (``ok`` without
    a report)."""
    warnings = (report or {}).get("warnings") or []
    return f"WARN: {warnings[0]}" if warnings else "ok"


class Classroom:
    """The class: settings, store, locks, token, code and who holds which name (kept across
    restarts). Holds the folder's lock until :meth:`close`: a second server is refused."""

    def __init__(self, settings: ClassSettings, *, new_token: bool = False) -> None:
        from filelock import FileLock, Timeout

        self.settings = settings
        settings.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._folder_lock = FileLock(settings.folder / FOLDER_LOCK, timeout=0)
        try:
            self._folder_lock.acquire()
        except Timeout:
            raise ClassInUse(
                f"--folder {settings.folder}: another laby3d serve is running on this class; stop it first"
            ) from None
        self.store = ClassStore(settings.folder)
        self.store.upgrade(name_key, new_pin)
        token = self.store.setting("teacher_token")
        if new_token or not isinstance(token, str):
            token = new_session()
            self.store.set_setting("teacher_token", token)
        self.token: str = token
        secret = self.store.setting("session_secret")
        if not isinstance(secret, str):
            secret = new_session() + new_session()
            self.store.set_setting("session_secret", secret)
        self.session_secret: str = secret
        self._locks: dict[str, Any] = dict(self.store.setting("locks", {}))
        self.locks_version: int = int(self.store.setting("locks_version", 0))
        self._sessions = self.store.sessions()

    def close(self) -> None:
        """Let another server open the class."""
        self._folder_lock.release()

    # --- identity --------------------------------------------------------------------------------

    def check_code(self, given: Any) -> None:
        """Raise :class:`ParameterError` on ``code`` unless the class has none or ``given`` is it
        (case, accents and surrounding spaces aside: :func:`~laby3d.serve.identity.same_code`)."""
        code = self.settings.code
        if code is not None and not (isinstance(given, str) and same_code(given, code)):
            raise ParameterError("is not this class's code: ask the teacher", field="code")

    def check_free(self, name: str, pin: Any = None) -> None:
        """Raise :class:`ParameterError` on ``pin`` when a pupil of that name (folded) is in the
        class and ``pin`` is not their personal code: a name is its pupil's, whoever types it
        (their design stays theirs when they leave), unless they give their code."""
        found = self.store.pupil(name_key(name))
        if found is None:
            return
        if pin is None or pin == "":
            raise ParameterError(taken_message(name, found.name), field="pin")
        if not (isinstance(pin, str) and found.pin and same_secret(pin.strip(), found.pin)):
            raise ParameterError(wrong_pin_message(found.name), field="pin")

    def join(self, name: str, pin: Any = None) -> tuple[str, str]:
        """Give a new session the pupil ``name`` (checked; a name in the class already needs its
        pupil's personal code ``pin``: the session that held it ends); the pupil's key and the
        session id."""
        name = checked_name(name)
        self.check_free(name, pin)
        key = name_key(name)
        found = self.store.pupil(key)
        session = new_session()
        self.store.join(key=key, name=found.name if found else name, session=session, pin=new_pin())
        self._sessions[key] = session
        return key, session

    def pupil_of(self, key: Any, session: Any) -> str | None:
        """The pupil's key when ``session`` holds it, else None."""
        held = self._sessions.get(key) if isinstance(key, str) else None
        if held is None or not isinstance(session, str) or not same_secret(session, held):
            return None
        return str(key)

    def release(self, key: str) -> bool:
        """End a pupil's session: their browser's cookie is worth nothing from now on (the name
        stays theirs: joining it again needs their personal code)."""
        self._sessions.pop(key, None)
        return self.store.release(key)

    def remove(self, key: str) -> bool:
        """Remove a pupil and their design."""
        self._sessions.pop(key, None)
        return self.store.delete_pupil(key)

    # --- designs and locks -----------------------------------------------------------------------

    @property
    def locks(self) -> dict[str, Any]:
        """The teacher's locks: flat ``dotted path → value`` (read once, kept with the store)."""
        return dict(self._locks)

    def checked_locks(self, values: Any) -> dict[str, Any]:
        """New locks checked for shape (known paths, scalars), an outline file read from the
        config's folder when relative (:func:`teacher_outline`); see :meth:`set_locks`."""
        locks = design_data(values)
        if OUTLINE in locks:
            locks[OUTLINE] = teacher_outline(locks[OUTLINE], self.settings.config_folder)
        return locks

    def set_locks(self, locks: dict[str, Any]) -> None:
        """Store new locks (checked already, against the defaults and every pupil); every pupil's
        report is out of date from now on."""
        self.locks_version += 1
        self.store.set_setting("locks", locks)
        self.store.set_setting("locks_version", self.locks_version)
        self._locks = dict(locks)

    def request(
        self,
        design: Mapping[str, Any],
        name: str | None,
        *,
        owner: str | None = None,
        locks: Mapping[str, Any] | None = None,
    ) -> DesignRequest:
        """What a render needs for ``design`` by pupil ``name`` (whose key is ``owner``: the
        uploads the design may use are theirs and the teacher's) under this class (or ``locks``)."""
        locks = self.locks if locks is None else dict(locks)
        files = self.files(design, owner, locks)
        return DesignRequest(design=dict(design), defaults=self.settings.defaults, locks=locks, name=name, files=files)

    def files(self, design: Mapping[str, Any], owner: str | None, locks: Mapping[str, Any]) -> dict[str, str]:
        """The stored file of each upload ``design`` may use (``owner``'s own or the teacher's)
        and the teacher's ``locks`` use (any of the class): ``upload:NAME`` → path."""
        mine: tuple[str, ...] | None = (owner, TEACHER) if owner else (TEACHER,)
        wanted = [(name, mine) for name in outlines_of(design)]
        wanted += [(name, None) for name in outlines_of(locks)]
        files = {}
        for name, owners in wanted:
            path = self.store.upload_path(name, owners)
            if path is not None:
                files[f"{UPLOAD_PREFIX}{name}"] = str(path)
        return files

    def stale(self) -> list[Pupil]:
        """Pupils whose kept design's report (saved design, else draft) predates the locks."""
        return [p for p in self.store.pupils() if p.kept is not None and p.version != self.locks_version]

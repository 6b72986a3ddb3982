"""One class as the server sees it: its folder and store, the class defaults (from ``--config``),
the teacher's locks and token, and a bounded cache of recent previews.

Pure bookkeeping: no HTTP here (:mod:`laby3d.serve.app`) and no rendering (:mod:`.work`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laby3d.errors import ParameterError
from laby3d.filenames import safe_name
from laby3d.options.job import Job
from laby3d.serve.fields import CLASS_FORMATS, PREVIEW_FORMATS, design_data, job_for
from laby3d.serve.storage import ClassStore, Pupil

#: Longest pupil name (it is engraved as the label, which takes 60 characters).
MAX_NAME = 60


def pupil_key(name: str) -> str:
    """The key a pupil is stored and downloaded under: their name made file-name safe, lower
    case (so "Ana" and "ana" are one pupil).

    >>> pupil_key("Chloé Dupont-Lefèvre"), pupil_key("../../etc/passwd"), pupil_key("ANA")
    ('chloe-dupont-lefevre', 'etc-passwd', 'ana')
    """
    return safe_name(name).lower()


def checked_name(name: str) -> str:
    """A pupil's name as typed, trimmed; raises :class:`ParameterError` on ``name``."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise ParameterError(f"must be 1 to {MAX_NAME} printable characters", field="name")
    return name


@dataclass(kw_only=True)
class ClassSettings:
    """What the teacher decides at start-up: class name, folder, defaults of every design (a YAML
    job's mapping) and the formats of the class set."""

    class_name: str = "class"
    folder: Path
    defaults: dict[str, Any] = field(default_factory=dict)
    formats: tuple[str, ...] = CLASS_FORMATS


def settings_from_config(class_name: str, folder: Path | None, config: Path | None) -> ClassSettings:
    """The class settings of ``laby3d serve``'s flags: ``config`` (a batch YAML file; only its
    ``defaults`` are read, checked as a job) gives the defaults, their formats and language."""
    defaults: dict[str, Any] = {}
    if config is not None:
        from laby3d.config import ConfigError, job_from_dict
        from laby3d.yamlsafe import load_yaml_file

        data = load_yaml_file(config)
        if not isinstance(data, dict) or not isinstance(data.get("defaults", {}), dict):
            raise ConfigError(f"{config.name}: expected a mapping whose 'defaults' is a mapping of job options")
        defaults = dict(data.get("defaults") or {})
        job_from_dict({**defaults, "name": "defaults"}, f"{config.name}: defaults")
    formats = tuple(defaults.pop("formats", CLASS_FORMATS))
    for key in ("name", "names", "count", "seed"):
        defaults.pop(key, None)
    folder = folder if folder is not None else Path("outputs") / "serve" / safe_name(class_name)
    return ClassSettings(class_name=class_name, folder=folder, defaults=defaults, formats=formats)


class PreviewCache:
    """Recent previews by the job they show, at most ``max_bytes`` of GLB and SVG (oldest out)."""

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


def job_key(job: Job) -> str:
    """A short fingerprint of a job (the same design gives the same key, across restarts)."""
    return hashlib.sha256(job.model_dump_json().encode()).hexdigest()[:32]


def summary_of(report: Mapping[str, Any]) -> dict[str, Any]:
    """What the class list shows of a printability report: fits, size, time, filament, warnings."""
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


class Classroom:
    """The class: settings, store, locks and teacher token (kept across restarts)."""

    def __init__(self, settings: ClassSettings) -> None:
        self.settings = settings
        self.store = ClassStore(settings.folder)
        token = self.store.setting("teacher_token")
        if not isinstance(token, str):
            token = secrets.token_urlsafe(18)
            self.store.set_setting("teacher_token", token)
        self.token: str = token
        self._locks: dict[str, Any] = dict(self.store.setting("locks", {}))

    @property
    def locks(self) -> dict[str, Any]:
        """The teacher's locks: flat ``dotted path → value`` (read once, kept with the store)."""
        return dict(self._locks)

    def set_locks(self, values: Any) -> dict[str, Any]:
        """Check and store new locks (they must make a valid job with the defaults)."""
        locks = design_data(values)
        job_for({}, defaults=self.settings.defaults, locks=locks, formats=PREVIEW_FORMATS)
        self.store.set_setting("locks", locks)
        self._locks = locks
        return dict(locks)

    def job(self, design: Mapping[str, Any], *, formats: tuple[str, ...] | list[str] = PREVIEW_FORMATS) -> Job:
        """The checked job of a flat design under this class's defaults and locks."""
        return job_for(design, defaults=self.settings.defaults, locks=self.locks, formats=formats)

    def status(self, pupil: Pupil) -> str:
        """``ok``, ``WARN: <first warning>`` or ``invalid: <why>`` (e.g. after a new lock)."""
        try:
            self.job(pupil.design)
        except ParameterError as error:
            return f"invalid: {error}"
        warnings = pupil.summary.get("warnings") or []
        return f"WARN: {warnings[0]}" if warnings else "ok"

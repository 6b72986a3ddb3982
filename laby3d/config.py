"""Batch files: YAML loaded safely, defaults merged into every job, one-line errors that name
the file, the job and the field (``classroom.yaml: jobs[1] (x).print.nozzle: must be > 0, got 0``),
said in French when the job (or the defaults) says ``lang: fr``; an unknown key is answered with
the closest known key of its level (``did you mean 'nozzle'?``).

The options themselves are defined in :mod:`laby3d.options`; this module only reads files.
"""

import dataclasses
import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from laby3d.errors import Laby3dError, ParameterError
from laby3d.i18n import Message
from laby3d.options.base import Checked, Section, option, option_fields
from laby3d.options.build import merge, validated_job
from laby3d.options.job import Job
from laby3d.options.maze import refuse_unused_cols
from laby3d.options.presets import PRESETS
from laby3d.quoting import shown


class ConfigError(ValueError, Laby3dError):
    """A configuration file or job is invalid; the message names file, job and field.

    ``where`` is the file, job and field (``classroom.yaml: jobs[1] (x).print.nozzle``),
    ``detail`` what is wrong (an English sentence of :mod:`laby3d.i18n`, so that it can be said
    in ``lang``, the language of the job at fault).
    """

    def __init__(self, detail: str, *, where: str = "", lang: str | None = None) -> None:
        self.detail, self.where, self.lang = detail, where, lang
        super().__init__(f"{where}: {detail}" if where else detail)


def _a_path(value: str) -> str:
    """The folder with ``~`` and ``$VARIABLES`` expanded as a shell would."""
    from laby3d.export.writer import expand_path

    if "\0" in value:
        raise ParameterError(f"cannot hold the NUL character, got {shown(value)}")
    return expand_path(value)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Batch(Section):
    """A batch file: defaults merged into every job, key by key."""

    output_dir: Annotated[str, Checked(_a_path)] | None = option(
        None,
        min_length=1,
        max_length=4000,
        description="where outputs go; default outputs/<config file stem>",
    )
    defaults: dict[str, Any] = option(default_factory=dict, description="settings every job starts from")
    jobs: list[dict[str, Any]] = option(min_length=1, description="the jobs")


def job_from_dict(data: dict[str, Any], where: str = "", *, cross_checks: bool = True) -> Job:
    """A checked :class:`Job`; errors name ``where`` (file and job) and the field's path."""
    try:
        return validated_job(data, cross_checks=cross_checks)
    except ParameterError as error:
        found = _config_error(error, where, language_of(data))
        found.also = tuple(_config_error(other, where, language_of(data)) for other in error.also)
        raise found from None


def _config_error(error: Laby3dError, where: str, lang: str | None) -> ConfigError:
    """``error`` (a :class:`ParameterError` of a job) as the file's error at ``where``."""
    field_name = getattr(error, "field", None)
    field = f".{field_name}" if field_name and where else field_name or ""
    detail = getattr(error, "detail", str(error))
    if isinstance(detail, Message) and detail.kind == "unknown_key" and field_name:
        detail = unknown_key(field_name.rpartition(".")[2], known_keys(field_name))
    return ConfigError(detail, where=f"{where}{field}".lstrip(": "), lang=lang)


def known_keys(path: str) -> list[str]:
    """The keys a job may hold beside the last one of the dotted ``path`` (``print.nozle`` → the
    print section's options)."""
    section: Any = Job
    for part in path.split(".")[:-1]:
        field = option_fields(section).get(part)
        annotation = field.annotation if field is not None else None
        if not (isinstance(annotation, type) and issubclass(annotation, Section)):
            return []
        section = annotation
    return list(option_fields(section))


def unknown_key(key: str, known: list[str]) -> str:
    """``is not a known key``, with the closest of ``known`` when one is close (difflib), or the
    key whose French label was typed (``lignes`` → ``rows``)."""
    from laby3d.options.translations import FRENCH

    french = {text.label.casefold(): path.rpartition(".")[2] for path, text in FRENCH.items()}
    typed = key.casefold().replace(" ", "_").replace("-", "_")
    close = [name for name in known if name.casefold() == typed]
    if not close and french.get(key.casefold()) in known:
        close = [french[key.casefold()]]
    close = close or difflib.get_close_matches(typed, known, n=1, cutoff=0.6)
    return Message("unknown_key_close", key=close[0]) if close else Message("unknown_key")


def language_of(data: Any) -> str | None:
    """``fr`` when a job's (or the defaults') mapping says ``lang: fr``, else None."""
    return "fr" if isinstance(data, Mapping) and data.get("lang") == "fr" else None


def load_batch(path: str | Path, *, overrides: dict[str, Any] | None = None) -> tuple[Batch, list[Job]]:
    """Read a YAML batch file safely and check every job (defaults merged under it, ``overrides``
    over it: options typed on the command line, e.g. ``{"print": {"printers": 2}}``)."""
    from laby3d.yamlsafe import load_yaml_file

    name = Path(path).name
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping with 'jobs' (and optional 'defaults', 'output_dir')", where=name)
    defaults = data.get("defaults")
    lang = language_of(defaults)
    try:
        batch = Batch.from_data(data)
    except ParameterError as error:  # unknown keys first: a mistyped 'jobs' is answered as such
        detail = error.detail
        if isinstance(detail, Message) and detail.kind == "unknown_key" and error.field in data:
            detail = unknown_key(str(error.field), list(option_fields(Batch)))
        raise ConfigError(detail, where=f"{name}: {error.field}", lang=lang) from None
    # the defaults alone: structure and ranges (the rules between fields hold for each merged job)
    where = f"{name}: defaults"
    job_from_dict(merge({"name": "defaults"}, batch.defaults), where, cross_checks=False)
    _refuse_unused_cols(batch.defaults, batch.defaults, where)
    jobs = []
    for index, raw in enumerate(batch.jobs):
        label = shown(raw.get("name", "?"), 40).strip("'\"")
        # a preset the job names sits over the defaults, under the job; one named in the defaults
        # sits under the defaults (validated_job puts it there)
        preset = PRESETS.get(raw["preset"], {}) if isinstance(raw.get("preset"), str) else {}
        data = merge(merge(merge(batch.defaults, preset), raw), overrides or {})
        where = f"{name}: jobs[{index}] ({label})"
        job = job_from_dict(data, where)
        _refuse_unused_cols(raw, data, where)
        jobs.append(job)
    return batch, jobs


def _refuse_unused_cols(own: Mapping[str, Any], merged: Mapping[str, Any], where: str) -> None:
    """A job (or the defaults) that states ``cols`` of a round maze is refused: its size is its
    rings. ``cols`` stated in the defaults, for the other jobs, is left to them."""
    maze, shape = own.get("maze"), (merged.get("maze") or {}).get("shape")
    if isinstance(maze, Mapping):
        try:
            refuse_unused_cols(shape, maze)
        except ParameterError as error:
            raise ConfigError(error.detail, where=f"{where}.{error.field}", lang=language_of(merged)) from None


def batch_schema() -> dict[str, Any]:
    """JSON Schema of a batch file: ``output_dir``, ``defaults`` and ``jobs`` (both jobs)."""
    from laby3d.options.schema import section_schema

    job = section_schema(Job)
    definitions = job.pop("$defs", {})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "laby3d batch file",
        "type": "object",
        "additionalProperties": False,
        "required": ["jobs"],
        "properties": {
            "output_dir": section_schema(Batch)["properties"]["output_dir"],
            "defaults": {**job, "required": [], "description": "merged under every job, key by key"},
            "jobs": {"type": "array", "minItems": 1, "items": job},
        },
        "$defs": definitions,
    }

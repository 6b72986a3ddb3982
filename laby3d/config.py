"""Batch files: YAML loaded safely, defaults merged into every job, one-line errors that name
the file, the job and the field (``classroom.yaml: jobs[1] (x).print.nozzle: must be > 0, got 0``).

The options themselves are defined in :mod:`laby3d.options`; this module only reads files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from laby3d.errors import Laby3dError, ParameterError
from laby3d.options.build import merge, path_of, pydantic_detail, validated_job
from laby3d.options.job import Job
from laby3d.options.presets import PRESETS
from laby3d.quoting import shown


class ConfigError(ValueError, Laby3dError):
    """A configuration file or job is invalid; the message names file, job and field."""


class Batch(BaseModel):
    """A batch file: defaults merged into every job, key by key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    output_dir: str | None = Field(
        None,
        min_length=1,
        max_length=4000,
        description="where outputs go; default outputs/<config file stem>",
    )
    defaults: dict[str, Any] = Field(default_factory=dict, description="settings every job starts from")
    jobs: list[dict[str, Any]] = Field(min_length=1, description="the jobs")

    @field_validator("output_dir")
    @classmethod
    def _a_path(cls, value: str | None) -> str | None:
        if value is not None and "\0" in value:
            raise ParameterError(f"cannot hold the NUL character, got {shown(value)}")
        return value


def job_from_dict(data: dict[str, Any], where: str = "", *, cross_checks: bool = True) -> Job:
    """A checked :class:`Job`; errors name ``where`` (file and job) and the field's path."""
    try:
        return validated_job(data, cross_checks=cross_checks)
    except ParameterError as error:
        field = f".{error.field}" if error.field and where else error.field or ""
        raise ConfigError(f"{where}{field}: {error.detail}".lstrip(": ")) from None


def load_batch(path: str | Path, *, overrides: dict[str, Any] | None = None) -> tuple[Batch, list[Job]]:
    """Read a YAML batch file safely and check every job (defaults merged under it, ``overrides``
    over it: options typed on the command line, e.g. ``{"print": {"printers": 2}}``)."""
    from laby3d.yamlsafe import load_yaml_file

    name = Path(path).name
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{name}: expected a mapping with 'jobs' (and optional 'defaults', 'output_dir')")
    try:
        batch = Batch.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise ConfigError(f"{name}: {path_of(first['loc'])}: {pydantic_detail(first)}") from None
    # the defaults alone: structure and ranges (the rules between fields hold for each merged job)
    job_from_dict(merge({"name": "defaults"}, batch.defaults), f"{name}: defaults", cross_checks=False)
    jobs = []
    for index, raw in enumerate(batch.jobs):
        label = shown(raw.get("name", "?"), 40).strip("'\"")
        # a preset the job names sits over the defaults, under the job; one named in the defaults
        # sits under the defaults (validated_job puts it there)
        preset = PRESETS.get(raw["preset"], {}) if isinstance(raw.get("preset"), str) else {}
        data = merge(merge(merge(batch.defaults, preset), raw), overrides or {})
        jobs.append(job_from_dict(data, f"{name}: jobs[{index}] ({label})"))
    return batch, jobs


def batch_schema() -> dict[str, Any]:
    """JSON Schema of a batch file: ``output_dir``, ``defaults`` and ``jobs`` (both jobs)."""
    job = Job.model_json_schema()
    definitions = job.pop("$defs", {})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "laby3d batch file",
        "type": "object",
        "additionalProperties": False,
        "required": ["jobs"],
        "properties": {
            "output_dir": {"type": "string", "description": "default outputs/<config file stem>"},
            "defaults": {**job, "required": [], "description": "merged under every job, key by key"},
            "jobs": {"type": "array", "minItems": 1, "items": job},
        },
        "$defs": definitions,
    }

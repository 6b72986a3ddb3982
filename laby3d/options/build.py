"""Building a checked :class:`Job` from data, with every error located by its field.

The three front ends (YAML, CLI flags, Python keywords) all end here; each names a field the way
its user typed it, from the dotted path that :class:`laby3d.errors.ParameterError` carries.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from laby3d.errors import ParameterError
from laby3d.options.job import Job, job_flag_fields
from laby3d.options.presets import PRESETS, fitted_to_markers


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` merged over ``base``, recursively for nested mappings."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def validated_job(data: Mapping[str, Any], *, cross_checks: bool = True) -> Job:
    """The checked job ``data`` describes (over its preset, if it names one); raises
    :class:`ParameterError` whose ``field`` is the dotted path of the first field at fault
    (structure and ranges first, then, with ``cross_checks``, the rules between fields)."""
    preset, note = data.get("preset"), None
    if isinstance(preset, str) and preset in PRESETS:
        data, note = fitted_to_markers(preset, data, merge(PRESETS[preset], data))
    job = Job.from_data(data)
    if note is not None:
        job = dataclasses.replace(job, _notes=(note,))
    if cross_checks:
        job.check()
    return job


def keyword_paths() -> dict[str, str]:
    """Python keyword of every option that shapes an output of a given maze (its CLI flag with
    ``_`` for ``-``) → dotted path; the maze's own options and seed are the maze's business."""
    return {
        flags[0].lstrip("-").replace("-", "_"): path
        for path, _, flags in job_flag_fields()
        if not path.startswith("maze.") and path != "seed"
    }


def maze_size_values(shape: str, size: tuple[int, int | None]) -> dict[str, Any]:
    """The dotted option values of a given maze's shape and size (theta: no cols)."""
    values: dict[str, Any] = {"maze.shape": shape, "maze.rows": size[0]}
    if size[1] is not None:
        values["maze.cols"] = size[1]
    return values


def nested(values: Mapping[str, Any]) -> dict[str, Any]:
    """``{"print.nozzle": 0.4}`` → ``{"print": {"nozzle": 0.4}}``."""
    data: dict[str, Any] = {}
    for path, value in values.items():
        *sections, name = path.split(".")
        target = data
        for section in sections:
            target = target.setdefault(section, {})
        target[name] = value
    return data


def job_from_options(
    options: Mapping[str, Any], *, formats: Sequence[str], size: tuple[int, int | None], shape: str = "square"
) -> Job:
    """The job of Python keyword ``options`` for a ``shape`` maze of ``size`` (rows, cols; cols
    None for theta); errors name the keyword."""
    paths = keyword_paths()
    unknown = sorted(set(options) - set(paths))
    if unknown:
        raise ParameterError(f"is not an option (options: {', '.join(sorted(paths))})", field=unknown[0])
    values = {paths[name]: value for name, value in options.items()}
    values.update({**maze_size_values(shape, size), "formats": list(formats)})
    names = {path: name for name, path in paths.items()}
    try:
        return validated_job(nested(values))
    except ParameterError as error:
        raise ParameterError(error.detail, field=names.get(error.field or "", error.field)) from None

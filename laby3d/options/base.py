"""What every option section shares: strict, frozen pydantic models and the number types.

Every option of laby3d is one field of a section (:mod:`laby3d.options`): its name, type,
default, range, choices (``Literal``) and one-line description live there and nowhere else.
The CLI flags, ``laby3d schema`` and the README's tables are generated from these fields.
A field may name its CLI flag when the field name alone would be ambiguous:
``Field(..., json_schema_extra=flag("--laser-mode"))``.

Numbers are taken as typed: a boolean (YAML's ``true``, Python's ``True``) or a text (``'15'``)
is refused, never read as 1 or 15; numpy numbers are taken as the Python numbers they hold.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from laby3d.errors import ParameterError

#: Smallest non-zero length laby3d works with, mm (1 µm: files give mm to 3 decimals); below it a
#: length is a typing mistake, and a denormal one (5e-324) would overflow the geometry's counts.
RESOLUTION_MM = 0.001


def plain_number(value: Any) -> Any:
    """A numpy number as the Python number it holds; anything else unchanged (booleans, numpy's
    included, stay booleans, so the strict number types refuse them)."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


class _Unit:
    """Marks a number type with its unit (pydantic keeps the mark in the field's metadata)."""

    def __init__(self, name: str) -> None:
        self.name = name


MILLIMETRES = _Unit("mm")
#: A length in millimetres: a finite number, 0 or at least 1 µm (ranges are given per field).
Millimetres = Annotated[float, Field(strict=True, allow_inf_nan=False), MILLIMETRES]
#: A finite number with no unit (a probability, a share).
Number = Annotated[float, Field(strict=True, allow_inf_nan=False)]
#: A count: a whole number as typed, never a boolean or a fraction read as one.
Whole = Annotated[int, Field(strict=True)]


class Section(BaseModel):
    """A group of options (a YAML mapping, a group of CLI flags): unknown keys are errors;
    numpy numbers are taken as Python numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _plain_numbers(cls, value: Any) -> Any:
        return plain_number(value)

    @field_validator("*")
    @classmethod
    def _resolvable(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, float) and value != 0 and abs(value) < RESOLUTION_MM:
            if is_length(cls.model_fields[info.field_name or ""]):
                raise ParameterError(f"is below laby3d's resolution of {RESOLUTION_MM:g} mm (1 µm), got {value:g}")
        return value


def is_length(field: Any) -> bool:
    """Whether the pydantic ``field`` is a length in mm (:data:`Millimetres`, optional or not)."""
    return MILLIMETRES in field.metadata or _marked(field.annotation)


def _marked(annotation: Any) -> bool:
    """Whether ``annotation`` (``Millimetres | None`` included) is a length in mm."""
    if typing.get_origin(annotation) is Annotated:
        return MILLIMETRES in typing.get_args(annotation)
    return any(_marked(kind) for kind in typing.get_args(annotation))


def flag(name: str, *aliases: str) -> dict[str, Any]:
    """``json_schema_extra`` naming a field's CLI flag (and short aliases such as ``-a``)."""
    return {"flag": [name, *aliases]}

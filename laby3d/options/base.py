"""What every option section shares: strict, frozen pydantic models and the mm number type.

Every option of laby3d is one field of a section (:mod:`laby3d.options`): its name, type,
default, range, choices (``Literal``) and one-line description live there and nowhere else.
The CLI flags, ``laby3d schema`` and the README's tables are generated from these fields.
A field may name its CLI flag when the field name alone would be ambiguous:
``Field(..., json_schema_extra=flag("--laser-mode"))``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

#: A length in millimetres: a finite float (ranges are given per field).
Millimetres = Annotated[float, Field(allow_inf_nan=False)]
#: A count: a whole number as typed, never a boolean or a fraction read as one.
Whole = Annotated[int, Field(strict=True)]


class Section(BaseModel):
    """A group of options (a YAML mapping, a group of CLI flags): unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def flag(name: str, *aliases: str) -> dict[str, Any]:
    """``json_schema_extra`` naming a field's CLI flag (and short aliases such as ``-a``)."""
    return {"flag": [name, *aliases]}

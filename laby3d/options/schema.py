"""JSON Schema of the option sections (``laby3d schema``: editors check a batch file with it),
from the same fields the checker reads (:mod:`laby3d.options.base`)."""

from __future__ import annotations

import inspect
import types
import typing
from typing import Annotated, Any, Literal

from laby3d.options.base import Limits, OptionField, Section, not_none, option_fields

#: JSON Schema keyword of each bound of :class:`Limits`, for numbers and for lengths.
_NUMBER_KEYS = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}
_LENGTH_KEYS = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}


def section_schema(section: type[Section]) -> dict[str, Any]:
    """The schema of ``section`` with its sections under ``$defs`` (referenced by name)."""
    definitions: dict[str, Any] = {}
    schema = _object(section, definitions)
    return {**schema, "$defs": definitions} if definitions else schema


def _object(section: type[Section], definitions: dict[str, Any]) -> dict[str, Any]:
    fields = option_fields(section)
    schema: dict[str, Any] = {
        "title": section.__name__,
        "type": "object",
        "additionalProperties": False,
        "properties": {name: _field(field, definitions) for name, field in fields.items()},
    }
    required = [name for name, field in fields.items() if field.required]
    if required:
        schema["required"] = required
    if section.__doc__:
        schema["description"] = " ".join(inspect.cleandoc(section.__doc__).split("\n\n")[0].split())
    return schema


def _field(field: OptionField, definitions: dict[str, Any]) -> dict[str, Any]:
    schema = _type(field.annotation, definitions, field.limits)
    if not field.required and not isinstance(field.default, Section):
        schema["default"] = field.default
    schema["description"] = field.description
    return schema


def _type(kind: Any, definitions: dict[str, Any], limits: Limits | None = None) -> dict[str, Any]:
    """The schema of type ``kind`` (``limits``: the field's own, on the innermost type)."""
    origin = typing.get_origin(kind)
    schema: dict[str, Any]
    if origin is Annotated:
        base, *marks = typing.get_args(kind)
        schema = _type(base, definitions, limits)
        for mark in marks:
            if isinstance(mark, Limits):
                _bound(schema, mark)
        return schema
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type(not_none(kind), definitions, limits), {"type": "null"}]}
    if origin is Literal:
        schema = {"enum": list(typing.get_args(kind)), "type": "string"}
    elif origin is list:
        schema = {"type": "array", "items": _type(typing.get_args(kind)[0], definitions)}
    elif origin is dict:
        schema = {"type": "object", "additionalProperties": _type(typing.get_args(kind)[1], definitions)}
    elif isinstance(kind, type) and issubclass(kind, Section):
        if kind.__name__ not in definitions:
            definitions[kind.__name__] = {}  # a placeholder while its own fields are made
            definitions[kind.__name__] = _object(kind, definitions)
        return {"$ref": f"#/$defs/{kind.__name__}"}
    else:
        names = {bool: "boolean", int: "integer", float: "number", str: "string"}
        schema = {"type": names[kind]} if kind in names else {}
    if limits is not None:
        _bound(schema, limits)
    return schema


def _bound(schema: dict[str, Any], limits: Limits) -> None:
    """Add the bounds of ``limits`` to ``schema`` (numbers: range; texts, lists, mappings: lengths)."""
    for name, key in _NUMBER_KEYS.items():
        if getattr(limits, name) is not None:
            schema[key] = getattr(limits, name)
    least, most = _LENGTH_KEYS.get(schema.get("type", ""), ("minLength", "maxLength"))
    if limits.min_length is not None:
        schema[least] = limits.min_length
    if limits.max_length is not None:
        schema[most] = limits.max_length

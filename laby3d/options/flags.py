"""CLI flags generated from the option fields: name, help, choices, default and range come from
the field, so a new option is a new flag with no edit here.

Flags leave the namespace untouched unless typed (``argparse.SUPPRESS``): the job then takes
its defaults from the fields, exactly as a YAML job does.
"""

from __future__ import annotations

import argparse
import types
import typing
from collections.abc import Iterable
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt

from laby3d.options.job import SECTIONS, job_flag_fields

#: argparse group titles per section.
GROUP_TITLES = {
    "": "job",
    "maze": "maze",
    "print": "printable solid (mm) and printer",
    "pictures": "pictures and text",
    "laser": "laser sheets (mm)",
    "walk": "walk-through page",
    "worksheet": "worksheets, answer keys and the lesson",
}


def _dest(path: str) -> str:
    return "opt__" + path.replace(".", "__")


def base_type(annotation: Any) -> Any:
    """The annotation without ``None`` (``float | None`` → ``float``)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kinds = [kind for kind in typing.get_args(annotation) if kind is not type(None)]
        annotation = kinds[0] if len(kinds) == 1 else str
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _number(text: str) -> int | float | str:
    """A typed number when it is one; other text (and numbers too long to be sizes) goes on to
    the field's own check, which names it."""
    if len(text) > 40:
        return text
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def range_text(field: Any) -> str:
    """The field's allowed range, e.g. ``> 0, ≤ 5``."""
    parts = []
    for item in field.metadata:
        for kind, sign, attribute in ((Gt, ">", "gt"), (Ge, "≥", "ge"), (Lt, "<", "lt"), (Le, "≤", "le")):
            if isinstance(item, kind):
                limit = getattr(item, attribute)
                parts.append(f"{sign} {limit:g}" if isinstance(limit, float) else f"{sign} {limit}")
    return ", ".join(parts)


def choices_of(field: Any) -> tuple[Any, ...] | None:
    """The ``Literal`` choices of a field, if it has them."""
    kind = base_type(field.annotation)
    return typing.get_args(kind) if typing.get_origin(kind) is Literal else None


def add_option_flags(parser: argparse.ArgumentParser, sections: Iterable[str]) -> dict[str, str]:
    """Add a flag per option of ``sections`` (``""`` = the job's own options such as seed and
    label); returns dotted path → flag as typed."""
    wanted = set(sections)
    groups: dict[str, argparse._ArgumentGroup] = {}
    flags = {}
    for path, field, names in job_flag_fields():
        section = path.split(".")[0] if "." in path else ""
        if section not in wanted:
            continue
        if section not in groups:
            groups[section] = parser.add_argument_group(GROUP_TITLES.get(section, section))
        kind = base_type(field.annotation)
        help_text = field.description or ""
        limits = range_text(field)
        if limits:
            help_text += f" ({limits})"
        if field.default is True:
            help_text += " [default: on]"
        elif field.default is not None and field.default is not False:
            help_text += f" [default: {field.default:g}]" if kind is float else f" [default: {field.default}]"
        arguments: dict[str, Any] = {
            "dest": _dest(path),
            "default": argparse.SUPPRESS,
            "help": help_text.replace("%", "%%"),
        }
        choices = choices_of(field)
        if kind is bool:
            arguments["action"] = argparse.BooleanOptionalAction
        elif choices is not None:
            arguments["choices"] = choices
        elif kind in (int, float):
            arguments["type"] = _number
            arguments["metavar"] = "MM" if "mm" in help_text else "N"
        else:
            arguments["metavar"] = "TEXT"
        groups[section].add_argument(*names, **arguments)
        flags[path] = names[0]
    return flags


def typed_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options the user typed: dotted path → value."""
    return {
        name[len("opt__") :].replace("__", "."): value for name, value in vars(args).items() if name.startswith("opt__")
    }


def all_flags() -> dict[str, str]:
    """Dotted path → flag for every option (what error messages name on the CLI)."""
    return {path: names[0] for path, _, names in job_flag_fields()}


__all__ = [
    "GROUP_TITLES",
    "SECTIONS",
    "add_option_flags",
    "all_flags",
    "base_type",
    "choices_of",
    "range_text",
    "typed_options",
]

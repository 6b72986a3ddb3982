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

from laby3d.i18n.formatting import colon, number_text
from laby3d.options import translations
from laby3d.options.base import OptionField, is_length, not_none
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
        annotation = not_none(annotation)
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


def range_text(field: OptionField, lang: str = "en") -> str:
    """The field's allowed range, e.g. ``> 0, ≤ 5`` (``> 0,1`` in French)."""
    parts = []
    for sign, attribute in ((">", "gt"), ("≥", "ge"), ("<", "lt"), ("≤", "le")):
        limit = getattr(field.limits, attribute)
        if limit is not None:
            parts.append(f"{sign} {number_text(limit, lang) if isinstance(limit, float) else limit}")
    return ", ".join(parts)


def choices_of(field: OptionField) -> tuple[Any, ...] | None:
    """The ``Literal`` choices of a field, if it has them."""
    kind = base_type(field.annotation)
    return typing.get_args(kind) if typing.get_origin(kind) is Literal else None


def flag_help(path: str, field: OptionField, lang: str = "en") -> str:
    """A flag's help: the option's help (:mod:`laby3d.options.translations` in French), its
    range, the French labels of its choices, and its default."""
    kind = base_type(field.annotation)
    help_text = translations.help_text(path, field, lang)
    limits = range_text(field, lang)
    if limits:
        help_text += f" ({limits})"
    choices = choices_of(field)
    if lang == "fr" and choices is not None:
        named = [f"{choice} = {translations.choice_label(path, choice, lang)}" for choice in choices]
        help_text += f" ; {', '.join(named)}"
    default = "défaut" if lang == "fr" else "default"
    if field.default is True:
        help_text += f" [{colon(default, lang)} {'oui' if lang == 'fr' else 'on'}]"
    elif field.default is not None and field.default is not False:
        value = number_text(field.default, lang) if kind is float else field.default
        help_text += f" [{colon(default, lang)} {value}]"
    return help_text


def add_option_flags(
    parser: argparse.ArgumentParser, sections: Iterable[str], lang: str = "en", *, only: Iterable[str] | None = None
) -> dict[str, str]:
    """Add a flag per option of ``sections`` (``""`` = the job's own options such as seed and
    label; ``only``: just these dotted paths), their help in ``lang``; returns dotted path → flag
    as typed."""
    wanted = set(sections)
    chosen = None if only is None else set(only)
    titles = translations.FRENCH_SECTIONS if lang == "fr" else GROUP_TITLES
    groups: dict[str, argparse._ArgumentGroup] = {}
    flags = {}
    for path, field, names in job_flag_fields():
        section = path.split(".")[0] if "." in path else ""
        if section not in wanted or (chosen is not None and path not in chosen):
            continue
        if section not in groups:
            groups[section] = parser.add_argument_group(titles.get(section, section))
        kind = base_type(field.annotation)
        help_text = flag_help(path, field, lang)
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
            arguments["metavar"] = "MM" if is_length(field) else "N"
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
    "flag_help",
    "range_text",
    "typed_options",
]

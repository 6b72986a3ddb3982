"""What every option section shares: frozen keyword dataclasses and the one checker of their
values.

Every option of laby3d is one field of a section (:mod:`laby3d.options`): its name, type,
default, range, choices (``Literal``) and one-line description live there, given by
:func:`option`, and nowhere else. The CLI flags, ``laby3d schema`` and the README's tables are
generated from these fields. A section made from data (:meth:`Section.from_data`: YAML, flags,
the class server's JSON, Python keywords) or copied with :func:`dataclasses.replace` checks every
field, in the words of :mod:`laby3d.i18n.messages`.

The checker is laby3d's own rather than pydantic's, whose import alone took 1.8× numpy's, so
that a command starts in well under twice numpy's import (bench/README.md). The options need few
types: whole and finite numbers, lengths in mm, true/false, texts, choices, lists and mappings of
those, and sections. Numbers are taken as typed: a boolean (YAML's ``true``, Python's ``True``)
or a text (``'15'``) is refused, never read as 1 or 15; numpy numbers are taken as the Python
numbers they hold.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar

from laby3d.errors import ParameterError
from laby3d.i18n.messages import Message
from laby3d.quoting import shown

#: Smallest non-zero length laby3d works with, mm (1 µm: files give mm to 3 decimals); below it a
#: length is a typing mistake, and a denormal one (5e-324) would overflow the geometry's counts.
RESOLUTION_MM = 0.001


@dataclasses.dataclass(frozen=True)
class Limits:
    """The range and lengths a value keeps (None: no bound); lengths count characters of a text,
    items of a list or mapping."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    lt: float | None = None
    min_length: int | None = None
    max_length: int | None = None

    def check(self, value: Any) -> None:
        """Raise :class:`ParameterError` (no field) when ``value`` is outside."""
        if isinstance(value, int | float):
            for bound, sign, outside in _BOUNDS:
                limit = getattr(self, bound)
                if limit is not None and outside(value, limit):
                    raise ParameterError(Message("compare", sign=sign, limit=limit, value=shown(value)))
            return
        text = isinstance(value, str)
        if self.min_length is not None and len(value) < self.min_length:
            kind = "at_least_characters" if text else "at_least_items"
            raise ParameterError(Message(kind, limit=self.min_length, value=shown(value)))
        if self.max_length is not None and len(value) > self.max_length:
            kind = "at_most_characters" if text else "at_most_items"
            raise ParameterError(Message(kind, limit=self.max_length, value=shown(value)))


#: No bound: what a type's own check takes where its field gives none.
_NO_LIMITS = Limits()
#: Each bound of :class:`Limits`: its sign as said, and when a value is outside it.
_BOUNDS = (("ge", ">=", operator.lt), ("gt", ">", operator.le), ("le", "<=", operator.gt), ("lt", "<", operator.ge))


@dataclasses.dataclass(frozen=True)
class Checked:
    """A rule of a type's own, in its ``Annotated`` marks: ``rule`` takes the value and returns it
    (converted, perhaps) or raises :class:`ParameterError`; with ``before`` it sees the value as
    typed (a fleet's ``mini=2`` text), else once the value has the right type. A copy of the
    section checks its values again: a rule must return what it returns for its own result."""

    rule: Callable[[Any], Any]
    before: bool = False

    def apply(self, value: Any) -> Any:
        """The rule's result; its refusal is the option's (whatever field the rule named)."""
        try:
            return self.rule(value)
        except ParameterError as error:
            raise ParameterError(error.detail) from None


#: The mark of a length in millimetres among a type's ``Annotated`` marks.
MILLIMETRES = object()
#: A length in millimetres: a finite number, 0 or at least 1 µm (ranges are given per field).
Millimetres = Annotated[float, MILLIMETRES]
#: A finite number with no unit (a probability, a share): the name says what a field holds;
#: every float field is checked so.
Number = float
#: A count: a whole number as typed, never a boolean or a fraction read as one; every int field
#: is checked so.
Whole = int

_MISSING: Any = dataclasses.MISSING


def option(
    default: Any = _MISSING,
    *,
    description: str,
    default_factory: Callable[[], Any] | None = None,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    flags: tuple[str, ...] = (),
) -> Any:
    """A section's option: its default (none: required), one-line ``description``, range and
    lengths, and CLI ``flags`` when the field's name alone would be ambiguous (``--laser-mode``)."""
    if default_factory is not None and default is not _MISSING:
        raise TypeError("an option has a default or a default factory, not both")
    about = {"description": description, "limits": Limits(ge, gt, le, lt, min_length, max_length), "flags": flags}
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata={"option": about})
    return dataclasses.field(default=default, metadata={"option": about})


@dataclasses.dataclass(frozen=True)
class OptionField:
    """One option of a section, as the CLI, the schema, the tables and the class server read it."""

    name: str
    annotation: Any  # the type, with its Annotated marks
    default: Any  # None when absent; the default factory's value for a list or a section
    required: bool
    description: str
    limits: Limits
    flags: tuple[str, ...]

    def checked(self, value: Any) -> Any:
        """``value`` as the option takes it; raises :class:`ParameterError` on this field."""
        try:
            return checked_value(self.annotation, value, self.limits)
        except ParameterError as error:
            raise _at(error, self.name) from None


S = TypeVar("S", bound="Section")


class Section:
    """A group of options (a YAML mapping, a group of CLI flags): a frozen keyword dataclass
    (``@dataclasses.dataclass(frozen=True, kw_only=True)``) whose fields are :func:`option`\\ s;
    unknown keys are errors; every field is checked when the section is made. Make one from
    data with :meth:`from_data` (its constructor takes only its own fields, as keywords)."""

    def __post_init__(self) -> None:
        for name, field in option_fields(type(self)).items():
            value = getattr(self, name)
            found = field.checked(value)
            if found is not value:
                object.__setattr__(self, name, found)

    @classmethod
    def from_data(cls: type[S], data: Any) -> S:
        """The section ``data`` (a mapping) describes; raises :class:`ParameterError` on the
        dotted path at fault: unknown keys first (a mistyped key explains a missing value), then
        the fields in their order."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise ParameterError(Message("options_mapping", value=shown(data)))
        fields = option_fields(cls)
        for key in data:
            if key not in fields:
                raise ParameterError(Message("unknown_key"), field=str(key))
        for name, field in fields.items():
            if field.required and name not in data:
                raise ParameterError(Message("required"), field=name)
        return cls(**data)  # the fields checked once, in their order, by __post_init__


def option_fields(section: type[Section]) -> Mapping[str, OptionField]:
    """The options of ``section`` by name, in declaration order (read once a class, kept in
    :data:`_OPTION_FIELDS`)."""
    if section not in _OPTION_FIELDS:
        hints = typing.get_type_hints(section, include_extras=True)
        found = {}
        for field in dataclasses.fields(section):  # type: ignore[arg-type]
            about = field.metadata.get("option")
            if about is None:  # a section's own state (a job's notes), not an option
                continue
            factory: Any = field.default_factory
            required = field.default is _MISSING and factory is _MISSING
            default = factory() if factory is not _MISSING else field.default
            found[field.name] = OptionField(
                field.name, hints[field.name], None if required else default, required, **about
            )
        _OPTION_FIELDS[section] = types.MappingProxyType(found)
    return _OPTION_FIELDS[section]


#: Each section's options, read from its class once (:func:`option_fields`).
_OPTION_FIELDS: dict[type[Section], Mapping[str, OptionField]] = {}


def as_data(section: Section, *, exclude: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    """The options of ``section`` as plain data (sections as mappings, lists copied), as YAML or
    JSON would give them back; ``exclude``: top-level names left out."""
    data: dict[str, Any] = {}
    for name in option_fields(type(section)):
        if name in exclude:
            continue
        value = getattr(section, name)
        if isinstance(value, Section):
            value = as_data(value)
        elif isinstance(value, list | dict):
            value = type(value)(value)
        data[name] = value
    return data


def is_length(field: OptionField) -> bool:
    """Whether the option ``field`` is a length in mm (:data:`Millimetres`, optional or not)."""
    return _marked(field.annotation)


def plain_number(value: Any) -> Any:
    """A numpy number as the Python number it holds; anything else unchanged (booleans, numpy's
    included, stay booleans, so the number types refuse them). numpy is not imported for it."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    return value


def checked_value(kind: Any, value: Any, limits: Limits | None = None) -> Any:
    """``value`` as type ``kind`` takes it (``Annotated`` marks, ``X | None``, ``Literal``,
    ``list``, ``dict``, a :class:`Section`, bool, int, float, str, ``Any``), within the field's
    ``limits`` (checked once the value has its type, before the type's own rules); raises
    :class:`ParameterError` (its field, if any, inside the value: ``[3]``, ``mini``)."""
    value = plain_number(value)
    origin = typing.get_origin(kind)
    if origin is Annotated:
        base, *marks = typing.get_args(kind)
        for mark in marks:
            if isinstance(mark, Checked) and mark.before:
                value = mark.apply(value)
        value = checked_value(base, value, limits)
        for mark in marks:
            if isinstance(mark, Limits):
                mark.check(value)
            elif isinstance(mark, Checked) and not mark.before:
                value = mark.apply(value)
            elif mark is MILLIMETRES and value != 0 and abs(value) < RESOLUTION_MM:
                raise ParameterError(Message("below_resolution", limit=RESOLUTION_MM, value=f"{value:g}"))
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in typing.get_args(kind):
            return None
        return checked_value(not_none(kind), value, limits)
    value = _typed(kind, origin, value, limits or _NO_LIMITS)
    if limits is not None and not isinstance(value, list | dict):
        limits.check(value)  # said as typed: 0, not 0.0
    return float(value) if kind is float else value


def _typed(kind: Any, origin: Any, value: Any, limits: Limits) -> Any:
    """``value`` as the plain type ``kind`` (of ``origin``) takes it; a list's or a mapping's
    ``limits`` are checked before its items (a class list of 2,000 names is too long, whatever
    the names), a single value's after it."""
    if origin is Literal:
        choices = typing.get_args(kind)
        if isinstance(value, str) and value in choices:
            return value
        raise ParameterError(Message("one_of", choices=", ".join(repr(c) for c in choices), value=shown(value)))
    if origin is list:
        if not isinstance(value, list | tuple):
            raise ParameterError(Message("list", value=shown(value)))
        limits.check(value)
        (item,) = typing.get_args(kind)
        return [_item(item, element, f"[{index}]") for index, element in enumerate(value)]
    if origin is dict:
        if not isinstance(value, Mapping):
            raise ParameterError(Message("mapping", value=shown(value)))
        limits.check(value)
        keys, item = typing.get_args(kind)
        return {_item(keys, key, str(key)): _item(item, element, str(key)) for key, element in value.items()}
    if isinstance(kind, type) and issubclass(kind, Section):
        return kind.from_data(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ParameterError(Message("true_or_false", value=shown(value)))
        return value
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ParameterError(Message("whole_number", value=shown(value)))
    if kind is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ParameterError(Message("number", value=shown(value)))
        try:
            finite = math.isfinite(value)
        except OverflowError:  # a whole number beyond any float
            finite = False
        if not finite:
            raise ParameterError(Message("finite_number", value=shown(value)))
        return value
    if kind is str:
        if not isinstance(value, str):
            raise ParameterError(Message("text", value=shown(value)))
        return value
    if kind is Any:
        return value
    raise TypeError(f"laby3d's options have no type {kind!r} (a bug: laby3d.options.base.checked_value)")


def _item(kind: Any, value: Any, where: str) -> Any:
    try:
        return checked_value(kind, value)
    except ParameterError as error:
        raise _at(error, where) from None


def _at(error: ParameterError, where: str) -> ParameterError:
    """``error`` with ``where`` (a field name or ``[3]``) before its own field."""
    if error.field is None:
        field = where
    elif error.field.startswith("["):
        field = f"{where}{error.field}"
    else:
        field = f"{where}.{error.field}"
    found = type(error)(error.detail, field=field)
    found.also, found.lang = error.also, error.lang
    return found


def not_none(union: Any) -> Any:
    """The kind of ``union`` but None (``X | None`` → ``X``): options are of one type or None."""
    kinds = tuple(kind for kind in typing.get_args(union) if kind is not type(None))
    if len(kinds) != 1:
        raise TypeError(f"laby3d's options are of one type or None, not {union!r}")
    return kinds[0]


def _marked(annotation: Any) -> bool:
    """Whether ``annotation`` (``Millimetres | None`` included) is a length in mm."""
    if typing.get_origin(annotation) is Annotated:
        return MILLIMETRES in typing.get_args(annotation)
    return any(_marked(kind) for kind in typing.get_args(annotation))

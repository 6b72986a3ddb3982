"""Safe YAML loading for files laby3d did not write: budgets, strict types, one-line errors.

:func:`load_yaml` builds only plain data (``yaml.SafeLoader``: mappings, lists, strings,
numbers, booleans, null) and refuses, with a :class:`YamlError` naming the document and line:

- documents over :data:`MAX_YAML_BYTES`;
- documents that expand to more than :data:`MAX_NODES` values or :data:`MAX_EXPANDED_TEXT`
  characters, each use of an alias counting again ("billion laughs": counted in one pass over
  the parser's events before anything is built, so a 500-byte bomb is refused after a few
  hundred events, well under a millisecond);
- nesting deeper than :data:`MAX_NESTING`, aliases included;
- duplicate keys (naming the key and both lines);
- integers written with more than :data:`MAX_INTEGER_TEXT` characters, lone surrogates in
  strings (not Unicode: no writer could encode them), and the tags ``!!binary``, ``!!set``,
  ``!!omap``, ``!!pairs``.

Control characters are valid text: each field's model decides (names are sanitised into file
names, labels are checked against the font), and messages quote values with ``repr``.

Plain scalars follow YAML 1.2's core schema where YAML 1.1 surprises: only ``true``/``false`` are
booleans (``no``, ``on``, ``y`` stay text), ``010`` is ten, ``1:20`` and dates stay text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node

from laby3d.errors import Laby3dError
from laby3d.quoting import shown
from laby3d.textfiles import read_limited_text

#: Largest YAML document read (bytes of UTF-8).
MAX_YAML_BYTES = 1 << 20
#: Most values (scalars, lists and mappings) a document may expand to, aliases counted each time.
MAX_NODES = 100_000
#: Most characters of text a document may expand to, aliases counted each time.
MAX_EXPANDED_TEXT = 4 * MAX_YAML_BYTES
#: Deepest nesting of lists and mappings, aliases followed.
MAX_NESTING = 32
#: Longest integer written in a document (a seed has at most 19 digits).
MAX_INTEGER_TEXT = 100

#: libyaml's parser when PyYAML was built with it (10× faster), else PyYAML's own.
_LOADER_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_REFUSED_TAGS = ("binary", "set", "omap", "pairs")
_SURROGATE = re.compile("[\ud800-\udfff]")
_INTEGER = re.compile(r"[-+]?[0-9][0-9_]*|0o[0-7]+|0x[0-9a-fA-F]+")


class YamlError(ValueError, Laby3dError):
    """A YAML document is malformed, unsafe or over a budget (the message names it and the line)."""


def load_yaml_file(path: str | os.PathLike[str], name: str | None = None) -> Any:
    """The plain data of the YAML file at ``path``; errors start with ``name`` (default: the file's
    name). The size is checked before reading and the bytes must be UTF-8."""
    name = name or Path(path).name
    text = read_limited_text(path, name=name, limit=MAX_YAML_BYTES, error=YamlError)
    return load_yaml(text, name)


def load_yaml(text: str, name: str) -> Any:
    """The plain data of the YAML document ``text``; every error is one line starting with ``name``.

    >>> load_yaml("rows: 010\\nlabel: no\\nseed: 7", "job.yaml")
    {'rows': 10, 'label': 'no', 'seed': 7}
    >>> load_yaml("a: 1\\nb: 2\\na: 3", "job.yaml")
    Traceback (most recent call last):
    laby3d.yamlsafe.YamlError: job.yaml: line 3: duplicate key 'a' (first at line 1)
    """
    if len(text) > MAX_YAML_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        raise YamlError(f"{name}: document is over {MAX_YAML_BYTES:,} bytes")
    try:
        check_expansion(text, name)
        loader = StrictLoader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        raise YamlError(f"{name}: {_describe(error)}") from None
    except yaml.YAMLError as error:
        raise YamlError(f"{name}: not valid YAML: {shown(str(error), 120)}") from None


def check_expansion(text: str, name: str) -> None:
    """Refuse ``text`` if, aliases expanded, it holds more than :data:`MAX_NODES` values or
    :data:`MAX_EXPANDED_TEXT` characters of text, or nests more than :data:`MAX_NESTING` deep:
    one pass over the parser's events that builds nothing, so a "billion laughs" is refused after
    a few hundred events.

    >>> bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]"
    >>> for previous, anchor in zip("abcdefgh", "bcdefghi"):
    ...     bomb += f"\\n{anchor}: &{anchor} [{', '.join(['*' + previous] * 10)}]"
    >>> check_expansion(bomb, "bomb.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    laby3d.yamlsafe.YamlError: bomb.yaml: line 5: the document expands to more than 100,000 values ...
    """
    anchors: dict[str, tuple[int, int, int]] = {}  # anchor -> (values, characters, depth) of its node
    open_collections: list[list[Any]] = []  # [anchor, values, characters, deepest child's depth]
    total_values = total_characters = 0
    for event in yaml.parse(text, Loader=StrictLoader):
        if isinstance(event, CollectionStartEvent):
            if len(open_collections) >= MAX_NESTING:
                raise YamlError(f"{name}: line {_line(event)}: lists and mappings nest more than {MAX_NESTING} deep")
            open_collections.append([event.anchor, 1, 0, 0])
            total_values += 1
            continue
        if isinstance(event, CollectionEndEvent):
            anchor, values, characters, child_depth = open_collections.pop()
            depth = child_depth + 1
        elif isinstance(event, ScalarEvent):
            anchor, values, characters, depth = event.anchor, 1, len(event.value), 0
            total_values += values
            total_characters += characters
        elif isinstance(event, AliasEvent):
            anchor = None
            values, characters, depth = anchors.get(event.anchor, (1, 0, 0))  # unknown: refused later
            total_values += values
            total_characters += characters
            if len(open_collections) + depth > MAX_NESTING:
                raise YamlError(
                    f"{name}: line {_line(event)}: aliases nest lists and mappings more than {MAX_NESTING} deep"
                )
        else:
            continue
        if anchor is not None:
            anchors[anchor] = (values, characters, depth)
        if open_collections:
            parent = open_collections[-1]
            parent[1] += values
            parent[2] += characters
            parent[3] = max(parent[3], depth)
        if total_values > MAX_NODES or total_characters > MAX_EXPANDED_TEXT:
            amount = f"{MAX_NODES:,} values" if total_values > MAX_NODES else f"{MAX_EXPANDED_TEXT:,} characters"
            raise YamlError(
                f"{name}: line {_line(event)}: the document expands to more than {amount} "
                "(each use of an alias counts again)"
            )


def _line(event: Any) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 0


def _describe(error: yaml.MarkedYAMLError) -> str:
    """``line N: problem`` of a PyYAML error, on one line."""
    mark = error.problem_mark or error.context_mark
    where = f"line {mark.line + 1}: " if mark is not None else ""
    problem = " ".join(str(error.problem or error.context or "not valid YAML").split())
    return where + problem


class StrictLoader(_LOADER_BASE):  # type: ignore[misc,valid-type]
    """``SafeLoader`` (libyaml's parser when available) that builds strict plain data only."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, MappingNode):
            first_lines: dict[Any, int] = {}  # own keys only: a merge (<<) may repeat a key on purpose
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = first_lines.get(key)
                except TypeError:  # an unhashable key: SafeConstructor refuses it below
                    continue
                if first is not None:
                    raise ConstructorError(
                        None, None, f"duplicate key {shown(key)} (first at line {first})", key_node.start_mark
                    )
                first_lines[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)

    def construct_scalar(self, node: Node) -> Any:
        value = super().construct_scalar(node)
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise ConstructorError(None, None, "a string holds a lone surrogate (not Unicode)", node.start_mark)
        return value

    def construct_strict_int(self, node: Node) -> int:
        """YAML 1.2 core integers: decimal (``_`` allowed, leading zeros ignored), 0o, 0x."""
        text = self.construct_scalar(node)
        if len(text) > MAX_INTEGER_TEXT:
            raise ConstructorError(
                None, None, f"an integer of {len(text):,} characters (at most {MAX_INTEGER_TEXT})", node.start_mark
            )
        digits = text.replace("_", "")
        if digits[:2] in ("0o", "0x"):
            return int(digits[2:], 8 if digits[1] == "o" else 16)
        return int(digits, 10)

    def construct_plain_text(self, node: Node) -> str:
        """A YAML 1.1 timestamp kept as the text it was written as."""
        return str(self.construct_scalar(node))

    def refuse_tag(self, node: Node) -> Any:
        raise ConstructorError(None, None, f"the tag {node.tag} is not allowed (plain data only)", node.start_mark)


def _strict_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """SafeLoader's implicit resolvers without YAML 1.1's booleans, integers and timestamps."""
    replaced = (_BOOL_TAG, _INT_TAG, _TIMESTAMP_TAG)
    return {
        first: [(tag, pattern) for tag, pattern in resolvers if tag not in replaced]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


StrictLoader.yaml_implicit_resolvers = _strict_resolvers()
StrictLoader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
StrictLoader.add_implicit_resolver(_INT_TAG, re.compile(rf"^(?:{_INTEGER.pattern})$"), list("-+0123456789"))
StrictLoader.add_constructor(_INT_TAG, StrictLoader.construct_strict_int)
StrictLoader.add_constructor(_TIMESTAMP_TAG, StrictLoader.construct_plain_text)
for _tag in _REFUSED_TAGS:
    StrictLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", StrictLoader.refuse_tag)

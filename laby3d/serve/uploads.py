"""Outlines in the class app: a pupil's image checked as it is uploaded, and the outline of a
design kept to what the class may read.

On the command line ``maze.outline`` may name any file; in the class app the server's disk is
not the pupil's. A pupil's outline is a built-in (``heart``), ``text:…``, or
``upload:NAME``: an image this pupil (or the teacher) uploaded, stored under the SHA-256 of its
bytes in the class's folder (:class:`laby3d.serve.storage.ClassStore`). Anything else (``/etc/passwd``,
``../../x.png``, another pupil's upload) is refused with one line on the field, before any file
is opened. The class's own defaults and the teacher's locks are the teacher's: they may name a
file on the teacher's disk, or any upload of the class.

An upload is at most :data:`MAX_UPLOAD_BYTES`, its kind read from its bytes (a PNG's or JPEG's
signature, an XML document whose root is ``<svg>``), never from its name, and it is read as an
outline (:func:`laby3d.geometry.outlines.file_outline`: pixels, a dark pixel, a filled shape)
before it is stored, so the pupil learns at once what is wrong with it.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from laby3d.errors import ParameterError
from laby3d.geometry.outlines import BUILT_IN, TEXT_PREFIX
from laby3d.i18n import Message
from laby3d.quoting import shown, shown_path

#: The prefix of an uploaded outline in a design: ``upload:0123456789abcdef.png``.
UPLOAD_PREFIX = "upload:"
#: Largest image a pupil may upload, bytes (a logo or a drawing is a few tens of kB).
MAX_UPLOAD_BYTES = 1_000_000
#: Most images one pupil may upload (the class's disk is shared; the teacher's are not counted).
MAX_UPLOADS = 30
#: The owner of the teacher's uploads in the store (a pupil's key is letters and digits only).
TEACHER = "#teacher"
#: The design's field an outline is.
OUTLINE = "maze.outline"
#: Hexadecimal digits of the SHA-256 that name a stored upload.
DIGEST_DIGITS = 16
#: A stored upload's name: its digest and the ending of its kind.
STORED_NAME = re.compile(rf"[0-9a-f]{{{DIGEST_DIGITS}}}\.(?:svg|png|jpg)")
#: Longest file name of an upload shown back to the pupil, characters.
SHOWN_NAME = 60


def upload_kind(data: bytes) -> str | None:
    """The file ending of an image's kind read from its bytes: ``png``, ``jpg``, ``svg`` (an XML
    document whose root element is ``svg``), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    from xml.etree import ElementTree as ET

    try:
        for _, element in ET.iterparse(io.BytesIO(data), events=("start",)):
            return "svg" if element.tag in ("svg", "{http://www.w3.org/2000/svg}svg") else None
    except (ET.ParseError, ValueError, UnicodeError):
        return None
    return None


def stored_name(data: bytes, kind: str) -> str:
    """The name an upload is stored under: its digest and its kind's ending."""
    return f"{hashlib.sha256(data).hexdigest()[:DIGEST_DIGITS]}.{kind}"


def checked_upload(data: bytes, filename: str) -> str:
    """The stored name of an uploaded image, checked as an outline (its kind from its bytes, its
    size, its pixels, a dark pixel or a filled shape); raises :class:`ParameterError` on
    ``maze.outline``, naming the file as the pupil called it."""
    from laby3d.geometry.outlines import file_outline

    name = shown_path(Path(filename or "image").name or "image", SHOWN_NAME)
    if not data:
        raise ParameterError(Message("serve_upload_empty", name=name), field=OUTLINE)
    if len(data) > MAX_UPLOAD_BYTES:
        megabytes = round(len(data) / 1e6, 1)
        raise ParameterError(
            Message("serve_upload_too_big", name=name, megabytes=megabytes, limit=MAX_UPLOAD_BYTES / 1e6),
            field=OUTLINE,
        )
    kind = upload_kind(data)
    if kind is None:
        raise ParameterError(Message("serve_upload_kind", name=name), field=OUTLINE)
    try:
        file_outline(data, Path(name), spec=name, svg=kind == "svg")
    except ParameterError as error:
        raise ParameterError(error.detail, field=OUTLINE) from None
    return stored_name(data, kind)


def upload_reference(value: Any) -> str | None:
    """The stored name ``upload:NAME`` refers to, or None when ``value`` is no such reference."""
    if not isinstance(value, str) or not value.startswith(UPLOAD_PREFIX):
        return None
    name = value[len(UPLOAD_PREFIX) :]
    return name if STORED_NAME.fullmatch(name) else None


def outlines_of(*designs: Mapping[str, Any]) -> set[str]:
    """The stored names the flat ``designs`` refer to as their outline."""
    found = (upload_reference(design.get(OUTLINE)) for design in designs)
    return {name for name in found if name is not None}


def pupil_outline(design: Mapping[str, Any], files: Mapping[str, str]) -> dict[str, Any]:
    """A pupil's flat ``design`` with its outline checked: a built-in or ``text:…`` as typed,
    ``upload:NAME`` as the stored file ``files`` maps it to (the pupil's or the teacher's
    uploads only); raises :class:`ParameterError` on ``maze.outline`` for anything else."""
    value = design.get(OUTLINE)
    if value is None:
        return dict(design)
    if isinstance(value, str) and (value.strip() in BUILT_IN or value.strip().startswith(TEXT_PREFIX)):
        return dict(design)
    if isinstance(value, str) and value.startswith(UPLOAD_PREFIX):
        if value in files:
            return {**design, OUTLINE: files[value]}
        raise ParameterError(Message("serve_upload_unknown", value=shown(value)), field=OUTLINE)
    raise ParameterError(Message("serve_outline_choice", value=shown(value)), field=OUTLINE)


def class_outline(values: Mapping[str, Any], files: Mapping[str, str]) -> dict[str, Any]:
    """The teacher's flat ``values`` (locks) with an ``upload:NAME`` outline as its stored file;
    any other outline (a file on the teacher's disk) as given."""
    value = values.get(OUTLINE)
    return {**values, OUTLINE: files[value]} if isinstance(value, str) and value in files else dict(values)


def said_as_typed(text: str, files: Mapping[str, str]) -> str:
    """``text`` (an error's words) with every stored upload's path in it said as the pupil's
    reference (``upload:….png``): the pupil never sees where the server keeps files."""
    for reference, path in files.items():
        for written, said in ((shown(path), shown(reference)), (shown_path(path), reference), (path, reference)):
            text = text.replace(written, said)
    return text

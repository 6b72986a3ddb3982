"""The one rule for text people type (a label, a pupil's name, a class, an instruction): what
every output draws of it, and whether an output's font can.

Every output draws such text literally: ``$5`` is a dollar and a five (never formula syntax),
invisible format characters are dropped and every kind of space is a space (:func:`normalised`).
Then, by the font that draws it (:data:`FONTS`, and :func:`text_problem`):

- every output: something visible; no control, private-use or unassigned character; no accent
  without a letter (a combining mark at the start or after a space);
- ``dejavu`` (solids, laser sheets, and every PDF: worksheets, keys, the lesson, the handout;
  DejaVu Sans, glyph by glyph): no emoji
  (the font draws text, not pictures; a pupil who typed 🦊 would get a box or a black outline),
  no right-to-left letters (there is no bidirectional layout nor joining), and only characters
  the font has;
- ``browser`` (the walk-through page and scene files): nothing more. The browser picks a font
  for any script from the computer's own, lays out right-to-left text and draws emoji, so a
  name that a page can show in some font passes there.

:func:`checked_text` raises the one-line refusal that names the characters; the job's check
(:meth:`laby3d.options.job.Job.check`) applies it to every text of every format asked for.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal

from laby3d.errors import ParameterError

Font = Literal["dejavu", "browser"]
#: What draws a typed text in each kind of output.
FONTS: dict[Font, str] = {
    "dejavu": "DejaVu Sans drawn glyph by glyph (solids, laser sheets, worksheets, keys)",
    "browser": "the browser's own fonts (walk-through page, scene files)",
}
#: Variation selectors: invisible, they only choose a glyph's style (U+FE0F asks for an emoji).
_SELECTORS = {*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
_NOT_TEXT = ("Cc", "Co", "Cn", "Cs")  # control, private use, unassigned, surrogate


def normalised(text: str) -> str:
    """``text`` in NFC with every kind of space as a plain space, invisible format characters
    (zero-width space, joiners, direction marks, BOM) and variation selectors dropped, and the
    ends stripped.

    >>> normalised("\\u00a0Ze\\u0301\\u200bna ")
    'Zéna'
    """
    text = unicodedata.normalize("NFC", text)
    kept = (
        " " if char.isspace() else char
        for char in text
        if unicodedata.category(char) != "Cf" and ord(char) not in _SELECTORS
    )
    return "".join(kept).strip(" ")


def text_problem(text: str, font: Font) -> str | None:
    """Why ``font`` cannot draw ``text`` as typed (one line naming the characters), or None.

    >>> text_problem("Bob $5 $6", "dejavu") is None
    True
    >>> text_problem("李明", "dejavu")
    '"李明": the font has no glyph for 李, 明'
    >>> text_problem("李明", "browser") is None
    True
    """
    drawn = normalised(text)
    if not drawn:
        return f"{text!r} has no visible character"
    shown = _quoted(drawn)
    odd = _unique(char for char in drawn if unicodedata.category(char) in _NOT_TEXT)
    if odd:
        return f"{shown}: characters that are not text ({_names(odd)})"
    lone = _unique(
        char
        for index, char in enumerate(drawn)
        if unicodedata.category(char).startswith("M") and (index == 0 or drawn[index - 1] == " ")
    )
    if lone:
        return f"{shown}: accents without a letter ({_names(lone)})"
    if font == "browser":
        return None
    pictures = _emoji(unicodedata.normalize("NFC", text))
    if pictures:
        return f"{shown}: emoji are pictures, not text ({', '.join(pictures)})"
    backwards = _unique(char for char in drawn if unicodedata.bidirectional(char) in ("R", "AL"))
    if backwards:
        return f"{shown}: right-to-left letters are not supported ({_names(backwards)})"
    missing = _unique(char for char in drawn if not _has_glyph(char, font))
    if missing:
        return f"{shown}: the font has no glyph for {_names(missing)}"
    return None


def checked_text(text: str, font: Font, *, field: str = "label") -> str:
    """``text`` as ``font`` draws it (:func:`normalised`); raises :class:`ParameterError` for
    ``field`` with :func:`text_problem`'s reason when it cannot."""
    problem = text_problem(text, font)
    if problem is not None:
        raise ParameterError(problem, field=field)
    return normalised(text)


def _has_glyph(char: str, font: Font) -> bool:
    from laby3d.geometry.text import dejavu_sans

    return dejavu_sans().index(char) != 0


def _emoji(text: str) -> list[str]:
    """The emoji in ``text`` as typed (sequences whole): characters shown as pictures by default,
    any character asked for as a picture (U+FE0F), sequences, skin tones, flags, keycaps.
    Symbols that are text by default (©, ♥, ☺) are not emoji here."""
    import emoji

    pictures = emoji.STATUS["fully_qualified"], emoji.STATUS["component"]
    found = []
    for match in emoji.emoji_list(text):
        sequence = match["emoji"]
        status = emoji.EMOJI_DATA.get(sequence, {}).get("status")
        if (len(sequence) > 1 and sequence[1:] != "\ufe0e") or status in pictures:
            found.append(sequence)
    joined = "".join(found)
    flags = [char for char in text if 0x1F1E6 <= ord(char) <= 0x1F1FF and char not in joined]  # a lone half flag
    return _unique([*found, *flags])


def _unique(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, in order."""
    return list(dict.fromkeys(items))


def _names(chars: list[str]) -> str:
    """Characters for a message: marks on a dotted circle, invisible ones by code point."""
    shown = []
    for char in chars:
        if unicodedata.category(char).startswith("M"):
            shown.append(f"\u25cc{char} (U+{ord(char):04X})")
        elif unicodedata.category(char) in _NOT_TEXT or not char.isprintable():
            shown.append(f"U+{ord(char):04X}")
        else:
            shown.append(char)
    return ", ".join(shown)


def _quoted(text: str) -> str:
    """The text between double quotes, characters a terminal would act on escaped."""
    return '"' + "".join(char if char.isprintable() else f"\\u{ord(char):04x}" for char in text) + '"'

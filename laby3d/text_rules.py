"""The one rule for text people type (a label, a pupil's name, a class, an instruction): what
every output draws of it, and whether an output's font can.

Every output draws such text literally: ``$5`` is a dollar and a five (never formula syntax),
and every kind of space (no-break, narrow no-break, ideographic…) is a space (:func:`spaced`).
Then, by the font that draws it (:data:`Font`, and :func:`text_problem`):

- every output: something visible; no control character (tab, line break), no line or paragraph
  separator, no private-use or unassigned character, no accent without a letter (a combining
  mark at the start or after a space), and no invisible format character (zero-width space,
  direction marks, byte-order mark, soft hyphen…) but the joiners a script needs: a zero-width
  joiner or non-joiner after a virama (Devanagari, Malayalam… half forms), a non-joiner between
  two Arabic-script letters (Persian writes ``می‌خواهم`` so), and a joiner inside an emoji sequence
  (👨‍👩‍👧). These are the contexts IDNA (RFC 5892, appendix A.1–A.2) allows them in, its joining
  rule approximated by the letters' script;
- ``dejavu`` (solids, laser sheets, and every PDF: worksheets, keys, the lesson, the handout;
  DejaVu Sans, glyph by glyph): no emoji
  (the font draws text, not pictures; a pupil who typed 🦊 would get a box or a black outline),
  no right-to-left letters (there is no bidirectional layout nor joining), and only characters
  the font has; the joiners mean nothing glyph by glyph and are dropped (:func:`normalised`);
- ``browser`` (the walk-through page and scene files): nothing more. The browser picks a font
  for any script from the computer's own, lays out right-to-left text and draws emoji, so a
  name that a page can show in some font passes there.

:func:`checked_text` raises the one-line refusal that names the characters; the job's check
(:meth:`laby3d.options.job.Job.check`) applies it to every text of every format asked for, and
names (of a class set, of the class server's pupils) meet :func:`text_problem` with the
``browser`` font whatever the formats.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal

from laby3d.errors import ParameterError

#: What draws a typed text in an output: ``dejavu``, DejaVu Sans glyph by glyph (solids, laser
#: sheets, worksheets, keys), or ``browser``, the browser's own fonts (walk-through page, scene files).
Font = Literal["dejavu", "browser"]
#: Variation selectors: invisible, they only choose a glyph's style (U+FE0F asks for an emoji).
_SELECTORS = {*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
#: Control (tab, line feed…), private use, unassigned, surrogate; line and paragraph separators.
_NOT_TEXT = ("Cc", "Co", "Cn", "Cs", "Zl", "Zp")
#: Zero-width non-joiner and joiner.
ZWNJ, ZWJ = "\u200c", "\u200d"


def spaced(text: str) -> str:
    """``text`` in NFC with every space separator (no-break, narrow no-break, ideographic…) as a
    plain space, the ends stripped; nothing else changes (a tab is not a space separator).

    >>> spaced("\u00a0Léa\u202fM. ")
    'Léa M.'
    """
    text = unicodedata.normalize("NFC", text)
    return "".join(" " if unicodedata.category(char) == "Zs" else char for char in text).strip(" ")


def normalised(text: str) -> str:
    """``text`` as DejaVu draws it glyph by glyph: :func:`spaced`, with the format characters
    (the joiners :func:`text_problem` lets through) and variation selectors dropped.

    >>> normalised("\u00a0Ze\u0301\u200dna ")
    'Zéna'
    """
    kept = (char for char in spaced(text) if unicodedata.category(char) != "Cf" and ord(char) not in _SELECTORS)
    return "".join(kept).strip(" ")


def needed_joiners(text: str) -> set[int]:
    """Where in ``text`` a format character is part of the writing: a joiner or non-joiner after
    a virama, a non-joiner between two Arabic-script letters (marks between them skipped), and
    any format character inside an emoji sequence (a joiner, a flag's tags).

    >>> sorted(needed_joiners("क्\u200dष Ana\u200dBen"))
    [2]
    """
    import emoji

    needed = {
        index
        for match in emoji.emoji_list(text)
        for index in range(match["match_start"], match["match_end"])
        if unicodedata.category(text[index]) == "Cf"
    }
    for index, char in enumerate(text):
        if char not in (ZWJ, ZWNJ) or index == 0:
            continue
        if unicodedata.combining(text[index - 1]) == 9:  # a virama
            needed.add(index)
        elif char == ZWNJ and _arabic_letter(text, index, -1) and _arabic_letter(text, index, 1):
            needed.add(index)
    return needed


def _arabic_letter(text: str, index: int, step: int) -> bool:
    """Whether the first character from ``index`` in direction ``step`` that is not a mark is a
    letter of a joining right-to-left script (Arabic, Syriac, Thaana, N'Ko: bidirectional AL)."""
    index += step
    while 0 <= index < len(text) and unicodedata.category(text[index]).startswith("M"):
        index += step
    return 0 <= index < len(text) and unicodedata.bidirectional(text[index]) == "AL"


def text_problem(text: str, font: Font) -> str | None:
    """Why ``font`` cannot draw ``text`` as typed (one line naming the characters), or None.

    >>> text_problem("Bob $5 $6", "dejavu") is None
    True
    >>> text_problem("李明", "dejavu")
    '"李明": the font has no glyph for 李, 明'
    >>> text_problem("李明", "browser") is None
    True
    >>> text_problem("Ana\\tBen", "browser")
    '"Ana\\\\u0009Ben": characters that are not text (U+0009)'
    """
    typed = spaced(text)
    needed = needed_joiners(typed)
    odd = _unique(
        char
        for index, char in enumerate(typed)
        if unicodedata.category(char) in _NOT_TEXT or (unicodedata.category(char) == "Cf" and index not in needed)
    )
    if odd:
        return f"{_quoted(typed)}: characters that are not text ({_names(odd)})"
    drawn = normalised(text)
    if not drawn:
        return f"{_quoted(text)} has no visible character"
    shown = _quoted(drawn)
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

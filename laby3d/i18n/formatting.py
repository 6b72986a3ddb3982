"""Numbers, quantities and durations written as a reader of each language writes them.

English: ``50.9 g``, ``about 3 h 35 min``, ``Totals:``. French: a decimal comma, a space
between thousands, a space between a number and its unit and before a colon: ``50,9 g``,
``environ 3 h 35 min``, ``Totaux :``. The spaces are plain ones, as in the worksheets'
sentences (:mod:`laby3d.draw.strings`), so a label reads the same on the page and on paper.

>>> quantity_text(50.94, "g", "fr", digits=1), duration_text(12_900, "fr"), colon("Totaux", "fr")
('50,9 g', 'environ 3 h 35 min', 'Totaux :')
>>> quantity_text(50.94, "g", "en", digits=1), duration_text(12_900), colon("Totals", "en")
('50.9 g', 'about 3 h 35 min', 'Totals:')
"""

from __future__ import annotations

import re

#: A number as laby3d's English messages write it: ``0.4``, ``-2``, ``1,234.5``, ``1e+06``.
ENGLISH_NUMBER = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
_ENGLISH_NUMBER = re.compile(ENGLISH_NUMBER)


def french_number(text: str) -> str:
    """An English-written number in French: ``1,234.5`` → ``1 234,5``; other text unchanged.

    >>> french_number("0.4"), french_number("12,345.6"), french_number("'abc'")
    ('0,4', '12 345,6', "'abc'")
    """
    if not _ENGLISH_NUMBER.fullmatch(text):
        return text
    return text.replace(",", " ").replace(".", ",")


def number_text(value: float, lang: str, *, digits: int | None = None) -> str:
    """``value`` with ``digits`` decimals, or as short as it goes (``:g``) without them."""
    text = f"{value:.{digits}f}" if digits is not None else f"{value:g}"
    return french_number(text) if lang == "fr" else text


def count_text(count: int, lang: str) -> str:
    """A whole count with its thousands marked: ``1,780`` (``1 780`` in French).

    >>> count_text(1780, "en"), count_text(1780, "fr")
    ('1,780', '1 780')
    """
    text = f"{count:,}"
    return french_number(text) if lang == "fr" else text


def quantity_text(value: float, unit: str, lang: str, *, digits: int | None = None) -> str:
    """A number and its unit: ``50,9 g``."""
    return f"{number_text(value, lang, digits=digits)} {unit}"


def duration_text(seconds: float, lang: str = "en") -> str:
    """An estimated duration to the 5 minutes (minutes alone under an hour).

    >>> duration_text(25_380), duration_text(1_000), duration_text(1_000, "fr")
    ('about 7 h 05 min', 'about 15 min', 'environ 15 min')
    """
    minutes = int(round(seconds / 300) * 5)
    hours, minutes = divmod(minutes, 60)
    about = "environ" if lang == "fr" else "about"
    return f"{about} {hours} h {minutes:02d} min" if hours else f"{about} {minutes} min"


def colon(label: str, lang: str) -> str:
    """A label before its value: ``Totals:``, ``Totaux :``."""
    return f"{label} :" if lang == "fr" else f"{label}:"

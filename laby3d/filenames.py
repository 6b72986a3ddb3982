"""File names made from what people type: names of jobs and pupils."""

from __future__ import annotations

import hashlib
import re
import unicodedata

#: Latin spellings of Cyrillic and Greek letters (a simple, common romanisation), so such names
#: stay readable in file names.
_LATIN = {
    **dict(zip("абвгдезийклмнопрстуфыэ", "abvgdeziyklmnoprstufye", strict=True)),
    **{"ё": "yo", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ь": ""},
    **{"ю": "yu", "я": "ya", "є": "ye", "і": "i", "ї": "yi", "ґ": "g"},
    **dict(zip("αβγδεζηικλμνξοπρσςτυω", "avgdeziiklmnxoprsstyo", strict=True)),
    **{"θ": "th", "φ": "f", "χ": "ch", "ψ": "ps"},
}
_TRANSLITERATION = str.maketrans(
    {**_LATIN, **{letter.upper(): latin.capitalize() for letter, latin in _LATIN.items() if letter.upper() != letter}}
)

_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def safe_name(name: str) -> str:
    """A file-name part from any text: ASCII letters, digits, ``-`` and ``_`` only, at most 80
    characters; never empty, never a path, never a reserved device name (``CON``, ``NUL``…).
    Letters with no ASCII form (Cyrillic, Greek, CJK…) leave a short digest of the name, so
    such names stay apart.

    >>> safe_name("Chloé Dupont-Lefèvre"), safe_name("../../etc"), safe_name("CON")
    ('Chloe-Dupont-Lefevre', 'etc', 'CON_')
    >>> safe_name("Иван") != safe_name("Пётр")
    True
    """
    name = unicodedata.normalize("NFKD", name).translate(_TRANSLITERATION)  # accents apart, then letters
    ascii_text = name.encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_text).strip("-_")[:80].strip("-_")
    lost = any(char.isalpha() and not unicodedata.normalize("NFKD", char).encode("ascii", "ignore") for char in name)
    if lost:
        digest = hashlib.sha256(unicodedata.normalize("NFC", name).encode()).hexdigest()[:8]
        cleaned = f"{cleaned[:71]}-{digest}" if cleaned else digest
    cleaned = cleaned or "maze"
    return f"{cleaned}_" if cleaned.lower() in _WINDOWS_RESERVED else cleaned

"""The one name rule: how a typed name (of a job, a pupil, a class) folds into ASCII words, and
the file names and identity made from them.

Every use folds a name the same way (:func:`ascii_words`): the batch's duplicate check
(:func:`laby3d.options.job.check_names`), the class server's pupils
(:func:`laby3d.serve.identity.name_key`) and file names (:func:`safe_name`). Letters are
transliterated by anyascii (ISC licence; Unidecode would do as well but is GPL, which an MIT
package should not pull in): ß → ss, æ → ae, œ → oe, ø → o, đ → d, ł → l, ı → i, þ → th, Greek
and Cyrillic romanised (Γιώργος → Giorgos, Щукин → Shchukin). Apostrophes vanish inside a word
(O'Connor → OConnor); spaces of every kind, ``-``, ``_`` and any other punctuation or symbol
separate words. Han characters are romanised for reading (李明 → LiMing) and keep a short digest
of themselves, since many names sound alike (李明, 黎明).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

#: Apostrophes and the marks typed for one: they join a word's parts (O'Connor, D’Artagnan).
APOSTROPHES = frozenset("'’‘ʼʻ`´")
#: The longest file-name part, characters.
MAX_FILE_NAME = 80
_NOT_ASCII_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def ascii_words(name: str) -> list[str]:
    """The words of ``name`` in ASCII letters and digits, as every use of a name folds it (a
    digest last when it has Han characters or letters anyascii cannot spell).

    >>> ascii_words("Lætitia Œillet"), ascii_words("O'Connor"), ascii_words("Søren_Łukasz-Groß")
    (['Laetitia', 'Oeillet'], ['OConnor'], ['Soren', 'Lukasz', 'Gross'])
    >>> ascii_words("ÆGIR Þór"), ascii_words("Ana 🦊!")
    (['AEGIR', 'Thor'], ['Ana'])
    """
    words, digest = _words(name)
    return [*words, digest] if digest else words


def _words(name: str) -> tuple[list[str], str | None]:
    """:func:`ascii_words` and the digest apart."""
    text = unicodedata.normalize("NFC", name)
    words, word, kept = [], "", []
    for index, char in enumerate(text):
        kind = unicodedata.category(char)[0]
        if char in APOSTROPHES:
            continue
        if kind not in "LMN":  # spaces, punctuation, symbols, controls: between words
            words.append(word)
            word = ""
            continue
        latin = _latin(char, text[index + 1 : index + 2])
        han = unicodedata.name(char, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))
        if han or (kind == "L" and not latin):  # a romanisation that loses what tells names apart
            kept.append(char)
        word += latin
    words = [word for word in [*words, word] if word]
    digest = hashlib.sha256("".join(kept).encode()).hexdigest()[:8] if kept else None
    return words, digest


def _latin(char: str, following: str) -> str:
    """One letter, digit or mark in ASCII letters and digits (a mark alone: nothing). A capital
    spelt with several letters keeps capitals before another capital (ŒUF → OEUF, Œillet →
    Oeillet)."""
    from anyascii import anyascii

    latin = _NOT_ASCII_ALNUM.sub("", anyascii(char))
    if len(latin) > 1 and char.isupper() and following.isupper():
        return latin.upper()
    return latin


def safe_name(name: str) -> str:
    """A file-name part from any text: its :func:`ascii_words` joined by ``-``, at most 80
    characters; never empty, never a path, never a reserved device name (``CON``, ``NUL``…).

    >>> safe_name("Chloé Dupont-Lefèvre"), safe_name("../../etc"), safe_name("CON")
    ('Chloe-Dupont-Lefevre', 'etc', 'CON_')
    >>> safe_name("Lætitia Œillet"), safe_name("Иван"), safe_name("Пётр")
    ('Laetitia-Oeillet', 'Ivan', 'Petr')
    """
    words, digest = _words(name)
    cleaned = "-".join(words)[:MAX_FILE_NAME].strip("-")
    if digest is not None:
        cleaned = f"{cleaned[: MAX_FILE_NAME - 9].strip('-')}-{digest}" if cleaned else digest
    cleaned = cleaned or "maze"
    return f"{cleaned}_" if cleaned.lower() in _WINDOWS_RESERVED else cleaned


def folded(name: str) -> str:
    """What makes two names one: the file name of :func:`safe_name` without case or separators
    (so names that share a file, even on a case-blind disk, fold equal); ``""`` when the name
    has no letter nor digit to fold.

    >>> folded("Lætitia Œillet") == folded("laetitia oeillet"), folded("O'Connor") == folded("o-connor")
    (True, True)
    >>> folded("Jean_Luc"), folded("🦊!")
    ('jeanluc', '')
    """
    if not ascii_words(name):
        return ""
    return _NOT_ASCII_ALNUM.sub("", safe_name(name)).lower()

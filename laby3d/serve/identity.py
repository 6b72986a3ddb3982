"""Who a pupil is: a name unique in the class, held by one browser at a time through a signed
session cookie.

A name is unique by the folding the class set uses for its file names
(:func:`laby3d.options.job.check_names`: case, accents and punctuation do not count), so "Léa"
and "lea", or "élodie dupont lefevre" and "Élodie Dupont-Lefèvre", are one pupil; a second
browser asking for a held name is refused with a distinct form to use instead ("Léa M."). A name
must keep a letter or a digit once folded (emoji or punctuation alone would all become one file).

Joining stores a random session id with the name and puts ``{pupil, sid}`` in Starlette's
:class:`~starlette.middleware.sessions.SessionMiddleware` cookie, signed with itsdangerous (a
well-kept signer with expiry, rather than HMAC code of our own); the cookie is ``SameSite=Strict``
and ``HttpOnly``. A request is the pupil's when its cookie's id is the one stored: leaving ("Not
you? / Change pupil") or the teacher's reset clears the stored id, so the old cookie is worth
nothing.
"""

from __future__ import annotations

import hmac
import secrets

from laby3d.errors import ParameterError
from laby3d.filenames import safe_name
from laby3d.quoting import shown

#: Longest pupil name (it is engraved as the label, which takes 60 characters).
MAX_NAME = 60
#: Name of the session cookie.
COOKIE = "laby3d_pupil"
#: Seconds a session lasts without a visit (a school term).
SESSION_SECONDS = 120 * 24 * 3600


def name_key(name: str) -> str:
    """The key a pupil is stored and downloaded under: their name folded as the class set folds
    names into file names (so "Ana" and "ana" are one pupil).

    >>> name_key("Chloé Dupont-Lefèvre"), name_key("../../etc/passwd"), name_key("ANA")
    ('chloe-dupont-lefevre', 'etc-passwd', 'ana')
    """
    return safe_name(name).casefold()


def checked_name(name: str) -> str:
    """A pupil's name as typed, trimmed; raises :class:`ParameterError` on ``name`` when it is
    empty, too long, not printable, or has no letter or digit.

    >>> checked_name("  Léa ")
    'Léa'
    """
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise ParameterError(f"must be 1 to {MAX_NAME} printable characters", field="name")
    if not any(char.isalnum() for char in name):
        raise ParameterError(f"{shown(name)} has no letter or digit: type your first name", field="name")
    return name


def taken_message(name: str, holder: str) -> str:
    """Why ``name`` cannot join when ``holder`` (the same name, folded) is in the class already."""
    how = "is already in the class" if holder == name else f"is too close to {shown(holder)}, already in the class"
    return (
        f"{shown(name)} {how} on another computer: type a distinct name, e.g. {shown(name + ' M.')}, "
        "or, if it is you, ask the teacher to reset your session"
    )


def new_session() -> str:
    """A random session id."""
    return secrets.token_urlsafe(18)


def same_secret(given: str, expected: str) -> bool:
    """Whether two secrets (session id, class code, token) are equal, in constant time."""
    return hmac.compare_digest(given.encode(), expected.encode())

"""Who a pupil is: a name unique in the class, held by one browser at a time through a signed
session cookie.

A name is unique by the one name rule (:func:`laby3d.filenames.folded`, which the class set's
duplicate check and file names use too: case, accents, spaces and punctuation do not count), so
"Léa" and "lea", "Lætitia" and "Laetitia", "O'Connor" and "OConnor", or "élodie dupont lefevre"
and "Élodie Dupont-Lefèvre", are one pupil; a name follows the text rule of every output
(:func:`laby3d.text_rules.text_problem`: no tab, no invisible character a name does not need;
a no-break space is a space), and must keep a letter or a digit once folded (emoji or
punctuation alone would all become one file).

Joining stores a random session id with the name and puts ``{pupil, sid}`` in Starlette's
:class:`~starlette.middleware.sessions.SessionMiddleware` cookie, signed with itsdangerous (a
well-kept signer with expiry, rather than HMAC code of our own); the cookie is ``SameSite=Strict``
and ``HttpOnly``. A request is the pupil's when its cookie's id is the one stored: leaving ("Not
you? / Change pupil") or the teacher's reset clears the stored id, so the old cookie is worth
nothing.

A name stays its pupil's after they leave: their design is kept for the teacher, and whoever
types that name again (on another computer, next lesson) is asked for the pupil's personal code,
four digits given at their first join and shown beside their name on their page and in the
teacher's list, or for a distinct name. A code rather than "ask the teacher to free it": a class
moving between rooms over three weeks would otherwise queue at the teacher's desk each lesson;
guesses are throttled per address and per name (:mod:`laby3d.serve.app`).
"""

from __future__ import annotations

import hmac
import secrets
import unicodedata

from laby3d.errors import ParameterError
from laby3d.filenames import folded
from laby3d.quoting import shown
from laby3d.text_rules import spaced, text_problem

#: Longest pupil name (it is engraved as the label, which takes 60 characters).
MAX_NAME = 60
#: Name of the session cookie.
COOKIE = "laby3d_pupil"
#: Seconds a session lasts without a visit (a school term).
SESSION_SECONDS = 120 * 24 * 3600


def name_key(name: str) -> str:
    """The key a pupil is stored under: their name folded by the one name rule (so "Ana" and
    "ana", "Lætitia" and "Laetitia", are one pupil).

    >>> name_key("Chloé Dupont-Lefèvre"), name_key("../../etc/passwd"), name_key("O'Connor")
    ('chloedupontlefevre', 'etcpasswd', 'oconnor')
    """
    return folded(name)


def checked_name(name: str) -> str:
    """A pupil's name as typed, its spaces plain (a no-break space is a space) and trimmed;
    raises :class:`ParameterError` on ``name`` when it is empty, too long, has characters that
    are not text (a tab, an invisible character a name does not need), or has no letter or digit.

    >>> checked_name("  Léa\u00a0M. ")
    'Léa M.'
    """
    name = spaced(name)
    if not name or len(name) > MAX_NAME:
        raise ParameterError(f"must be 1 to {MAX_NAME} printable characters", field="name")
    problem = text_problem(name, "browser")
    if problem is not None:
        raise ParameterError(problem, field="name")
    if not folded(name):
        raise ParameterError(f"{shown(name)} has no letter or digit: type your first name", field="name")
    return name


def taken_message(name: str, holder: str) -> str:
    """Why ``name`` cannot join without a personal code when ``holder`` (the same name, folded)
    is in the class already."""
    how = "is already in the class" if holder == name else f"is too close to {shown(holder)}, already in the class"
    return (
        f"{shown(name)} {how}: if it is you, type your personal code (beside your name on your page; "
        f"the teacher has it too), else a distinct name, e.g. {shown(name + ' M.')}"
    )


def wrong_pin_message(holder: str) -> str:
    """Why a personal code given for ``holder``'s name is refused."""
    return f"is not the personal code of {shown(holder)}: look beside your name on your page, or ask the teacher"


def new_pin() -> str:
    """A pupil's personal code: four digits, which a pupil can remember or note on their sheet."""
    return f"{secrets.randbelow(10_000):04d}"


def same_code(given: str, code: str) -> bool:
    """Whether ``given`` is the class code ``code``, as a pupil types it: case, accents,
    spaces around and kinds of space aside (``Loutre``, ``loutre ``, ``LOUTRE``), in constant
    time."""
    return same_secret(_code_form(given), _code_form(code))


def _code_form(code: str) -> str:
    return "".join(
        char for char in unicodedata.normalize("NFKD", spaced(code).casefold()) if not unicodedata.combining(char)
    )


def new_session() -> str:
    """A random session id."""
    return secrets.token_urlsafe(18)


def same_secret(given: str, expected: str) -> bool:
    """Whether two secrets (session id, class code, token) are equal, in constant time."""
    return hmac.compare_digest(given.encode(), expected.encode())

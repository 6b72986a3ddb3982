"""Kinds of the values people and programs pass in, checked the same way everywhere."""

from __future__ import annotations

from typing import Any

import numpy as np


def is_integer(value: Any) -> bool:
    """True for a Python or numpy integer, False for anything else (``bool`` included).

    >>> is_integer(3), is_integer(np.int8(3)), is_integer(True), is_integer(3.0)
    (True, True, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


#: What ``overnight`` means for a plate's print time: 18:00 to 08:00, s.
OVERNIGHT_SECONDS = 14 * 3600


def slot_seconds(text: str) -> int:
    """The print time a timetable slot allows, s, from how a teacher writes it: ``55min``,
    ``55 min``, ``1h30``, ``2h``, ``90`` (minutes) or ``overnight`` (``nuit``: 14 h); raises
    :class:`laby3d.errors.ParameterError` naming the forms.

    >>> slot_seconds("55min"), slot_seconds("1h30"), slot_seconds("2 h"), slot_seconds("overnight")
    (3300, 5400, 7200, 50400)
    """
    import re

    from laby3d.errors import ParameterError
    from laby3d.quoting import shown

    typed = text.strip().casefold()
    if typed in ("overnight", "nuit"):
        return OVERNIGHT_SECONDS
    found = re.fullmatch(r"(?:(\d{1,2}) ?h ?(\d{1,2})?|(\d{1,4}) ?(?:min|mn)?)", typed)
    if found is None:
        raise ParameterError(f"must be a duration such as 55min, 1h30 or overnight, got {shown(text)}")
    hours, minutes, alone = found.groups()
    seconds = (int(hours) * 60 + int(minutes or 0)) * 60 if hours is not None else int(alone) * 60
    if not 10 * 60 <= seconds <= 48 * 3600:
        raise ParameterError(f"must be from 10min to 48h, got {shown(text)}")
    return seconds

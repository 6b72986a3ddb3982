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

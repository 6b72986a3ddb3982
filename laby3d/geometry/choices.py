"""The named choices of the geometry that options offer (``Literal`` types) and the sizes the
options check them against, in a module light enough for the option models (and a solid
without marks) to import without loading shapely."""

from __future__ import annotations

from typing import Literal

#: How a label is made: cut into the floor or raised from it.
LabelMode = Literal["engrave", "emboss"]
#: Where a label goes: the top margin, engraved under the base, or the margin when it fits.
LabelPosition = Literal["margin", "bottom", "auto"]
#: Where a label went.
LabelSide = Literal["margin", "bottom"]

#: Margin the entrance/exit arrows need, and how deep they are engraved, mm.
MARKER_MARGIN = 4.0
MARKER_DEPTH = 0.6

"""The kerf test card: a bar to measure and a comb of slots to try it in, mm, y up.

Nothing on the card is compensated: the kerf is what it measures. The bar is a
:data:`BAR_LENGTH` × :data:`BAR_WIDTH` rectangle cut out of the card; cut with the machine's real
kerf ``K`` it comes out ``BAR_LENGTH − K`` long, so calipers read ``K``. Slot ``i`` is drawn
``BAR_WIDTH − 2·k_i`` wide and comes out ``BAR_WIDTH − 2·k_i + K``: the bar's end fits it snugly
when ``k_i = K``, so the slot's engraved value names the kerf. Both readings compare parts cut
from the same sheet side by side: the material's thickness plays no part. Short instructions
are engraved on the card.
"""

from __future__ import annotations

import numpy as np
import shapely

from laby3d.geometry.laser.engraving import MIN_CAP_HEIGHT
from laby3d.geometry.laser.options import Material
from laby3d.geometry.laser.parts import Mark, Part, text_marks
from laby3d.geometry.text import text_outlines

#: Kerf steps around the nominal kerf, mm.
KERF_STEP = 0.05
#: Slots on each side of the nominal kerf.
SLOTS_EACH_SIDE = 3
#: The reference bar, drawn exactly, mm.
BAR_LENGTH = 40.0
BAR_WIDTH = 10.0
SLOT_DEPTH = 12.0
#: Slot labels' and instructions' capital heights, mm.
LABEL_HEIGHT = 3.0
INSTRUCTION_HEIGHT = MIN_CAP_HEIGHT
#: Free card around everything, mm.
BORDER = 4.0
#: The instructions engraved on the card, by language.
INSTRUCTIONS = {
    "en": (
        "Kerf test: nothing here is compensated",
        f"1. Measure the bar: kerf = {BAR_LENGTH:g} − bar length",
        "2. Or: the slot its end fits snugly names the kerf",
    ),
    "fr": (
        "Test du trait de coupe : rien n’est compensé",
        f"1. Mesurer la barre : trait = {BAR_LENGTH:g} − longueur",
        "2. Ou : la fente où son bout entre juste donne le trait",
    ),
}


def comb_kerfs(kerf: float) -> list[float]:
    """The kerfs the slots test: the nominal one and :data:`SLOTS_EACH_SIDE` steps either side,
    never below 0, rounded to µm (no ``-0``), mm."""
    steps = np.arange(-SLOTS_EACH_SIDE, SLOTS_EACH_SIDE + 1) * KERF_STEP + kerf
    return [round(float(k), 3) + 0.0 for k in steps if k >= -1e-9]


def kerf_label(value: float) -> str:
    """A slot's kerf as engraved: ``0.15`` (never ``-0.00``)."""
    return f"{abs(value):.2f}"


def kerf_comb(material: Material, kerf: float, lang: str = "en") -> Part:
    """The card: slots for :func:`comb_kerfs` open at the top edge with their values under them,
    the bar cut out below, the instructions (in ``lang``, English unless ``fr``) at the bottom;
    mm, y up."""
    kerfs = comb_kerfs(kerf)
    lines = [text_outlines(line, INSTRUCTION_HEIGHT) for line in INSTRUCTIONS.get(lang, INSTRUCTIONS["en"])]
    pitch = BAR_WIDTH + 6.0
    text_width = max(max(float(ring[:, 0].max()) for ring in rings) for rings in lines)
    width = max(pitch * len(kerfs), text_width, BAR_LENGTH) + 2 * BORDER
    marks: list[Mark] = []
    y = BORDER
    for rings in reversed(lines):  # instructions, last line lowest
        marks.extend(text_marks(rings, BORDER, y))
        y += INSTRUCTION_HEIGHT * 1.9
    bar = shapely.box(BORDER, y + 2.0, BORDER + BAR_LENGTH, y + 2.0 + BAR_WIDTH)  # a hole: an inner cut
    y += 2.0 + BAR_WIDTH + 4.0
    height = y + LABEL_HEIGHT + 3.0 + SLOT_DEPTH
    left = (width - pitch * len(kerfs)) / 2
    slots = []
    for k, value in enumerate(kerfs):
        centre = left + pitch * (k + 0.5)
        half = BAR_WIDTH / 2 - value
        slots.append(shapely.box(centre - half, height - SLOT_DEPTH, centre + half, height + 1.0))
        rings = text_outlines(kerf_label(value), LABEL_HEIGHT)
        label_width = max(float(ring[:, 0].max()) for ring in rings)
        marks.extend(text_marks(rings, centre - label_width / 2, y))
    shape = shapely.box(0, 0, width, height).difference(shapely.union_all([*slots, bar]))
    return Part(name="kerf test", material=material, shape=shape, box=(0.0, 0.0, width, height), marks=tuple(marks))

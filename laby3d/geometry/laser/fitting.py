"""The checks a laser job needs its maze's size for, run before any maze exists (mm): every part
fits the sheet, the kit's key fits its plate, and every text it engraves is legible.

:meth:`.LaserOptions.check` calls :func:`check_fits` with the maze's size, so ``laby3d validate``,
``generate`` and a batch refuse the same jobs, with the same messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.geometry.laser.engraving import WIDEST_SEED, text_plan
from laby3d.geometry.laser.kerf_test import kerf_comb
from laby3d.geometry.laser.layout import check_sheet

if TYPE_CHECKING:
    from laby3d.geometry.laser.frame import Frame
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.params import Fabrication


def check_fits(
    options: LaserOptions,
    fab: Fabrication,
    size: tuple[int, int | None],
    names: list[str] | None,
    seed: int | None,
    shape: str = "square",
) -> None:
    """Raise :class:`ParameterError` unless a ``size`` (rows, cols) ``shape`` maze's parts fit
    the sheet and its texts are legible: the label (with the ``seed``, the widest when not known
    yet), and each of ``names`` as a class set's tag and as the label of that pupil's own kit
    (field ``names[i]``)."""
    seed = WIDEST_SEED if seed is None else seed
    rows, cols = size
    if options.mode == "kerf-test":  # the card has no maze on it
        comb = kerf_comb(options.wall_material, options.kerf, options.lang)
        check_sheet(comb.name, comb.size, options.sheet_size, options.spacing)
        return
    fab.check_size(rows, cols, shape=shape)
    if options.mode == "stack":
        _check_kit(options, fab, shape, rows, cols, names, seed)
    elif options.sheet is not None:
        from laby3d.geometry.laser.sheets import extras_box

        width, depth = fab.outer_size(rows, cols, shape=shape)
        if options.mode == "outline":  # the walls' footprint, grown by half the kerf
            width, depth = width - 2 * fab.margin + options.kerf, depth - 2 * fab.margin + options.kerf
        x0, y0, x1, y1 = extras_box((0.0, 0.0, width, depth), options)
        check_sheet("walls" if options.mode == "outline" else "drawing", (x1 - x0, y1 - y0), options.sheet, 0.0)


def _check_kit(
    options: LaserOptions,
    fab: Fabrication,
    shape: str,
    rows: int,
    cols: int | None,
    names: list[str] | None,
    seed: int,
) -> None:
    """:func:`check_fits` for a ball kit: every part on the sheet, every text legible."""
    from laby3d.geometry.laser.frame import kit_frame
    from laby3d.geometry.laser.kit import kit_part_names
    from laby3d.geometry.laser.options import min_wall
    from laby3d.tessellation import tessellate

    frame = kit_frame(
        tessellate(shape, rows, cols), fab, min_wall=min_wall(options.wall_material), dowel=options.registration_holes
    )
    parts = kit_part_names(fab, options, shape)
    width, depth = frame.size
    for name in parts:
        check_sheet(name, (width + options.kerf, depth + options.kerf), options.sheet_size, options.spacing)
    _check_text(frame, parts, options, names, seed)


def _check_text(frame: Frame, parts: list[str], options: LaserOptions, names: list[str] | None, seed: int) -> None:
    """The label and each pupil's name (as a tag, and as a label with the widest seed) placed on
    the kit's ``frame`` (:func:`.engraving.text_plan`, which raises for text that cannot be
    legible; a name: field ``names[i]``)."""
    height = options.text_height
    if options.label is not None:
        text_plan(frame, parts, label=options.label, seed=seed, tag=None, label_height=height)
    for index, name in enumerate(names or []):
        try:
            text_plan(frame, parts, label=None, seed=WIDEST_SEED, tag=name, label_height=height)
            text_plan(frame, parts, label=name, seed=WIDEST_SEED, tag=None, label_height=height)
        except ParameterError as error:
            raise ParameterError(error.detail, field=f"names[{index}]") from None

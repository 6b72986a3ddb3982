"""The checks a laser job needs its maze's size for, run before any maze exists (mm): every part
fits the sheet, the kit's key fits its plate, and every text it engraves is legible.

:meth:`.LaserOptions.check` calls :func:`check_fits` with the maze's size, so ``laby3d validate``,
``generate`` and a batch refuse the same jobs, with the same messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.geometry.laser.engraving import WIDEST_SEED, plan
from laby3d.geometry.laser.kerf_test import kerf_comb
from laby3d.geometry.laser.kit import kit_frame, kit_part_names
from laby3d.geometry.laser.layout import check_sheet

if TYPE_CHECKING:
    from collections.abc import Callable

    from laby3d.geometry.laser.engraving import Engraving, Frame
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.laser.shaped_frame import ShapedFrame
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
    if shape != "square" and options.mode != "kerf-test":  # squares: checked beside the other outputs
        fab.check_size(rows, cols, shape=shape)
    if options.mode == "kerf-test":
        comb = kerf_comb(options.wall_material, options.kerf, options.lang)
        check_sheet(comb.name, comb.size, options.sheet_size, options.spacing)
    elif options.mode == "stack" and shape != "square":
        _check_shaped_kit(options, fab, shape, rows, cols, names, seed)
    elif options.mode == "stack":
        assert cols is not None, "a square maze has columns"
        frame = kit_frame(fab, rows, cols, options)
        parts = kit_part_names(fab, options)
        plate = (frame.width + options.kerf, frame.depth + options.kerf)
        for name in parts:
            check_sheet(name, plate, options.sheet_size, options.spacing)
        _check_text(plan, frame, parts, options, names, seed)
    elif options.sheet is not None:
        from laby3d.geometry.laser.sheets import extras_box

        width, depth = fab.outer_size(rows, cols, shape=shape)
        if options.mode == "outline":  # the walls' footprint, grown by half the kerf
            width, depth = width - 2 * fab.margin + options.kerf, depth - 2 * fab.margin + options.kerf
        x0, y0, x1, y1 = extras_box((0.0, 0.0, width, depth), options)
        check_sheet("walls" if options.mode == "outline" else "drawing", (x1 - x0, y1 - y0), options.sheet, 0.0)


def _check_shaped_kit(
    options: LaserOptions,
    fab: Fabrication,
    shape: str,
    rows: int,
    cols: int | None,
    names: list[str] | None,
    seed: int,
) -> None:
    """:func:`check_fits` for the kit of a theta, hex or triangle maze."""
    from laby3d.geometry.laser.options import min_wall
    from laby3d.geometry.laser.shaped_frame import shaped_frame, shaped_plan_text

    frame = shaped_frame(
        shape, rows, cols, fab, min_wall=min_wall(options.wall_material), dowel=options.registration_holes
    )
    parts = kit_part_names(fab, options, shape)
    width, depth = frame.size
    for name in parts:
        check_sheet(name, (width + options.kerf, depth + options.kerf), options.sheet_size, options.spacing)
    _check_text(shaped_plan_text, frame, parts, options, names, seed)


def _check_text(
    place: Callable[..., Engraving],
    frame: Frame | ShapedFrame,
    parts: list[str],
    options: LaserOptions,
    names: list[str] | None,
    seed: int | None,
) -> None:
    """The label and each pupil's name (as a tag, and as a label with the widest seed) placed on
    the kit's ``frame`` by ``place`` (:func:`.engraving.plan` or :func:`.shaped_frame
    .shaped_plan_text`), which raises for text that cannot be legible (a name: field ``names[i]``)."""
    height = options.text_height
    if options.label is not None:
        place(frame, parts, label=options.label, seed=seed, tag=None, label_height=height)
    for index, name in enumerate(names or []):
        try:
            place(frame, parts, label=None, seed=WIDEST_SEED, tag=name, label_height=height)
            place(frame, parts, label=name, seed=WIDEST_SEED, tag=None, label_height=height)
        except ParameterError as error:
            raise ParameterError(error.detail, field=f"names[{index}]") from None

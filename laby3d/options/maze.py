"""Options of the maze itself: shape, size, outline, algorithm and its options, braid, entrance
and exit."""

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from laby3d.errors import ParameterError
from laby3d.i18n import Message
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.model import MAX_SIDE
from laby3d.maze.placement import Placement, check_unused_openings, explicit_openings
from laby3d.options.base import Number, Section, Whole, option
from laby3d.tessellation import ShapeName

if TYPE_CHECKING:
    from laby3d.tessellation import Tessellation

ALGORITHM_NAMES = tuple(ALGORITHMS)
#: Fields that are options of some algorithm (checked against the chosen one): every option an
#: algorithm declares is a field here (tests/test_options.py checks it).
ALGORITHM_OPTIONS = tuple(sorted({name for algorithm in ALGORITHMS.values() for name in algorithm.options}))


def _option_help(name: str) -> str:
    """The help of algorithm option ``name``, from the algorithms that declare it."""
    return "; ".join(
        f"{algorithm.name}: {algorithm.options[name].description}"
        for algorithm in ALGORITHMS.values()
        if name in algorithm.options
    )


@dataclasses.dataclass(frozen=True, kw_only=True)
class MazeSpec(Section):
    """The maze: shape, size, algorithm and its options, placement of entrance and exit."""

    shape: ShapeName = option(
        "square",
        description="cell shape: square, theta (round: rows is the number of rings, the centre included; "
        "cols unused), hex (hexagons, rows × cols), triangle (rows × cols)",
    )
    rows: Whole = option(15, ge=1, le=MAX_SIDE, description="number of rows")
    cols: Whole = option(15, ge=1, le=MAX_SIDE, description="number of columns")
    algorithm: Literal[ALGORITHM_NAMES] = option(  # type: ignore[valid-type]
        "kruskal", description="generation algorithm (see laby3d list)", flags=("--algorithm", "-a")
    )
    placement: Placement = option("corners", description="where the entrance and exit go")
    entrance: str | None = option(None, description="with placement explicit: 'row,col,side', e.g. '0,0,W'")
    exit: str | None = option(None, description="with placement explicit: 'row,col,side', e.g. '14,14,E'")
    policy: str | None = option(None, max_length=200, description=_option_help("policy"))
    bias: Number | None = option(None, ge=0, le=1, description=_option_help("bias"))
    join: Number | None = option(None, ge=0, le=1, description=_option_help("join"))
    down: Number | None = option(None, ge=0, le=1, description=_option_help("down"))
    outline: str | None = option(
        None,
        max_length=260,
        description="the board's shape: circle, hexagon, triangle, heart, star, ring, text:WORD (DejaVu Sans "
        "Bold), or an SVG, PNG or JPEG file (dark = inside); a cell belongs when its centre is inside, pieces are "
        "joined by the shortest runs of cells",
    )
    braid: Whole = option(
        0, ge=0, le=100, description="percent of the dead ends removed after carving, each closing a loop (0: perfect)"
    )
    first_ring: Whole | None = option(None, ge=3, le=12, description="theta: the cells of ring 1 (6 when absent)")
    room: Whole = option(
        0, ge=0, description="theta: a central room of this many rings, left open (for a marble start or a coin)"
    )

    def check_shape(self) -> None:
        """The size fits the shape and the algorithm makes mazes of it (other shapes than square:
        the graph-generic algorithms only)."""
        from laby3d.maze.algorithms import check_algorithm
        from laby3d.tessellation import check_shape_size

        check_shape_size(self.shape, self.rows, self.size()[1])
        check_algorithm(self.algorithm, self.tessellation().kind)

    def size(self) -> tuple[int, int | None]:
        """``(rows, cols)`` of the maze, cols None for theta."""
        from laby3d.tessellation import SHAPES

        return self.rows, (self.cols if SHAPES[self.shape].uses_cols else None)

    def check_openings(self) -> None:
        """With placement explicit: both openings given, on this maze's border, and distinct;
        with another placement, neither given (it would be ignored)."""
        check_unused_openings(self.placement, self.entrance, self.exit)
        if self.placement != "explicit":
            return
        explicit_openings(self.entrance, self.exit, self.tessellation())

    @property
    def is_cut(self) -> bool:
        """Whether the board is cut (an outline, a central room or ring 1's own count): its
        tessellation's kind is then ``outline``, which only the cell graph's renderers take."""
        return self.outline is not None or self.room > 0 or self.first_ring is not None

    def tessellation(self) -> "Tessellation":
        """The board of the maze: its shape and size, cut by its outline and central room
        (raises :class:`laby3d.errors.ParameterError` on ``outline``, ``first_ring`` or ``room``)."""
        from laby3d.maze.generate import board_of

        return board_of(self.shape, *self.size(), outline=self.outline, first_ring=self.first_ring, room=self.room)

    def options(self) -> dict[str, Any]:
        """The algorithm options given (checked against the chosen algorithm by ``generate``)."""
        given = {name: getattr(self, name) for name in ALGORITHM_OPTIONS}
        return {name: value for name, value in given.items() if value is not None}


def refuse_unused_cols(shape: str | None, stated: Mapping[str, Any]) -> None:
    """Refuse ``cols`` among the maze options one source states (the typed flags, a YAML job's
    own ``maze``) when the maze is round: a theta maze's size is its rings, ``rows``."""
    if shape == "theta" and "cols" in stated:
        raise ParameterError(Message("theta_cols"), field="maze.cols")

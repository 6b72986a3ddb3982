"""Options of the browser walk-through page: the teacher's switches and the scene file's global,
and the check that the walls leave room to walk."""

import dataclasses
import math
import re
from typing import TYPE_CHECKING, Annotated

from laby3d.errors import ParameterError
from laby3d.i18n.messages import Message
from laby3d.options.base import Checked, Section, option
from laby3d.quoting import shown

if TYPE_CHECKING:
    from collections.abc import Callable

    from laby3d.geometry.params import Fabrication

#: What the ``.js`` scene file may name its global variable: words of capitals and digits joined
#: by underscores. No browser global is spelt so (window properties are camelCase or
#: PascalCase: location, top, JSON, URL…), so the scene can never replace one.
SCENE_GLOBAL = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
#: Globals of laby3d's own page, refused too.
PAGE_GLOBALS = ("LABY3D_PAGE", "LABY3D_WALK")


def _safe_global(name: str) -> str:
    """A name no browser global has, nor laby3d's page."""
    if not SCENE_GLOBAL.fullmatch(name) or name in PAGE_GLOBALS:
        raise ParameterError(
            "must be capitals and digits in words joined by _, e.g. LABY3D_MAZE or MAZE_B, so it cannot "
            f"replace a browser global such as location or top (nor {' or '.join(PAGE_GLOBALS)}), "
            f"got {shown(name)}"
        )
    return name


@dataclasses.dataclass(frozen=True, kw_only=True)
class WalkSpec(Section):
    """What pupils may use in the walk-through page (teacher switches), and the scene global."""

    overview: bool = option(True, description="allow the overview map (O key, map button)")
    trail: bool = option(True, description="allow the whole solution trail (L key, trail button)")
    hint: bool = option(True, description="allow the 'which way?' arrow towards the exit (I key, hint button)")
    timer: bool = option(True, description="show a timer from the first step to the exit")
    steps: bool = option(True, description="show a step counter (cells entered)")
    scene_global: Annotated[str, Checked(_safe_global)] = option(
        "LABY3D_MAZE",
        max_length=64,
        description="global variable the .js scene file defines: capitals and digits joined by _, e.g. MAZE_B",
    )

    def switches(self) -> dict[str, bool]:
        """The teacher switches as the page reads them (``scene["walk"]``)."""
        return {name: getattr(self, name) for name in ("overview", "trail", "hint", "timer", "steps")}


def check_walkable(shape: str, fab: "Fabrication", rows: int) -> None:
    """Refuse a page whose walls leave a passage narrower than laby3d makes
    (:data:`laby3d.geometry.passages.MIN_PASSAGE`: the walker's size comes from the narrowest
    passage, and walls that touch would let it slip through), naming the thickest walls that
    leave one at these cells and the smallest cells that do with these walls (to 0.01 mm)."""
    from laby3d.geometry.params import MAX_SIZE_MM, MIN_FEATURE_MM
    from laby3d.geometry.passages import MIN_PASSAGE, narrowest_passage

    def passage(cell: float, wall: float) -> float:
        return narrowest_passage(shape, dataclasses.replace(fab, cell_size=cell, wall_thickness=wall), rows)

    cell, wall = fab.cell_size, fab.wall_thickness
    narrowest = passage(cell, wall)
    if narrowest >= MIN_PASSAGE:
        return

    def bisect(low: float, high: float, works: "Callable[[float], bool]") -> float:
        """The end of ``[low, high]`` where ``works`` turns (``works(high)`` true), closely."""
        for _ in range(50):
            middle = (low + high) / 2
            low, high = (low, middle) if works(middle) else (middle, high)
        return high

    remedies = []
    if passage(cell, MIN_FEATURE_MM) >= MIN_PASSAGE:  # the passage shrinks as the walls thicken
        thickest = -bisect(-wall, -MIN_FEATURE_MM, lambda w: passage(cell, -w) >= MIN_PASSAGE)
        remedies.append(Message("walk_thinner_walls", most=math.floor(thickest * 100) / 100))
    if passage(MAX_SIZE_MM, wall) >= MIN_PASSAGE:  # and widens as the cells grow
        smallest = bisect(cell, MAX_SIZE_MM, lambda c: passage(c, wall) >= MIN_PASSAGE)
        remedies.append(Message("walk_larger_cells", size=math.ceil(smallest * 100) / 100))
    raise ParameterError(
        Message(
            "walk_too_narrow",
            wall=wall,
            maze=Message(f"walk_maze_{shape}"),
            cell=cell,
            corridor=math.floor(max(narrowest, 0.0) * 100) / 100,
            least=MIN_PASSAGE,
            remedy_list="; ".join(remedies),
        ),
        field="wall_thickness",
    )

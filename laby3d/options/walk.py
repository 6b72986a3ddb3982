"""Options of the browser walk-through page: the teacher's switches and the scene file's global."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from laby3d.errors import ParameterError
from laby3d.options.base import Section
from laby3d.quoting import shown

#: What the ``.js`` scene file may name its global variable: words of capitals and digits joined
#: by underscores. No browser global is spelt so (window properties are camelCase or
#: PascalCase: location, top, JSON, URL…), so the scene can never replace one.
SCENE_GLOBAL = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
#: Globals of laby3d's own page, refused too.
PAGE_GLOBALS = ("LABY3D_PAGE", "LABY3D_WALK")


class WalkSpec(Section):
    """What pupils may use in the walk-through page (teacher switches), and the scene global."""

    overview: bool = Field(True, description="allow the overview map (O key, map button)")
    trail: bool = Field(True, description="allow the whole solution trail (L key, trail button)")
    hint: bool = Field(True, description="allow the 'which way?' arrow towards the exit (I key, hint button)")
    timer: bool = Field(True, description="show a timer from the first step to the exit")
    steps: bool = Field(True, description="show a step counter (cells entered)")
    scene_global: str = Field(
        "LABY3D_MAZE",
        max_length=64,
        description="global variable the .js scene file defines: capitals and digits joined by _, e.g. MAZE_B",
    )

    @field_validator("scene_global")
    @classmethod
    def _safe_global(cls, name: str) -> str:
        """A name no browser global has, nor laby3d's page."""
        if not SCENE_GLOBAL.fullmatch(name) or name in PAGE_GLOBALS:
            raise ParameterError(
                "must be capitals and digits in words joined by _, e.g. LABY3D_MAZE or MAZE_B, so it cannot "
                f"replace a browser global such as location or top (nor {' or '.join(PAGE_GLOBALS)}), "
                f"got {shown(name)}"
            )
        return name

    def switches(self) -> dict[str, bool]:
        """The teacher switches as the page reads them (``scene["walk"]``)."""
        return {name: getattr(self, name) for name in ("overview", "trail", "hint", "timer", "steps")}

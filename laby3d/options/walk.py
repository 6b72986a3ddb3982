"""Options of the browser walk-through page: the teacher's switches and the scene file's global."""

from __future__ import annotations

from pydantic import Field

from laby3d.options.base import Section

#: A JavaScript identifier (ASCII): what the ``.js`` scene file may name its global variable.
JS_IDENTIFIER = r"^[A-Za-z_$][A-Za-z0-9_$]{0,63}$"


class WalkSpec(Section):
    """What pupils may use in the walk-through page (teacher switches), and the scene global."""

    overview: bool = Field(True, description="allow the overview map (O key, map button)")
    trail: bool = Field(True, description="allow the whole solution trail (L key, trail button)")
    hint: bool = Field(True, description="allow the 'which way?' hint at the next junction (I key, hint button)")
    timer: bool = Field(True, description="show a timer from the first step to the exit")
    steps: bool = Field(True, description="show a step counter (cells entered)")
    scene_global: str = Field(
        "LABY3D_MAZE", pattern=JS_IDENTIFIER, description="global variable the .js scene file defines"
    )

    def switches(self) -> dict[str, bool]:
        """The teacher switches as the page reads them (``scene["walk"]``)."""
        return {name: getattr(self, name) for name in ("overview", "trail", "hint", "timer", "steps")}

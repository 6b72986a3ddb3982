"""Options of the browser walk-through page."""

from __future__ import annotations

from pydantic import Field

from laby3d.options.base import Section


class WalkSpec(Section):
    """What pupils may use in the walk-through page (teacher switches)."""

    overview: bool = Field(True, description="allow the overview map (O)")

"""PrusaSlicer with the vendor's own profiles: flatten a Prusa Research preset (its ``inherits``
chain) into a config file and slice headless, reading back filament and time estimates.

Used to compare laby3d's estimates with what a maker's slicer says. The 2.5 bundle installed by
Debian has MINI and MK3S profiles (MK4 arrived with PrusaSlicer 2.6).
"""

from __future__ import annotations

import configparser
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

PROFILES = Path("/usr/share/PrusaSlicer/profiles/PrusaResearch.ini")

#: (printer, print, filament) presets of the vendor bundle, by laby3d printer name.
PRESETS = {
    "mini": ("Original Prusa MINI & MINI+", "0.20mm QUALITY @MINI", "Generic PLA"),
    "mk3": ("Original Prusa i3 MK3S & MK3S+", "0.20mm QUALITY @MK3", "Generic PLA"),
    # the 0.6 mm nozzle's own printer and default print profiles (0.3 mm layers, 0.68 mm lines)
    "mini@0.6": ("Original Prusa MINI & MINI+ 0.6 nozzle", "0.30mm QUALITY @0.6 nozzle MINI", "Generic PLA"),
    "mk3@0.6": ("Original Prusa i3 MK3S & MK3S+ 0.6 nozzle", "0.30mm QUALITY @0.6 nozzle MK3", "Generic PLA"),
}


def require_profiles() -> Path:
    """The vendor bundle (it comes with prusa-slicer); skip without it, fail under
    LABY3D_REQUIRE_TOOLS=1."""
    if not PROFILES.is_file():
        message = f"PrusaSlicer's vendor profiles are missing ({PROFILES}; apt-get install prusa-slicer)"
        if os.environ.get("LABY3D_REQUIRE_TOOLS") == "1":
            pytest.fail(f"LABY3D_REQUIRE_TOOLS=1 but {message}")
        pytest.skip(message)
    return PROFILES


def _section(bundle: configparser.RawConfigParser, kind: str, name: str) -> dict[str, str]:
    """One preset with its ``inherits`` chain resolved (later parents and the preset win)."""
    own = dict(bundle[f"{kind}:{name}"])
    merged: dict[str, str] = {}
    for parent in filter(None, (p.strip() for p in own.pop("inherits", "").split(";"))):
        merged.update(_section(bundle, kind, parent))
    merged.update(own)
    return merged


def vendor_config(printer: str, path: Path, **overrides: str) -> Path:
    """Write the flattened printer + print + filament presets of ``printer`` (a key of
    :data:`PRESETS`) to ``path`` as a PrusaSlicer ``--load`` file; ``overrides`` win."""
    bundle = configparser.RawConfigParser(strict=False, interpolation=None)
    bundle.optionxform = str  # type: ignore[assignment,method-assign]
    bundle.read(PROFILES, encoding="utf-8")
    config: dict[str, str] = {}
    for kind, name in zip(("printer", "print", "filament"), PRESETS[printer], strict=True):
        config.update(_section(bundle, kind, name))
    config.update(overrides)
    skip = ("compatible_", "renamed_from", "printer_model", "printer_variant", "default_")
    lines = [f"{key} = {value}" for key, value in config.items() if not key.startswith(skip)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True, kw_only=True)
class SliceResult:
    """What PrusaSlicer's G-code header says: filament (g, cm³) and print time (s)."""

    filament_g: float
    filament_cm3: float
    seconds: float


def _seconds(text: str) -> float:
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return float(sum(int(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", text)))


def slice_model(slicer: str, model: Path, config: Path, gcode: Path, *, as_placed: bool = False) -> SliceResult:
    """Slice ``model`` with ``config`` (``as_placed``: its objects where the file puts them, as a
    plate is meant, rather than arranged by PrusaSlicer); the G-code's filament and normal-mode
    time estimates."""
    keep = ["--dont-arrange"] if as_placed else []
    done = subprocess.run(
        [slicer, "--loglevel", "1", "--load", str(config), *keep, "--export-gcode", "--output", str(gcode), str(model)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"prusa-slicer failed: {done.stderr[-800:]}")
    text = gcode.read_text(errors="replace")

    def value(key: str) -> str:
        found = re.search(rf"^; {re.escape(key)} = (.+)$", text, re.M)
        if found is None:
            raise RuntimeError(f"no '{key}' in the G-code")
        return found.group(1)

    return SliceResult(
        filament_g=float(value("filament used [g]")),
        filament_cm3=float(value("filament used [cm3]")),
        seconds=_seconds(value("estimated printing time (normal mode)")),
    )

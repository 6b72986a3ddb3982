"""A class's laser sheets, read back from the written files: every kit part of a batch pooled by
material and nested together (a class of several maze sizes is several jobs), the sheets it
takes against bounds the tests compute from the outlines themselves, and engraved names kept
1.5 mm from each part's outer cut."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import shapely
import yaml
from kitcheck import assemble, folder_files, ink_to_outer_cut, read_pieces
from svgcheck import parse_svg

import laby3d
from laby3d.export.laser import laser_files
from laby3d.geometry.laser import LaserOptions, class_sheets, laser_sheets
from laby3d.geometry.laser.classset import ClassKits, pooled_sheets
from laby3d.geometry.params import Fabrication

CLASS = Path(__file__).parent / "data" / "laser-class-sizes.yaml"
SHEET = (600.0, 400.0)
SPACING = 3.0


def the_class() -> list[tuple[str, tuple[int, int], list[str]]]:
    """tests/data/laser-class-sizes.yaml's jobs: name, maze size, pupils."""
    jobs = yaml.safe_load(CLASS.read_text(encoding="utf-8"))["jobs"]
    return [(job["name"], (job["maze"]["rows"], job["maze"]["cols"]), job["names"]) for job in jobs]


def class_kits(fab: Fabrication, options: LaserOptions) -> list[ClassKits]:
    return [
        ClassKits(
            job=name,
            pupils=[(pupil, laby3d.generate(*size, seed=k)) for k, pupil in enumerate(pupils)],
            fab=fab,
            options=options,
        )
        for name, size, pupils in the_class()
    ]


def outlines_by_material(files: dict[str, bytes]) -> dict[str, list[list[shapely.Polygon]]]:
    """The outer cuts of every sheet file (not the overview), per material (file name stem)."""
    found: dict[str, list[list[shapely.Polygon]]] = {}
    for name in sorted(files):
        if name.endswith(".svg") and not name.startswith("overview"):
            page = parse_svg(files[name])
            found.setdefault(name.rsplit("-", 1)[0], []).append(
                [shapely.Polygon(p) for p, _ in page["layers"]["outer-cut"]]
            )
    return found


def least_sheets(boxes: list[tuple[float, float]]) -> tuple[int, int]:
    """Two lower bounds on the sheets any packing of ``boxes`` (w, h mm, the spacing added) takes
    on :data:`SHEET` less its edge: their area over the sheet's, and over what a sheet can hold
    along a line (every line across a sheet meets boxes whose sides along it, in either
    orientation, fit its length; in 0.01 mm steps, a set of the sums reached)."""
    edge = max(SPACING, 2.0)
    room = [round((side - 2 * edge + SPACING) * 100) for side in SHEET]
    sides = {round(side * 100) for box in boxes for side in box}
    area = sum(round(w * 100) * round(h * 100) for w, h in boxes)

    def longest(length: int) -> int:
        reached = {0}
        for total in range(1, length + 1):
            if any(total - side in reached for side in sides if side <= total):
                reached.add(total)
        return max(reached)

    holds = min(longest(room[0]) * room[1], room[0] * longest(room[1]))
    return math.ceil(area / (room[0] * room[1])), math.ceil(area / holds)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_class_of_five_sizes_nested_together_reaches_the_least_sheets_any_packing_takes() -> None:
    """The class of five maze sizes (tests/data/laser-class-sizes.yaml): nested job by job, its
    kits took 9 plywood and 5 acrylic sheets; pooled, the sheets written reach the lower bound the
    test computes from the written outlines (7 plywood: their area allows 6, but a 597 mm row of
    these parts' sides holds at most 590.75 mm, so 6 sheets hold too little; 2 acrylic)."""
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=6, kerf=0.15)
    jobs = class_kits(fab, options)
    alone: dict[str, int] = {}
    for job in jobs:
        for entry in pooled_sheets([job]).nesting:
            alone[entry["material"]] = alone.get(entry["material"], 0) + entry["sheets"]
    assert alone == {"plywood-3mm": 9, "acrylic-3mm": 5}, "the class the issue met"
    sheets = pooled_sheets(jobs)
    files = laser_files(sheets, suffix="svg", metadata={})
    report = json.loads(files["laser.json"])
    written = outlines_by_material(files)
    assert {key: len(pages) for key, pages in written.items()} == {"plywood-3mm": 7, "acrylic-3mm": 2}
    sheet = shapely.box(0, 0, *SHEET)
    for key, pages in written.items():
        for page in pages:  # every part inside its sheet, no two overlapping
            assert all(sheet.contains(part) for part in page), key
            assert shapely.union_all(page).area == pytest.approx(sum(part.area for part in page), abs=1e-6), key
        boxes = [
            (x1 - x0 + SPACING, y1 - y0 + SPACING) for page in pages for x0, y0, x1, y1 in (p.bounds for p in page)
        ]
        by_area, by_line = least_sheets(boxes)
        assert len(pages) == max(by_area, by_line) <= by_area + 1, key  # the one sheet of slack: the line bound's
        (nesting,) = [n for n in report["nesting"] if n["material"] == key]
        assert nesting["sheets"] == len(pages) == nesting["line_bound_sheets"] >= nesting["area_bound_sheets"]


@pytest.mark.slow  # three jobs through laby3d batch; the fast suite pools five sizes above
def test_a_batch_pools_its_jobs_class_sheets_and_the_manifest_says_how_many(tmp_path: Path) -> None:
    """Two sizes, two jobs, and a third job on other sheets: the first two share the batch's
    class-sheets/ (each part named, every kit there), the third keeps its own job's folder; the
    manifest names the jobs each file holds, its sheets against the bounds, and the totals count
    each shared sheet once."""
    from laby3d.cli import main

    jobs = [
        {"name": "small", "maze": {"rows": 4, "cols": 5}, "names": ["Ana", "Ben"]},
        {"name": "large", "maze": {"rows": 6, "cols": 7}, "names": ["Chloé", "Dmitri"]},
        {"name": "apart", "maze": {"rows": 4, "cols": 5}, "names": ["Emma"], "laser": {"sheet": "300x200"}},
    ]
    defaults = {
        "seed": 5,
        "print": {"cell_size": 10, "wall_thickness": 3, "margin": 6, "ball": 6},
        "laser": {"mode": "stack", "top": True},
        "formats": ["svg", "dxf"],
    }
    config = tmp_path / "class.yaml"
    config.write_text(yaml.safe_dump({"defaults": defaults, "jobs": jobs}, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["batch", str(config), "--output-dir", str(out), "-j", "1"]) == 0
    shared = folder_files(out / "class-sheets")
    kits = assemble(
        read_pieces(shared, ["Ana", "Ben", "Chloé", "Dmitri", "1", "2", "3", "4", "5"]),
        ["Ana", "Ben", "Chloé", "Dmitri"],
    )
    assert sorted(kits) == ["Ana", "Ben", "Chloé", "Dmitri"]
    assert {p.name for p in (out / "class-sheets").iterdir() if p.suffix == ".dxf"}, "DXF too"
    assert not (out / "small" / "class-sheets").exists() and not (out / "large" / "class-sheets").exists()
    assert (out / "apart" / "class-sheets" / "laser.json").exists()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    pooled = [e for e in manifest["class_sheets"] if e["file"].startswith("class-sheets/")]
    assert pooled and all(e["jobs"] == ["small", "large"] for e in pooled)
    (summary,) = [e for e in pooled if e["file"].endswith("laser.json")]
    for nesting in summary["nesting"]:
        drawn = [f for f in shared if f.startswith(nesting["material"])]
        assert nesting["sheets"] == len(drawn) >= nesting["line_bound_sheets"] >= nesting["area_bound_sheets"] >= 1
    sheet_files = {f.rsplit(".", 1)[0] for e in manifest["class_sheets"] for f in [e.get("file", "")] if "-3mm-" in f}
    assert manifest["totals"]["laser_sheets"] == len(sheet_files)


@pytest.mark.parametrize(
    ("shape", "size", "fab"),
    [
        ("square", (6, 8), Fabrication(cell_size=10, wall_thickness=3, margin=6)),
        ("square", (5, 6), Fabrication(cell_size=10, wall_thickness=2, margin=4)),
        ("theta", (5, None), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
        ("hex", (5, 6), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
        ("triangle", (5, 6), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
    ],
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_engraved_names_and_numbers_keep_1_5_mm_from_the_outer_cut(shape: str, size, fab: Fabrication) -> None:
    """Read back from the class sheets' SVG: every part's engraved ink (its pupil's name, its
    layer number) at least 1.5 mm from that part's outer cut (plywood chars along a cut, and a
    name by the edge is what sanding takes first), names still legible."""
    names = ["Chloé", "Gaëlle", "Jyoti"]  # accents above, descenders below
    options = LaserOptions(mode="stack", top=True, ball=3, kerf=0.15)
    pupils = [(name, laby3d.generate(*size, shape=shape, seed=k)) for k, name in enumerate(names)]
    files = laser_files(class_sheets(pupils, fab, options), suffix="svg", metadata={})
    pieces = read_pieces(files, [*names, "1", "2", "3", "4", "5"])
    assert len(assemble(pieces, names)) == len(names)  # one legible name per part
    for piece in pieces:
        assert ink_to_outer_cut(piece) >= 1.5 - 1e-6, (piece.material, [r.text for r in piece.readings])
        assert all(r.cap_height >= 2.5 - 0.05 for r in piece.readings)


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_a_kit_label_keeps_1_5_mm_from_the_outer_cut(shape: str) -> None:
    maze = laby3d.generate(6, 8, shape=shape, seed=4)
    fab = Fabrication(cell_size=12, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=3, kerf=0.1, label="Zoé", registration_holes=3)
    sheets = laser_sheets(maze, fab, options)
    pieces = read_pieces(laser_files(sheets, suffix="svg", metadata={}), [f"Zoé  ·  seed {maze.seed}", *"1234"])
    assert any(r.text.startswith("Zoé") for piece in pieces for r in piece.readings)
    assert min(ink_to_outer_cut(piece) for piece in pieces) >= 1.5 - 1e-6

"""The SHA-256 of every output, as the batch manifests record them: a fingerprint to show that a
change (one maze model, say) leaves today's outputs byte-identical.

Runs every class set in ``configs/`` and a matrix of every format under varied options (labels
with accents, groove and ridge, markers, every laser mode, pictures, worksheets, the walk-through,
the lesson; a 150×150 maze, whose solid crosses the triangulation's chunk seams above 128×128;
one job per algorithm; every format of the round, hex and triangle shapes) through ``laby3d
batch`` in this process, then ``laby3d.render()`` calls and the class server's render path
(preview and download), and writes one JSON mapping ``config/file → sha256``, with the versions
of the libraries that shape the bytes under ``versions/…``. Compare two fingerprints with
``--compare``:

    python tools/square_fingerprint.py -o before.json       # on the old commit
    python tools/square_fingerprint.py -o after.json        # on the new one
    python tools/square_fingerprint.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SQUARE_ALGORITHMS = (
    "kruskal",
    "backtracker",
    "growing_tree",
    "wilson",
    "aldous_broder",
    "prim",
    "eller",
    "hunt_and_kill",
    "sidewinder",
    "binary_tree",
    "recursive_division",
)
GRAPH_ALGORITHMS = ("kruskal", "backtracker", "growing_tree", "wilson", "aldous_broder", "prim", "hunt_and_kill")
#: A matrix of jobs: every format, and the options that steer each output's code paths.
MATRIX = {
    "defaults": {"maze": {"rows": 7, "cols": 9}, "seed": 11},
    "jobs": [
        {"name": "every-format", "label": "Željko", "print": {"margin": 6}, "formats": "ALL"},
        {"name": "french", "lang": "fr", "label": "Élodie", "formats": ["worksheet.pdf", "key.pdf", "html", "png"]},
        {"name": "groove", "print": {"solution": "groove", "markers": True, "margin": 5}, "formats": ["stl", "3mf"]},
        {
            "name": "ridge",
            "print": {"solution": "ridge", "label_mode": "emboss", "margin": 8},
            "label": "Θ©",
            "formats": ["stl", "3mf", "glb"],
        },
        {"name": "underside", "label": "Nguyễn Văn An", "formats": ["stl"]},
        {"name": "pictures", "pictures": {"solution": True, "heatmap": True}, "formats": ["png", "svg", "pdf", "txt"]},
        {"name": "ascii", "pictures": {"charset": "ascii"}, "formats": ["txt"]},
        {"name": "outline", "laser": {"mode": "outline"}, "formats": ["svg", "dxf"]},
        {
            "name": "kit",
            "laser": {"mode": "stack", "top": True, "registration_holes": 4},
            "print": {"ball": 6, "margin": 6},
            "formats": ["svg", "dxf", "laser.png"],
        },
        {"name": "kerf", "laser": {"mode": "kerf-test"}, "formats": ["svg"]},
        {
            "name": "class",
            "names": ["Ana", "Chloé", "O'Connor"],
            "print": {"margin": 6},
            "formats": ["stl", "worksheet.pdf", "key.pdf"],
        },
        {"name": "handout", "maze": {"rows": 5, "cols": 6}, "formats": ["handout.pdf"]},
        {"name": "algorithms", "count": 3, "maze": {"algorithm": "eller"}, "formats": ["maze.json", "png"]},
        {
            "name": "big",
            "maze": {"rows": 150, "cols": 150},
            "label": "Ana",
            "print": {"margin": 6},
            "formats": ["maze.json", "stl", "3mf", "glb", "svg", "dxf", "png", "txt", "js", "walls.csv"],
        },
        *(
            {
                "name": f"algorithm-{algorithm}",
                "maze": {"rows": 5, "cols": 6, "algorithm": algorithm, "placement": "hardest"},
                "formats": ["maze.json", "walls.csv", "lesson.pdf", "gif", "txt", "stl", "png", "handout.pdf"],
            }
            for algorithm in SQUARE_ALGORITHMS
        ),
        *(
            {
                "name": f"{shape}-every-format",
                "maze": {"shape": shape, "rows": 6, **({} if shape == "theta" else {"cols": 7})},
                "label": "Željko",
                "print": {"margin": 6},
                "formats": f"SHAPE:{shape}",
            }
            for shape in ("theta", "hex", "triangle")
        ),
        *(
            {
                "name": f"{shape}-{algorithm}",
                "maze": {
                    "shape": shape,
                    "rows": 5,
                    **({} if shape == "theta" else {"cols": 6}),
                    "algorithm": algorithm,
                    "placement": "hardest",
                },
                "formats": ["maze.json", "lesson.pdf", "png", "stl", "svg"],
            }
            for shape in ("theta", "hex", "triangle")
            for algorithm in GRAPH_ALGORITHMS
        ),
        {
            "name": "shapes-kit",
            "maze": {"shape": "hex", "rows": 6, "cols": 6},
            "laser": {"mode": "stack", "top": True},
            "print": {"ball": 6, "margin": 6, "cell_size": 16},
            "formats": ["svg", "dxf", "laser.png"],
        },
    ],
}
#: ``laby3d.render()`` calls: (shape, rows, cols, format, options).
RENDER_CALLS = [
    ("square", 8, 9, "stl", {"cell_size": 8, "label": "Chloé"}),
    ("square", 8, 9, "svg", {"laser_mode": "outline"}),
    ("square", 8, 9, "png", {"heatmap": True}),
    ("square", 8, 9, "html", {}),
    ("square", 8, 9, "maze.json", {}),
    ("theta", 6, None, "stl", {"label": "Ana"}),
    ("hex", 5, 6, "svg", {}),
    ("triangle", 5, 6, "png", {}),
]
#: Designs sent through the class server's render path (its preview and a download).
SERVE_DESIGNS = [
    {"maze.rows": 9, "maze.cols": 9, "seed": 4},
    {"maze.rows": 9, "maze.cols": 9, "seed": 4, "print.solution": "groove", "print.margin": 6},
    {"maze.shape": "theta", "maze.rows": 6, "seed": 4},
    {"maze.shape": "hex", "maze.rows": 6, "maze.cols": 7, "seed": 4},
]
#: Libraries whose versions can change the bytes (recorded in the fingerprint).
LIBRARIES = ("numpy", "shapely", "manifold3d", "mapbox-earcut", "matplotlib", "numba", "ezdxf", "fonttools", "Pillow")


def fingerprint(work: Path) -> dict[str, str]:
    """``config/file → sha256`` of every file the batch manifests list."""
    from laby3d.batch import expand, plate_files, run_batch
    from laby3d.config import load_batch
    from laby3d.export.formats import shapes_of
    from laby3d.options import FORMAT_NAMES

    matrix = json.loads(json.dumps(MATRIX))
    for job in matrix["jobs"]:
        if job["formats"] == "ALL":
            job["formats"] = [name for name in FORMAT_NAMES if name not in ("plates", "handout.pdf")]
        elif isinstance(job["formats"], str):
            shape = job["formats"].split(":")[1]
            skip = ("plates", "handout.pdf")
            job["formats"] = [name for name in FORMAT_NAMES if name not in skip and shape in shapes_of(name)]
    (work / "matrix.yaml").write_text(yaml.safe_dump(matrix, allow_unicode=True), encoding="utf-8")
    configs = sorted(ROOT.glob("configs/*.yaml")) + [work / "matrix.yaml"]
    hashes: dict[str, str] = {}
    for config in configs:
        _, jobs = load_batch(config)
        out = work / config.stem
        manifest = run_batch(expand(jobs, out), out, workers=2)
        entries = [*manifest["mazes"], *manifest["booklets"], *manifest["class_sheets"]]
        plates = manifest.get("plates")
        entries += plate_files(plates) + ([plates["plan"]] if plates else [])
        for entry in entries:
            if entry.get("error"):
                hashes[f"{config.stem}/{entry.get('maze') or entry.get('file')}"] = f"error: {entry['error']}"
            for name, info in (entry.get("files") or {}).items():
                hashes[f"{config.stem}/{name}"] = info["sha256"]
            if "file" in entry and "sha256" in entry:
                hashes[f"{config.stem}/{entry['file']}"] = entry["sha256"]
    hashes.update(render_calls())
    hashes.update(serve_renders())
    hashes.update(versions())
    return dict(sorted(hashes.items()))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def render_calls() -> dict[str, str]:
    """``render/…`` → sha256 of each :data:`RENDER_CALLS` call of ``laby3d.render``."""
    import laby3d

    found = {}
    for shape, rows, cols, fmt, options in RENDER_CALLS:
        maze = laby3d.generate(rows, cols, shape=shape, seed=5)
        name = "-".join(f"{key}={value}" for key, value in options.items())
        found[f"render/{shape}-{rows}x{cols}-{name}.{fmt}"] = _sha(laby3d.render(maze, fmt, **options))
    return found


def serve_renders() -> dict[str, str]:
    """``serve/…`` → sha256 of the class server's preview (SVG, report, GLB) and downloads."""
    from laby3d.serve.classroom import DesignRequest
    from laby3d.serve.work import preview, render_file

    found = {}
    for number, design in enumerate(SERVE_DESIGNS):
        request = DesignRequest(design=design, defaults={}, locks={}, name="Léa")
        shown = preview(request)
        found[f"serve/{number}-preview.svg"] = _sha(shown["svg"].encode())
        found[f"serve/{number}-preview.glb"] = _sha(shown["glb"])
        found[f"serve/{number}-preview.report"] = _sha(json.dumps(shown["report"], sort_keys=True).encode())
        for fmt in ("stl", "png"):
            found[f"serve/{number}-download.{fmt}"] = _sha(render_file(request, fmt))
    return found


def versions() -> dict[str, str]:
    """``versions/<library>`` → its installed version."""
    from importlib.metadata import PackageNotFoundError, version

    found = {"versions/python": sys.version.split()[0]}
    for library in LIBRARIES:
        try:
            found[f"versions/{library}"] = version(library)
        except PackageNotFoundError:
            found[f"versions/{library}"] = "not installed"
    return found


def compare(before: dict[str, str], after: dict[str, str]) -> int:
    """Print what differs; 0 when every file is byte-identical (library versions that differ are
    named first: they, not the change, may explain a file that differs)."""
    names = sorted(set(before) | set(after))
    for name in (name for name in names if name.startswith("versions/")):
        if before.get(name) != after.get(name):
            print(f"note: {name} {before.get(name, 'unknown')} → {after.get(name, 'unknown')}")
    differ = [name for name in names if not name.startswith("versions/") and before.get(name) != after.get(name)]
    for name in differ:
        print(f"{name}: {before.get(name, 'missing')} → {after.get(name, 'missing')}")
    print(f"{len(before)} files before, {len(after)} after, {len(differ)} differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="write the fingerprint here (default: stdout)")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two fingerprints")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(path).read_text(encoding="utf-8")) for path in args.compare)
        return compare(before, after)
    with tempfile.TemporaryDirectory() as folder:
        text = json.dumps(fingerprint(Path(folder)), indent=1) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

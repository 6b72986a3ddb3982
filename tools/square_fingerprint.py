"""The SHA-256 of every square-maze output, as the batch manifests record them: a fingerprint to
show that a change (the shapes of issue 22, say) leaves today's square outputs byte-identical.

Runs every class set in ``configs/`` and a matrix of every format under varied options (labels
with accents, groove and ridge, markers, every laser mode, pictures, worksheets, the walk-through,
the lesson) through ``laby3d batch`` in this process, and writes one JSON mapping
``config/file → sha256``. Compare two fingerprints with ``--compare``:

    python tools/square_fingerprint.py -o before.json       # on the old commit
    python tools/square_fingerprint.py -o after.json        # on the new one
    python tools/square_fingerprint.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
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
    ],
}


def fingerprint(work: Path) -> dict[str, str]:
    """``config/file → sha256`` of every file the batch manifests list."""
    from laby3d.batch import expand, plate_files, run_batch
    from laby3d.config import load_batch
    from laby3d.options import FORMAT_NAMES

    matrix = json.loads(json.dumps(MATRIX))
    for job in matrix["jobs"]:
        if job["formats"] == "ALL":
            job["formats"] = [name for name in FORMAT_NAMES if name not in ("plates", "handout.pdf")]
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
    return dict(sorted(hashes.items()))


def compare(before: dict[str, str], after: dict[str, str]) -> int:
    """Print what differs; 0 when every file is byte-identical."""
    differ = [name for name in sorted(set(before) | set(after)) if before.get(name) != after.get(name)]
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

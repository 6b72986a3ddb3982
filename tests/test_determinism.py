"""Same seed and options → the same bytes for every format, whatever runs it: this process,
threads at once, or another interpreter with another hash seed, locale and time zone."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from laby3d.export.formats import FORMATS

OPTIONS = {"label": "Zoë", "margin": 6, "laser_mode": "stack", "top_sheet": True, "ball": 4}
SCRIPT = """
import hashlib, json, sys
import laby3d
maze = laby3d.generate(5, 6, algorithm="wilson", seed=12)
options = json.loads(sys.argv[1])
print(json.dumps({fmt: hashlib.sha256(laby3d.render(maze, fmt, **options)).hexdigest() for fmt in sys.argv[2:]}))
"""


def digests_here(formats: list[str]) -> dict[str, str]:
    import laby3d

    maze = laby3d.generate(5, 6, algorithm="wilson", seed=12)
    return {fmt: hashlib.sha256(laby3d.render(maze, fmt, **OPTIONS)).hexdigest() for fmt in formats}


@pytest.mark.slow
def test_every_format_is_byte_identical_everywhere() -> None:
    formats = list(FORMATS)
    here = digests_here(formats)
    with ThreadPoolExecutor(4) as pool:  # ezdxf's and matplotlib's process-wide state under threads
        threaded = list(pool.map(lambda fmt: digests_here([fmt])[fmt], formats * 2))
    assert threaded == [here[fmt] for fmt in formats * 2]
    for hash_seed, zone, locale in (("1", "Pacific/Kiritimati", "C.UTF-8"), ("4242", "America/Adak", "C")):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "TZ": zone, "LC_ALL": locale, "LANG": locale}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, json.dumps(OPTIONS), *formats],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        assert json.loads(done.stdout) == here, f"PYTHONHASHSEED={hash_seed} TZ={zone} LC_ALL={locale}"

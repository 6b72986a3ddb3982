"""The class set: a YAML batch file that reproduces it with ``laby3d batch``, and a ZIP of what
the batch pipeline writes for that file (manifest included).

Each pupil is one job of the file, with their own seed and every option written out (class
defaults under, locks over), so the file stands alone and ``laby3d batch`` on it writes the same
bytes as the ZIP holds.
"""

from __future__ import annotations

import io
import multiprocessing
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from laby3d.options.build import merge, nested
from laby3d.serve.storage import Pupil

#: Fixed date of every ZIP entry, so the same class set gives the same ZIP.
ZIP_DATE = (2000, 1, 1, 0, 0, 0)


def class_config(
    pupils: Sequence[Pupil],
    *,
    class_name: str,
    defaults: Mapping[str, Any],
    locks: Mapping[str, Any],
    formats: Sequence[str],
) -> dict[str, Any]:
    """The batch file's data: one job per pupil (name, seed and every option they set)."""
    jobs = []
    for pupil in pupils:
        data = merge(merge(dict(defaults), nested(pupil.design)), nested(locks))
        data.pop("name", None)
        jobs.append({"name": pupil.name, **data, "formats": list(formats)})
    return {"output_dir": f"outputs/{class_name}", "jobs": jobs}


def class_yaml(config: Mapping[str, Any], *, class_name: str) -> str:
    """The batch file as YAML text, with a comment saying how to run it."""
    import yaml

    head = f"# class set of {class_name!r} from laby3d serve; run it with: laby3d batch this-file.yaml\n"
    return head + yaml.safe_dump(dict(config), allow_unicode=True, sort_keys=False)


def class_zip(config: Mapping[str, Any], *, workers: int = 1) -> tuple[bytes, dict[str, Any]]:
    """The ZIP of every file ``laby3d batch`` writes for ``config`` (manifest included), and the
    manifest; the mazes render in a pool of their own of ``workers`` processes, so pupils'
    previews keep their workers meanwhile."""
    from laby3d.batch import expand, run_batch
    from laby3d.config import job_from_dict
    from laby3d.serve.work import start_worker

    jobs = [job_from_dict(dict(job), f"jobs[{index}]") for index, job in enumerate(config["jobs"])]
    spawn = multiprocessing.get_context("spawn")  # the server has threads: never fork it
    with (
        tempfile.TemporaryDirectory(prefix="laby3d-class-") as folder,
        ProcessPoolExecutor(workers, mp_context=spawn, initializer=partial(start_worker, False)) as pool,
    ):
        root = Path(folder)
        manifest = run_batch(expand(jobs, root), root, executor=pool)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
                info = zipfile.ZipInfo(path.relative_to(root).as_posix(), ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return buffer.getvalue(), manifest

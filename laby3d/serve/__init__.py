"""``laby3d serve``: the class web app. Pupils design, preview and download their mazes from a
browser on the local network; the teacher sees the class and downloads the class set.

Needs the ``serve`` extra (``pip install 'laby3d[serve]'``: Starlette and uvicorn). Modules:
:mod:`.fields` (the form from the option fields), :mod:`.storage` (SQLite), :mod:`.classroom`
(class settings, locks, token), :mod:`.queue` (process pool, rate limit), :mod:`.work` (what the
workers render), :mod:`.classset` (YAML and ZIP of the class set), :mod:`.page` (HTML, static
files), :mod:`.http` (refusals, bodies, headers), :mod:`.app` (routes, pages, the pupils' API)
and :mod:`.teacher` (the teacher's API).
"""

from __future__ import annotations

from pathlib import Path

from laby3d.errors import Laby3dError

__all__ = ["lan_address", "run"]


def lan_address() -> str:
    """This computer's address on the local network, as pupils type it (no packet is sent:
    connecting a UDP socket only picks the outgoing interface); 127.0.0.1 when there is none."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def run(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    class_name: str = "class",
    config: str | Path | None = None,
    folder: str | Path | None = None,
    workers: int = 2,
) -> None:
    """Serve the class app until interrupted (blocks); prints the pupils' address and the
    teacher's, token included. Binds to ``host`` only (localhost unless told otherwise)."""
    try:
        import uvicorn
    except ImportError:
        raise Laby3dError("laby3d serve needs Starlette and uvicorn: pip install 'laby3d[serve]'") from None
    from laby3d.serve.app import create_app
    from laby3d.serve.classroom import Classroom, settings_from_config

    settings = settings_from_config(
        class_name, Path(folder) if folder is not None else None, Path(config) if config is not None else None
    )
    classroom = Classroom(settings)
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    print(f"laby3d serve: class {class_name!r}, state in {classroom.store.path}")
    print(f"pupils:  http://{shown}:{port}/")
    print(f"teacher: http://{shown}:{port}/teacher#token={classroom.token}")
    if host in ("127.0.0.1", "::1", "localhost"):
        print("only this computer can connect; give --host 0.0.0.0 to let the class's computers in")
    uvicorn.run(create_app(classroom, workers=workers), host=host, port=port, log_level="warning")

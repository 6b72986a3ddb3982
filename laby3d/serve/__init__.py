"""``laby3d serve``: the class web app. Pupils design, preview and download their mazes from a
browser on the local network; the teacher sees the class and downloads the class set.

Needs the ``serve`` extra (``pip install 'laby3d[serve]'``: Starlette and uvicorn). Modules:
:mod:`.fields` (the form from the option fields), :mod:`.storage` (SQLite), :mod:`.identity`
(pupils' names and sessions), :mod:`.classroom` (class settings, locks, token, code),
:mod:`.queue` (worker pools, rate limit), :mod:`.work` (what the workers render),
:mod:`.classset` (YAML and ZIP of the class set), :mod:`.page` (HTML, static files),
:mod:`.http` (refusals, bodies, the same-origin rule, headers), :mod:`.app` (routes, pages, the
pupils' API), :mod:`.teacher` (the teacher's API) and :mod:`.server` (uvicorn and its bounds).
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
    code: str | None = None,
    rate: float = 2.0,
    new_token: bool = False,
    host_names: tuple[str, ...] = (),
) -> None:
    """Serve the class app until interrupted (blocks); prints the pupils' address and the
    teacher's, token included. Binds to ``host`` only (localhost unless told otherwise); pupils
    type ``code`` to join when given; each pupil may ask ``rate`` renders a second (bursts of
    more); ``new_token`` replaces the teacher's token (the old address stops working);
    ``host_names`` are names the server answers to besides its addresses (a school's DNS name)."""
    import socket

    try:
        import uvicorn
    except ImportError:
        raise Laby3dError("laby3d serve needs Starlette and uvicorn: pip install 'laby3d[serve]'") from None
    from laby3d.serve.app import create_app
    from laby3d.serve.classroom import Classroom, settings_from_config
    from laby3d.serve.queue import RateLimit
    from laby3d.serve.server import uvicorn_config

    settings = settings_from_config(
        class_name,
        Path(folder) if folder is not None else None,
        Path(config) if config is not None else None,
        code=code,
    )
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    settings.address = f"http://{shown}:{port}/"
    settings.host_names = (*host_names, socket.gethostname())  # this computer's own name too
    classroom = Classroom(settings, new_token=new_token)
    try:
        print(f"laby3d serve: class {class_name!r}, state in {classroom.store.path}")
        print(f"pupils:  {settings.address}" + (f"  (class code: {code})" if code else ""))
        print(f"teacher: http://{shown}:{port}/teacher#token={classroom.token}")
        for name in host_names:
            print(f"also:    http://{name}:{port}/")
        if host in ("127.0.0.1", "::1", "localhost"):
            print("only this computer can connect; give --host 0.0.0.0 to let the class's computers in")
        app = create_app(classroom, workers=workers, rate=RateLimit(per_second=rate))
        uvicorn.Server(uvicorn_config(app, host=host, port=port)).run()
    finally:
        classroom.close()

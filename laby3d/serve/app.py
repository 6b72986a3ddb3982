"""The class web app: its routes, the pages, and the pupils' API (options, previews, saved
designs, downloads) with its rate limit; the teacher's API is :mod:`.teacher`.

Starlette rather than FastAPI: a small ASGI toolkit with no pydantic of its own (FastAPI pins
pydantic versions and would validate a second time); laby3d's option fields already check every
value and name the field, through :func:`laby3d.serve.fields.job_for`.

Routes: ``/`` (pupil page), ``/teacher`` (teacher page), ``/static/…``, ``GET /api/options``,
``POST /api/preview``, ``GET /api/model.glb?key=…``, ``GET|POST /api/pupils/{name}``,
``GET /api/preview/{key}.svg`` (a saved design seen from above),
``GET /api/download/{key}.{format}``, and behind the token ``/api/teacher/…``.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.formats import FORMATS
from laby3d.maze.generate import new_seed
from laby3d.serve import page, wording, work
from laby3d.serve.classroom import Classroom, PreviewCache, checked_name, job_key, pupil_key, summary_of
from laby3d.serve.fields import design_data, field_specs
from laby3d.serve.http import guarded, invalid, json_body, refused
from laby3d.serve.queue import Busy, RateLimit, RenderPool, RenderTimeout, WorkerLost
from laby3d.serve.teacher import TeacherAPI

#: Seconds a preview or a download may take before it is stopped.
PREVIEW_TIMEOUT = 20.0
DOWNLOAD_TIMEOUT = 60.0
#: Media types of formats whose file ending ``mimetypes`` does not know (or knows otherwise).
MEDIA_TYPES = {
    "maze.json": "application/json",
    "txt": "text/plain; charset=utf-8",
    "stl": "model/stl",
    "3mf": "model/3mf",
    "glb": "model/gltf-binary",
    "dxf": "image/vnd.dxf",
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
}


def media_type(fmt: str) -> str:
    """The media type of format ``fmt``'s file (``laser.png`` → ``image/png``)."""
    import mimetypes

    return MEDIA_TYPES.get(fmt) or mimetypes.guess_type(f"maze.{fmt}")[0] or "application/octet-stream"


#: A saved preview is a picture only: nothing in it may run or load.
_PICTURE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "Cache-Control": "no-cache",
}


def create_app(
    classroom: Classroom,
    *,
    workers: int = 2,
    queue: int = 32,
    rate: RateLimit | None = None,
    warm: bool = True,
) -> Starlette:
    """The ASGI app of one class; render work runs on ``workers`` processes (``queue`` waiting at
    most), each client limited by ``rate``."""
    state = _State(classroom, rate or RateLimit())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state.pool = RenderPool(workers=workers, queue=queue, initializer=partial(work.start_worker, warm))
        if warm:
            await state.pool.start(timeout=120)
        try:
            yield
        finally:
            state.pool.close()

    routes = [
        Route("/", state.pupil_page),
        Route("/teacher", state.teacher_page),
        Route("/static/{name}", state.static),
        Route("/api/options", state.options),
        Route("/api/preview", state.preview, methods=["POST"]),
        Route("/api/model.glb", state.model),
        Route("/api/preview/{file}", state.pupil_preview),
        Route("/api/pupils/{name:path}", state.pupil, methods=["GET", "POST"]),
        Route("/api/download/{file}", state.download),
        *TeacherAPI(classroom).routes(),
    ]
    return Starlette(routes=[guarded(route) for route in routes], lifespan=lifespan)


class _State:
    """The app's state and endpoints (one instance per app)."""

    pool: RenderPool

    def __init__(self, classroom: Classroom, rate: RateLimit) -> None:
        self.classroom = classroom
        self.rate = rate
        self.cache = PreviewCache()

    @property
    def lang(self) -> str:
        """The class's language: of its pages, fields, errors and figures."""
        return str(self.classroom.settings.defaults.get("lang", "en"))

    # --- helpers -----------------------------------------------------------------------------

    def _limit(self, request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        wait = self.rate.allow(client)
        if wait > 0:
            message = f"too many renders from {client}; wait {wait:.1f} s"
            raise refused(429, message, {"Retry-After": str(math.ceil(wait))})

    async def _render(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        try:
            return await self.pool.run(function, *args, timeout=timeout)
        except Busy as error:
            raise refused(503, str(error), {"Retry-After": "1"}) from None
        except RenderTimeout as error:
            raise refused(504, str(error)) from None
        except WorkerLost as error:
            raise refused(503, str(error), {"Retry-After": "1"}) from None
        except Laby3dError as error:
            raise invalid(error, self.lang) from None
        except Exception as error:  # noqa: BLE001 - a bug in laby3d, reported as one, the server goes on
            raise refused(500, f"internal error (a bug in laby3d): {type(error).__name__}: {error}") from None

    async def _design(self, request: Request) -> dict[str, Any]:
        body = await json_body(request)
        try:
            return design_data(body.get("options", {}) if isinstance(body, dict) else None)
        except ParameterError as error:
            raise invalid(error, self.lang) from None

    async def _preview_of(self, design: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The preview of a design (cached by its job), with its cache key."""
        try:
            job = self.classroom.job(design)
        except ParameterError as error:
            raise invalid(error, self.lang) from None
        key = job_key(job)
        found = self.cache.get(key)
        if found is None:
            found = await self._render(work.preview, job, timeout=PREVIEW_TIMEOUT)
            self.cache.put(key, found)
        return key, found

    # --- pages -------------------------------------------------------------------------------

    async def pupil_page(self, request: Request) -> Response:
        settings = self.classroom.settings
        text = page.pupil_html(class_name=settings.class_name, lang=settings.defaults.get("lang", "en"))
        return Response(text, media_type="text/html; charset=utf-8", headers=page.PAGE_HEADERS)

    async def teacher_page(self, request: Request) -> Response:
        settings = self.classroom.settings
        text = page.teacher_html(class_name=settings.class_name, lang=settings.defaults.get("lang", "en"))
        return Response(text, media_type="text/html; charset=utf-8", headers=page.PAGE_HEADERS)

    async def static(self, request: Request) -> Response:
        found = page.static_file(request.path_params["name"])
        if found is None:
            raise refused(404, "no such file")
        data, media_type = found
        return Response(data, media_type=media_type, headers={"Cache-Control": "max-age=3600"})

    # --- pupils ------------------------------------------------------------------------------

    async def options(self, request: Request) -> Response:
        settings = self.classroom.settings
        formats = [{"name": f.name, "description": f.description} for f in FORMATS.values()]
        return JSONResponse(
            {
                "class": settings.class_name,
                "fields": field_specs(self.lang),
                "defaults": settings.defaults,
                "locks": self.classroom.locks,
                "formats": formats,
                "class_formats": list(settings.formats),
            }
        )

    async def preview(self, request: Request) -> Response:
        design = await self._design(request)
        self._limit(request)
        design.setdefault("seed", new_seed())
        key, found = await self._preview_of(design)
        return JSONResponse(
            {
                "seed": design["seed"],
                "svg": found["svg"],
                "report": found["report"],
                "summary": wording.for_page(summary_of(found["report"]), self.lang),
                "model": f"/api/model.glb?key={key}",
            }
        )

    async def model(self, request: Request) -> Response:
        key = request.query_params.get("key", "")
        found = self.cache.get(key) if len(key) == 32 else None
        if found is None:
            message = "no preview with this key (make a preview first)"
            raise refused(404, message)
        return Response(found["glb"], media_type="model/gltf-binary", headers={"Cache-Control": "max-age=3600"})

    async def pupil(self, request: Request) -> Response:
        try:
            name = checked_name(request.path_params["name"])
        except ParameterError as error:
            raise invalid(error, self.lang) from None
        key = pupil_key(name)
        store = self.classroom.store
        if request.method == "GET":
            found = store.pupil(key)
            if found is None:
                raise refused(404, f"no design saved for {name}", field="name")
            return JSONResponse({"name": found.name, "key": found.key, "design": found.design})
        design = await self._design(request)
        self._limit(request)
        design.setdefault("seed", new_seed())
        _, found_preview = await self._preview_of(design)
        summary = summary_of(found_preview["report"])
        saved = store.save_pupil(key=key, name=name, design=design, summary=summary, preview=found_preview["svg"])
        downloads = {fmt: f"/api/download/{key}.{fmt}" for fmt in FORMATS}
        summary = wording.for_page(saved.summary, self.lang)
        return JSONResponse({"name": saved.name, "key": key, "summary": summary, "downloads": downloads})

    async def pupil_preview(self, request: Request) -> Response:
        key, _, suffix = request.path_params["file"].partition(".")
        svg = self.classroom.store.preview(key) if suffix == "svg" else None
        if svg is None:
            raise refused(404, "no design saved under this name")
        return Response(svg, media_type="image/svg+xml", headers=_PICTURE_HEADERS)

    async def download(self, request: Request) -> Response:
        key, _, fmt = request.path_params["file"].partition(".")
        pupil = self.classroom.store.pupil(key)
        if fmt not in FORMATS or pupil is None:
            message = f"no such download; formats: {', '.join(FORMATS)}"
            raise refused(404, message)
        self._limit(request)
        try:
            job = self.classroom.job(pupil.design, formats=[fmt])
        except ParameterError as error:
            raise invalid(error, self.lang) from None
        data = await self._render(work.render_file, job, fmt, timeout=DOWNLOAD_TIMEOUT)
        disposition = f'attachment; filename="{pupil.key}.{fmt}"'
        return Response(data, media_type=media_type(fmt), headers={"Content-Disposition": disposition})

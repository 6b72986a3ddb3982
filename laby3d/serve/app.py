"""The class web app's HTTP side: routes, input checks, the rate limit and the teacher's token.

Starlette rather than FastAPI: a small ASGI toolkit with no pydantic of its own (FastAPI pins
pydantic versions and would validate a second time); laby3d's option fields already check every
value and name the field, through :func:`laby3d.serve.fields.job_for`.

Routes: ``/`` (pupil page), ``/teacher`` (teacher page), ``/static/…``, ``GET /api/options``,
``POST /api/preview``, ``GET /api/model.glb?key=…``, ``GET|POST /api/pupils/{name}``,
``GET /api/preview/{key}.svg`` (a saved design seen from above),
``GET /api/download/{key}.{format}``, and behind the token ``/api/teacher/pupils``,
``/api/teacher/locks``, ``/api/teacher/class.yaml``, ``/api/teacher/class.zip``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
from collections.abc import AsyncIterator, Awaitable, Callable
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
from laby3d.serve import page, work
from laby3d.serve.classroom import Classroom, PreviewCache, checked_name, job_key, pupil_key, summary_of
from laby3d.serve.fields import design_data, field_error, field_specs
from laby3d.serve.queue import Busy, RateLimit, RenderPool, RenderTimeout, WorkerLost

#: Largest request body, bytes (a design is a few hundred).
MAX_BODY = 64 * 1024
#: Seconds a preview or a download may take before it is stopped.
PREVIEW_TIMEOUT = 20.0
DOWNLOAD_TIMEOUT = 60.0
CLASS_SET_TIMEOUT = 600.0
#: Media type of each format's file.
MEDIA_TYPES = {
    "maze.json": "application/json",
    "txt": "text/plain; charset=utf-8",
    "png": "image/png",
    "pdf": "application/pdf",
    "ps": "application/postscript",
    "gif": "image/gif",
    "lesson.pdf": "application/pdf",
    "worksheet.pdf": "application/pdf",
    "key.pdf": "application/pdf",
    "stl": "model/stl",
    "3mf": "model/3mf",
    "glb": "model/gltf-binary",
    "svg": "image/svg+xml",
    "dxf": "image/vnd.dxf",
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
}
#: A saved preview is a picture only: nothing in it may run or load.
_PICTURE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "Cache-Control": "no-cache",
}
_SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}

Handler = Callable[[Request], Awaitable[Response]]


class HTTPProblem(Exception):
    """A request refused with a status and a JSON body."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body)
        self.status, self.body, self.headers = status, body, headers or {}


def _invalid(error: Laby3dError) -> HTTPProblem:
    """A 422 naming the field at fault with the CLI's message."""
    return HTTPProblem(422, {"errors": [field_error(error)]})


def _refused(status: int, message: str, headers: dict[str, str] | None = None) -> HTTPProblem:
    """A refusal that is about no field."""
    return HTTPProblem(status, {"errors": [{"field": None, "message": message}]}, headers)


async def _json_body(request: Request) -> Any:
    """The request's JSON body, at most :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise _refused(413, f"request larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise _refused(413, f"request larger than {MAX_BODY} bytes")
    try:
        return json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise _refused(400, "the request is not JSON") from None


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
        Route("/api/teacher/pupils", state.teacher_pupils),
        Route("/api/teacher/pupils/{key}", state.teacher_remove, methods=["DELETE"]),
        Route("/api/teacher/locks", state.teacher_locks, methods=["GET", "POST"]),
        Route("/api/teacher/class.yaml", state.teacher_yaml),
        Route("/api/teacher/class.zip", state.teacher_zip),
    ]
    return Starlette(routes=[_guarded(route) for route in routes], lifespan=lifespan)


def _guarded(route: Route) -> Route:
    """The route with :class:`HTTPProblem` turned into its response and security headers added."""
    endpoint: Handler = route.endpoint  # type: ignore[assignment]

    async def handle(request: Request) -> Response:
        try:
            response = await endpoint(request)
        except HTTPProblem as problem:
            response = JSONResponse(problem.body, status_code=problem.status, headers=problem.headers)
        response.headers.update(_SECURITY)
        return response

    return Route(route.path, handle, methods=list(route.methods or []) or None, name=route.name)


class _State:
    """The app's state and endpoints (one instance per app)."""

    pool: RenderPool

    def __init__(self, classroom: Classroom, rate: RateLimit) -> None:
        self.classroom = classroom
        self.rate = rate
        self.cache = PreviewCache()
        self.class_set_lock = asyncio.Lock()  # one class set at a time, in its own one-process pool

    # --- helpers -----------------------------------------------------------------------------

    def _limit(self, request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        wait = self.rate.allow(client)
        if wait > 0:
            message = f"too many renders from {client}; wait {wait:.1f} s"
            raise _refused(429, message, {"Retry-After": str(math.ceil(wait))})

    async def _render(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        try:
            return await self.pool.run(function, *args, timeout=timeout)
        except Busy as error:
            raise _refused(503, str(error), {"Retry-After": "1"}) from None
        except RenderTimeout as error:
            raise _refused(504, str(error)) from None
        except WorkerLost as error:
            raise _refused(503, str(error), {"Retry-After": "1"}) from None
        except Laby3dError as error:
            raise _invalid(error) from None
        except Exception as error:  # noqa: BLE001 - a bug in laby3d, reported as one, the server goes on
            raise _refused(500, f"internal error (a bug in laby3d): {type(error).__name__}: {error}") from None

    def _teacher(self, request: Request) -> None:
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        expected = self.classroom.token
        if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), expected.encode()):
            message = "the teacher token is required (the one laby3d serve printed at start-up)"
            raise _refused(401, message, {"WWW-Authenticate": "Bearer"})

    async def _design(self, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        try:
            return design_data(body.get("options", {}) if isinstance(body, dict) else None)
        except ParameterError as error:
            raise _invalid(error) from None

    async def _preview_of(self, design: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The preview of a design (cached by its job), with its cache key."""
        try:
            job = self.classroom.job(design)
        except ParameterError as error:
            raise _invalid(error) from None
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
            raise _refused(404, "no such file")
        data, media_type = found
        return Response(data, media_type=media_type, headers={"Cache-Control": "max-age=3600"})

    # --- pupils ------------------------------------------------------------------------------

    async def options(self, request: Request) -> Response:
        settings = self.classroom.settings
        formats = [{"name": f.name, "description": f.description} for f in FORMATS.values()]
        return JSONResponse(
            {
                "class": settings.class_name,
                "fields": field_specs(),
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
                "summary": summary_of(found["report"]),
                "model": f"/api/model.glb?key={key}",
            }
        )

    async def model(self, request: Request) -> Response:
        key = request.query_params.get("key", "")
        found = self.cache.get(key) if len(key) == 32 else None
        if found is None:
            message = "no preview with this key (make a preview first)"
            raise _refused(404, message)
        return Response(found["glb"], media_type="model/gltf-binary", headers={"Cache-Control": "max-age=3600"})

    async def pupil(self, request: Request) -> Response:
        try:
            name = checked_name(request.path_params["name"])
        except ParameterError as error:
            raise _invalid(error) from None
        key = pupil_key(name)
        store = self.classroom.store
        if request.method == "GET":
            found = store.pupil(key)
            if found is None:
                raise HTTPProblem(404, {"errors": [{"field": "name", "message": f"no design saved for {name}"}]})
            return JSONResponse({"name": found.name, "key": found.key, "design": found.design})
        design = await self._design(request)
        self._limit(request)
        design.setdefault("seed", new_seed())
        _, found_preview = await self._preview_of(design)
        summary = summary_of(found_preview["report"])
        saved = store.save_pupil(key=key, name=name, design=design, summary=summary, preview=found_preview["svg"])
        downloads = {fmt: f"/api/download/{key}.{fmt}" for fmt in FORMATS}
        return JSONResponse({"name": saved.name, "key": key, "summary": saved.summary, "downloads": downloads})

    async def pupil_preview(self, request: Request) -> Response:
        key, _, suffix = request.path_params["file"].partition(".")
        svg = self.classroom.store.preview(key) if suffix == "svg" else None
        if svg is None:
            raise _refused(404, "no design saved under this name")
        return Response(svg, media_type="image/svg+xml", headers=_PICTURE_HEADERS)

    async def download(self, request: Request) -> Response:
        key, _, fmt = request.path_params["file"].partition(".")
        pupil = self.classroom.store.pupil(key)
        if fmt not in FORMATS or pupil is None:
            message = f"no such download; formats: {', '.join(FORMATS)}"
            raise _refused(404, message)
        self._limit(request)
        try:
            job = self.classroom.job(pupil.design, formats=[fmt])
        except ParameterError as error:
            raise _invalid(error) from None
        data = await self._render(work.render_file, job, fmt, timeout=DOWNLOAD_TIMEOUT)
        disposition = f'attachment; filename="{pupil.key}.{fmt}"'
        return Response(data, media_type=MEDIA_TYPES.get(fmt), headers={"Content-Disposition": disposition})

    # --- teacher -----------------------------------------------------------------------------

    async def teacher_pupils(self, request: Request) -> Response:
        self._teacher(request)
        rows = [
            {
                "name": pupil.name,
                "key": pupil.key,
                "status": self.classroom.status(pupil),
                "summary": pupil.summary,
                "design": pupil.design,
                "updated": pupil.updated,
            }
            for pupil in self.classroom.store.pupils()
        ]
        return JSONResponse({"class": self.classroom.settings.class_name, "pupils": rows})

    async def teacher_remove(self, request: Request) -> Response:
        self._teacher(request)
        removed = self.classroom.store.delete_pupil(request.path_params["key"])
        return JSONResponse({"removed": removed}, status_code=200 if removed else 404)

    async def teacher_locks(self, request: Request) -> Response:
        self._teacher(request)
        if request.method == "POST":
            body = await _json_body(request)
            try:
                self.classroom.set_locks(body.get("locks", {}) if isinstance(body, dict) else None)
            except ParameterError as error:
                raise _invalid(error) from None
        return JSONResponse({"locks": self.classroom.locks})

    def _config(self) -> dict[str, Any]:
        from laby3d.serve.classset import class_config

        settings = self.classroom.settings
        return class_config(
            self.classroom.store.pupils(),
            class_name=settings.class_name,
            defaults=settings.defaults,
            locks=self.classroom.locks,
            formats=settings.formats,
        )

    async def teacher_yaml(self, request: Request) -> Response:
        from laby3d.serve.classset import class_yaml

        self._teacher(request)
        text = class_yaml(self._config(), class_name=self.classroom.settings.class_name)
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.yaml"'}
        return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)

    async def teacher_zip(self, request: Request) -> Response:
        from laby3d.serve.classset import class_zip

        self._teacher(request)
        config = self._config()
        if not config["jobs"]:
            raise _refused(409, "no pupil has saved a design yet")
        if self.class_set_lock.locked():
            message = "the class set is being made already; try again when it is done"
            raise _refused(503, message, {"Retry-After": "5"})
        async with self.class_set_lock:
            try:
                data, _ = await asyncio.wait_for(asyncio.to_thread(class_zip, config), CLASS_SET_TIMEOUT)
            except Laby3dError as error:
                raise _invalid(error) from None
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.zip"'}
        return Response(data, media_type="application/zip", headers=headers)

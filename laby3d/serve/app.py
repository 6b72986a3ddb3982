"""The class web app: its routes, the pages, and the pupils' API (joining, previews, their saved
design, downloads) with its rate limit per pupil; the teacher's API is :mod:`.teacher`.

Starlette rather than FastAPI: a small ASGI toolkit with no validation layer of its own (FastAPI
brings pydantic and would validate a second time); laby3d's option fields already check every
value and name the field, in the render workers (:mod:`.work`).

Routes: ``/`` (pupil page), ``/teacher`` (teacher page), ``/static/…``, ``GET /api/options``,
``GET /api/locks`` (what the pupil pages poll), ``POST /api/join``, ``GET /api/me``,
``POST /api/leave``, ``POST /api/preview``, ``GET /api/model.glb?key=…``,
``GET|POST /api/pupils/{key}`` (the pupil's own design only), ``GET /api/preview/{key}.svg``,
``GET /api/download/{key}.{format}``, ``POST /api/upload`` (an outline image), and behind the
teacher's token ``/api/teacher/…``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import InternalError, Laby3dError, ParameterError
from laby3d.export.formats import FORMATS
from laby3d.filenames import safe_name
from laby3d.i18n import Message
from laby3d.maze.generate import new_seed
from laby3d.quoting import shown_path
from laby3d.serve import page, wording, work
from laby3d.serve.classroom import Classroom, DesignRequest, PreviewCache, status_of, summary_of
from laby3d.serve.fields import design_data, field_specs
from laby3d.serve.http import HTTPProblem, allowed_hosts, guarded, invalid, json_body, not_routed, refused
from laby3d.serve.identity import COOKIE, SESSION_SECONDS, checked_name, name_key, same_secret
from laby3d.serve.queue import (
    Busy,
    RateLimit,
    RenderPool,
    RenderTimeout,
    SessionEnded,
    SessionFull,
    Superseded,
    WorkerLost,
    pupil_session,
)
from laby3d.serve.uploads import MAX_UPLOAD_BYTES, MAX_UPLOADS, OUTLINE, SHOWN_NAME, TEACHER, UPLOAD_PREFIX

#: Formats whose render takes seconds (a page or frame per step of the generation): they run on
#: the pool of expensive work, with its own queue and timeout.
EXPENSIVE_FORMATS = ("lesson.pdf", "gif")
#: Largest upload request, bytes: an image of :data:`~.uploads.MAX_UPLOAD_BYTES` in base64 and its name.
UPLOAD_BODY = MAX_UPLOAD_BYTES * 4 // 3 + 4096
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


@dataclass(frozen=True, kw_only=True)
class Budgets:
    """Seconds of its own run time each kind of work may take before its worker is stopped, and
    how many renders may wait for each pool."""

    preview: float = 20.0
    download: float = 60.0
    expensive: float = 180.0
    class_set: float = 900.0
    queue: int = 128
    expensive_queue: int = 4


@dataclass(frozen=True, kw_only=True)
class Throttles:
    """What one address may try, beyond what a class behind one school address needs: ``joins``
    (30 pupils joining within a minute is normal: bursts of 60, one a second after), wrong class
    codes or personal codes (``guesses``: bursts of 30, one every 2 s), and wrong personal codes
    per name (``pins``: 5, then one a minute)."""

    joins: RateLimit
    guesses: RateLimit
    pins: RateLimit

    @classmethod
    def for_a_class(cls) -> Throttles:
        """The throttles of ``laby3d serve``."""
        return cls(
            joins=RateLimit(per_second=1.0, burst=60),
            guesses=RateLimit(per_second=0.5, burst=30),
            pins=RateLimit(per_second=1 / 60, burst=5),
        )


def create_app(
    classroom: Classroom,
    *,
    workers: int = 2,
    rate: RateLimit | None = None,
    warm: bool = True,
    budgets: Budgets | None = None,
    throttles: Throttles | None = None,
) -> Starlette:
    """The ASGI app of one class. Previews and quick downloads run on ``workers`` processes; the
    expensive work (lesson PDF, GIF, class set) on one more, at a lower priority; both shared
    fairly between sessions; each pupil's session is limited by ``rate``, each address by
    ``throttles``."""
    from laby3d.serve.teacher import TeacherAPI

    state = _State(classroom, rate or RateLimit(), budgets or Budgets(), throttles or Throttles.for_a_class())
    teacher = TeacherAPI(state)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        budgets = state.budgets
        state.previews = RenderPool(
            name=page.strings(state.lang)["queue_previews"],
            workers=workers,
            queue=budgets.queue,
            timeout=budgets.preview,
            initializer=partial(work.start_worker, warm),
        )
        state.expensive = RenderPool(
            name=page.strings(state.lang)["queue_expensive"],
            workers=1,
            queue=budgets.expensive_queue,
            timeout=budgets.expensive,
            initializer=partial(work.start_worker, False, 10),
        )
        try:
            if warm:
                await state.previews.start(timeout=120)
            teacher.refresh_soon()  # reports made under older locks (or by an older version)
            yield
        finally:
            await teacher.stop()
            state.previews.close()
            state.expensive.close()

    routes = [
        Route("/", state.pupil_page),
        Route("/teacher", state.teacher_page),
        Route("/static/{name}", state.static),
        Route("/api/options", state.options),
        Route("/api/locks", state.locks),
        Route("/api/join", state.join, methods=["POST"]),
        Route("/api/me", state.me),
        Route("/api/leave", state.leave, methods=["POST"]),
        Route("/api/preview", state.preview, methods=["POST"]),
        Route("/api/upload", state.upload, methods=["POST"]),
        Route("/api/model.glb", state.model),
        Route("/api/preview/{file}", state.pupil_preview),
        Route("/api/pupils/{key}", state.pupil, methods=["GET", "POST"]),
        Route("/api/download/{file}", state.download),
        *teacher.routes(),
    ]
    session = Middleware(
        SessionMiddleware,
        secret_key=classroom.session_secret,
        session_cookie=COOKIE,
        max_age=SESSION_SECONDS,
        same_site="strict",
    )
    hosts = allowed_hosts(classroom.settings.address, classroom.settings.host_names)
    return Starlette(
        routes=[guarded(route, state.lang, hosts) for route in routes],
        middleware=[session],
        lifespan=lifespan,
        exception_handlers={404: not_routed(state.lang), 405: not_routed(state.lang)},
    )


class _State:
    """The app's state and the pupils' endpoints (one instance per app)."""

    previews: RenderPool
    expensive: RenderPool

    def __init__(self, classroom: Classroom, rate: RateLimit, budgets: Budgets, throttles: Throttles) -> None:
        self.classroom = classroom
        self.rate = rate
        self.budgets = budgets
        self.throttles = throttles
        self.cache = PreviewCache()
        self._previews_asked = 0
        self._drafted: dict[str, int] = {}  # pupil key -> the newest preview kept as their draft

    @property
    def lang(self) -> str:
        """The class's language: of its pages, fields, errors and figures."""
        return str(self.classroom.settings.defaults.get("lang", "en"))

    # --- helpers -----------------------------------------------------------------------------

    def pupil_key(self, request: Request) -> str | None:
        """The key of the pupil whose session the request carries, if it is still theirs."""
        session = request.session
        return self.classroom.pupil_of(session.get("pupil"), session.get("sid"))

    def _pupil(self, request: Request) -> str:
        key = self.pupil_key(request)
        if key is None:
            message = "join the class first: type your name (your session has ended or was reset)"
            raise refused(401, message, field="name")
        return key

    def is_teacher(self, request: Request) -> bool:
        """Whether the request carries the teacher's token."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and same_secret(token.strip(), self.classroom.token)

    def _own(self, request: Request, key: str) -> None:
        """Refuse (403) unless the request is the pupil ``key``'s own, or the teacher's."""
        if self.is_teacher(request):
            return
        if self._pupil(request) != key:
            raise refused(403, "this is another pupil's design: you can open only your own")

    def _limit(self, request: Request) -> None:
        session = str(request.session.get("sid") or "teacher")
        wait = self.rate.allow(session)
        if wait > 0:
            seconds = math.ceil(wait)
            message = f"too many renders at once; trying again in {seconds} s"
            raise refused(429, message, {"Retry-After": str(seconds)})

    def render_session(self, request: Request) -> str:
        """Whose turn a render of ``request`` takes on the pools: the pupil's, or the teacher's."""
        key = self.pupil_key(request)
        return pupil_session(key) if key is not None else "teacher"

    async def render(
        self,
        pool: RenderPool,
        function: Callable[..., Any],
        *args: Any,
        session: str,
        timeout: float,
        replace: bool = False,
    ) -> Any:
        """``function(*args)`` on ``pool`` in ``session``'s turn (``replace``: taking the place of
        its waiting preview); every failure becomes a refusal in words."""
        try:
            return await pool.run(function, *args, session=session, replace=replace, timeout=timeout)
        except Superseded:
            raise refused(409, Message("serve_superseded")) from None
        except SessionFull:
            raise refused(429, Message("serve_session_full", count=pool.per_session), {"Retry-After": "2"}) from None
        except SessionEnded:
            raise refused(401, "join the class first: type your name (your session has ended or was reset)") from None
        except Busy as error:
            raise refused(503, f"{error}; trying again in a moment", {"Retry-After": "2"}) from None
        except RenderTimeout as error:
            raise refused(504, f"{error}: try a smaller maze") from None
        except WorkerLost as error:
            raise refused(503, f"{error}; trying again", {"Retry-After": "1"}) from None
        except work.DesignError as error:
            raise invalid(error.parameter_error(), self.lang) from None
        except InternalError as error:  # a bug, not the pupil's design: said as one, logged for a report
            logging.getLogger("laby3d.serve").error(
                "bug in a render (%s): %s", getattr(function, "__name__", function), error
            )
            raise refused(500, Message("serve_bug")) from None
        except Laby3dError as error:
            raise invalid(error, self.lang) from None

    async def _design(self, request: Request) -> dict[str, Any]:
        body = await json_body(request)
        try:
            return design_data(body.get("options", {}) if isinstance(body, dict) else None)
        except ParameterError as error:
            raise invalid(error, self.lang) from None

    async def preview_of(self, design_request: DesignRequest, *, session: str, replace: bool = False) -> dict[str, Any]:
        """The preview of a design (cached), its key under ``"key"``, rendered in ``session``'s turn."""
        key = design_request.key()
        found = self.cache.get(key)
        if found is None:
            found = await self.render(
                self.previews,
                work.preview,
                design_request,
                session=session,
                replace=replace,
                timeout=self.budgets.preview,
            )
            found = {**found, "key": key}
            self.cache.put(key, found)
        return found

    def _name(self, key: str) -> str:
        found = self.classroom.store.pupil(key)
        if found is None:
            raise refused(401, "join the class first: type your name", field="name")
        return found.name

    def _me(self, key: str) -> dict[str, Any]:
        """What the pupil's page shows of them: name, personal code, the design to show (their
        draft: the last kept), the one they saved, and their downloads."""
        found = self.classroom.store.pupil(key)
        if found is None:
            raise refused(401, "join the class first: type your name", field="name")
        return {
            "joined": True,
            "name": found.name,
            "key": found.key,
            "pin": found.pin,
            "file": safe_name(found.name),
            "design": found.draft if found.draft is not None else found.design,
            "saved_design": found.design,
            "changed": found.changed,
            "saved": found.saved,
            "status": found.status,
            "downloads": {fmt: f"/api/download/{key}.{fmt}" for fmt in FORMATS},
        }

    # --- pages -------------------------------------------------------------------------------

    async def pupil_page(self, request: Request) -> Response:
        settings = self.classroom.settings
        text = page.pupil_html(
            class_name=settings.class_name,
            lang=settings.defaults.get("lang", "en"),
            code_required=settings.code is not None,
        )
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
        from laby3d.options.translations import format_caption

        shown = {f.name: format_caption(f.name, f.description, self.lang) for f in FORMATS.values()}
        formats = [{"name": name, "caption": caption, "description": tip} for name, (caption, tip) in shown.items()]
        return JSONResponse(
            {
                "class": settings.class_name,
                "fields": field_specs(self.lang, every_section=request.query_params.get("sections") == "all"),
                "defaults": settings.defaults,
                "locks": self.classroom.locks,
                "locks_version": self.classroom.locks_version,
                "formats": formats,
                "class_formats": list(settings.formats),
                "code_required": settings.code is not None,
            }
        )

    async def locks(self, request: Request) -> Response:
        """What the pupil pages poll: the locks and their version (from memory, no render)."""
        return JSONResponse({"locks": self.classroom.locks, "version": self.classroom.locks_version})

    async def join(self, request: Request) -> Response:
        """Join as a pupil: the class code (if any), a name by the one name rule, the pupil's
        personal code when the name is in the class already; joins and wrong codes are
        throttled per address, wrong personal codes per name too."""
        address = request.client.host if request.client else "unknown"
        self._throttled(self.throttles.joins.allow(address), "serve_join_rate")
        body = await json_body(request)
        body = body if isinstance(body, dict) else {}
        classroom, guesses = self.classroom, self.throttles.guesses
        try:
            if classroom.settings.code is not None:
                self._throttled(guesses.wait(address), "serve_guess_rate")
                try:
                    classroom.check_code(body.get("code"))
                except ParameterError:
                    guesses.allow(address)
                    raise
            given = body.get("name")
            name = checked_name(given if isinstance(given, str) else "")
            pin = body.get("pin")
            key = name_key(name)
            if pin not in (None, ""):
                self._throttled(max(guesses.wait(address), self.throttles.pins.wait(key)), "serve_guess_rate")
            try:
                classroom.check_free(name, pin)
            except ParameterError:
                if pin not in (None, ""):
                    guesses.allow(address)
                    self.throttles.pins.allow(key)
                raise
        except ParameterError as error:  # said next to the name or the code, without the field's path
            raise refused(422, error.detail, field=error.field) from None
        design_request = classroom.request({}, name)
        session = f"joining {key}"  # each name its own turn: a class joins at once from one address
        problem = await self.render(
            self.previews, work.check, design_request, session=session, timeout=self.budgets.preview
        )
        if problem is not None and problem[0] == "label":  # the name cannot be engraved
            raise refused(422, Message("serve_engraving", problem_list=problem[1]), field="name")
        try:
            key, sid = classroom.join(name, pin)
        except ParameterError as error:  # taken meanwhile
            raise refused(422, error.detail, field=error.field) from None
        request.session.clear()
        request.session.update({"pupil": key, "sid": sid})
        return JSONResponse(self._me(key))

    def _throttled(self, wait: float, kind: str) -> None:
        """Refuse (429, with when to try again) when an address or a name must wait."""
        if wait > 0:
            seconds = math.ceil(wait)
            raise refused(429, Message(kind, seconds=seconds), {"Retry-After": str(seconds)})

    async def me(self, request: Request) -> Response:
        """Who the session is: the pupil and their design, or ``{"joined": false}``."""
        key = self.pupil_key(request)
        return JSONResponse(self._me(key) if key is not None else {"joined": False})

    async def leave(self, request: Request) -> Response:
        key = self.pupil_key(request)
        if key is not None:
            self.classroom.release(key)
        request.session.clear()
        return JSONResponse({"left": key is not None})

    async def preview(self, request: Request) -> Response:
        """The preview of the pupil's design; a valid one is kept as their draft (autosave)."""
        key = self._pupil(request)
        design = await self._design(request)
        self._limit(request)
        design.setdefault("seed", new_seed())
        design_request = self.classroom.request(design, self._name(key), owner=key)
        self._previews_asked += 1
        asked = self._previews_asked
        found = await self.preview_of(design_request, session=pupil_session(key), replace=True)
        if asked > self._drafted.get(key, 0):  # an older preview coming back late is not the draft
            self._drafted[key] = asked
            self._keep(key, design, found, saved=False)
        summary = summary_of(found["report"])
        return JSONResponse(
            {
                "seed": design["seed"],
                "svg": found["svg"],
                "report": found["report"],
                "summary": wording.for_page(summary, self.lang),
                "model": f"/api/model.glb?key={found['key']}" if found["glb"] else None,
                "kept": True,
            }
        )

    async def upload(self, request: Request) -> Response:
        """An outline image, ``{"name": file name, "data": its bytes in base64}``, from a pupil (or
        the teacher's token): checked on a worker as an outline (:func:`.uploads.checked_upload`),
        stored under its digest as theirs; the answer is the reference a design takes
        (``{"outline": "upload:….png"}``)."""
        owner = TEACHER if self.is_teacher(request) else self._pupil(request)
        try:
            body = await json_body(request, limit=UPLOAD_BODY)
        except HTTPProblem as problem:
            if problem.status != 413:
                raise
            limit = MAX_UPLOAD_BYTES / 1e6
            raise refused(413, Message("serve_upload_request_too_big", limit=limit), field=OUTLINE) from None
        body = body if isinstance(body, dict) else {}
        name, text, data = body.get("name"), body.get("data"), None
        try:
            data = base64.b64decode(text, validate=True) if isinstance(text, str) else None
        except ValueError:
            pass
        if not isinstance(name, str) or len(name) > 1000 or data is None:
            raise refused(400, Message("serve_upload_data"), field=OUTLINE)
        store = self.classroom.store
        if owner != TEACHER and await asyncio.to_thread(store.upload_count, owner) >= MAX_UPLOADS:
            raise refused(422, Message("serve_upload_count", count=MAX_UPLOADS), field=OUTLINE)
        self._limit(request)
        session = self.render_session(request)
        stored = await self.render(
            self.previews, work.check_upload, data, name, session=session, timeout=self.budgets.preview
        )
        original = shown_path(Path(name).name, SHOWN_NAME)
        try:
            await asyncio.to_thread(store.save_upload, owner=owner, name=stored, data=data, original=original)
        except OSError as error:
            logging.getLogger("laby3d.serve").error("an upload could not be stored: %s", error)
            raise refused(507, Message("serve_upload_disk"), field=OUTLINE) from None
        return JSONResponse({"outline": f"{UPLOAD_PREFIX}{stored}", "name": original})

    def _keep(self, key: str, design: dict[str, Any], found: dict[str, Any], *, saved: bool) -> None:
        """Store a pupil's design with its preview's report: saved, or as their draft."""
        self.classroom.store.save_design(
            key=key,
            design=design,
            report=found["report"],
            status=status_of(found["report"]),
            version=self.classroom.locks_version,
            preview=found["svg"],
            saved=saved,
        )

    async def model(self, request: Request) -> Response:
        self._pupil(request)
        key = request.query_params.get("key", "")
        found = self.cache.get(key) if len(key) == 32 else None
        if found is None:
            raise refused(404, "no preview with this key (make a preview first)")
        return Response(found["glb"], media_type="model/gltf-binary", headers={"Cache-Control": "max-age=3600"})

    async def pupil(self, request: Request) -> Response:
        key = request.path_params["key"]
        self._own(request, key)
        if request.method == "GET":
            return JSONResponse(self._me(key))
        design = await self._design(request)
        self._limit(request)
        design.setdefault("seed", new_seed())
        design_request = self.classroom.request(design, self._name(key), owner=key)
        found = await self.preview_of(design_request, session=pupil_session(key))
        self._keep(key, design, found, saved=True)
        return JSONResponse({**self._me(key), "summary": wording.for_page(summary_of(found["report"]), self.lang)})

    async def pupil_preview(self, request: Request) -> Response:
        key, _, suffix = request.path_params["file"].partition(".")
        self._own(request, key)
        svg = self.classroom.store.preview(key) if suffix == "svg" else None
        if svg is None:
            raise refused(404, "no design saved under this name")
        return Response(svg, media_type="image/svg+xml", headers=_PICTURE_HEADERS)

    async def download(self, request: Request) -> Response:
        key, _, fmt = request.path_params["file"].partition(".")
        self._own(request, key)
        pupil = self.classroom.store.pupil(key)
        if fmt not in FORMATS or pupil is None or pupil.kept is None:
            message = f"no such download; formats: {', '.join(FORMATS)}"
            raise refused(404, message)
        self._limit(request)
        design_request = self.classroom.request(pupil.kept, pupil.name, owner=key)
        if fmt in EXPENSIVE_FORMATS:
            pool, timeout = self.expensive, self.budgets.expensive
        else:
            pool, timeout = self.previews, self.budgets.download
        session = self.render_session(request)
        data = await self.render(pool, work.render_file, design_request, fmt, session=session, timeout=timeout)
        disposition = f'attachment; filename="{safe_name(pupil.name)}.{fmt}"'
        return Response(data, media_type=media_type(fmt), headers={"Content-Disposition": disposition})


async def cancelled(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` and wait for it to end."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, HTTPProblem):
        await task

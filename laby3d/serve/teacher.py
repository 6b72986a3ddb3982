"""The teacher's API, behind the token printed at start-up (compared in constant time): the
class list with status, estimates, totals, each pupil's personal code, last change and last
save, and who is rendering; the class code and its QR code, ending a pupil's session (their
waiting renders dropped), locks, and the class set as YAML and as a ZIP.

The class list never renders nor checks a design: each pupil's printability report and status
are computed once per change of their design or of the locks (in the render workers) and kept
with the design in SQLite; the list reads them in a thread, so the event loop stays free for the
pupils. Totals are those ``laby3d batch`` prints for the class set (the same function, over the
same reports: the locks applied, each pupil's name engraved).
"""

from __future__ import annotations

import asyncio
import io
from functools import partial
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import ParameterError
from laby3d.i18n import in_language
from laby3d.serve import classset, wording, work
from laby3d.serve.classroom import status_of, summary_of
from laby3d.serve.fields import field_error
from laby3d.serve.http import HTTPProblem, invalid, json_body, refused
from laby3d.serve.queue import RenderPool, pupil_session

if TYPE_CHECKING:
    from laby3d.serve.app import _State


class TeacherAPI:
    """``/api/teacher/…`` of one class, and the background work that keeps reports current."""

    def __init__(self, state: _State) -> None:
        self.state = state
        self.classroom = state.classroom
        self._refresh: asyncio.Task[None] | None = None

    def routes(self) -> list[Route]:
        """The teacher's routes."""
        return [
            Route("/api/teacher/pupils", self.pupils),
            Route("/api/teacher/pupils/{key}", self.remove, methods=["DELETE"]),
            Route("/api/teacher/pupils/{key}/reset", self.reset, methods=["POST"]),
            Route("/api/teacher/locks", self.locks, methods=["GET", "POST"]),
            Route("/api/teacher/qr.svg", self.qr_code),
            Route("/api/teacher/class.yaml", self.class_yaml),
            Route("/api/teacher/class.zip", self.class_zip),
        ]

    @property
    def lang(self) -> str:
        """The class's language: of its errors and figures."""
        return self.state.lang

    def _check_token(self, request: Request) -> None:
        if not self.state.is_teacher(request):
            message = "the teacher token is required (the one laby3d serve printed at start-up)"
            raise refused(401, message, {"WWW-Authenticate": "Bearer"})

    # --- the class list --------------------------------------------------------------------------

    async def pupils(self, request: Request) -> Response:
        self._check_token(request)
        return JSONResponse(await asyncio.to_thread(self.class_list))

    def class_list(self) -> dict[str, Any]:
        """Every pupil with status and estimates, the totals, the class code and locks (reads the
        store only: run it in a thread)."""
        classroom = self.classroom
        version = classroom.locks_version
        rows, entries, summaries = [], [], []
        held = set(classroom.store.sessions())
        renders = {pool: self.state_pool(pool).activity() for pool in ("previews", "expensive")}
        for pupil in classroom.store.pupils():
            fresh = pupil.kept is not None and pupil.version == version
            status = pupil.status if fresh else ("updating…" if pupil.kept is not None else "joined")
            session = pupil_session(pupil.key)
            activity = [found[session] for found in renders.values() if session in found]
            rows.append(
                {
                    "name": pupil.name,
                    "key": pupil.key,
                    "pin": pupil.pin,
                    "status": status,
                    "status_text": wording.status_text(status or "", self.lang),
                    "summary": wording.for_page(summary_of(pupil.report), self.lang) if pupil.report else None,
                    "design": pupil.kept,
                    "draft": pupil.drafted,
                    "updated": pupil.updated,
                    "changed": pupil.changed,
                    "saved": pupil.saved,
                    "connected": pupil.key in held,
                    "renders": {kind: sum(a[kind] for a in activity) for kind in ("running", "waiting", "recent")},
                }
            )
            if fresh and pupil.report is not None:
                summaries.append(summary_of(pupil.report))
                entries.append({"printability": pupil.report} if classset.needs_solid(classroom.settings) else {})
        from laby3d.batch import totals

        settings = classroom.settings
        return {
            "class": settings.class_name,
            "code": settings.code,
            "address": settings.address,
            "pupils": rows,
            "totals": totals(entries, []),
            "totals_text": wording.totals_text(summaries, self.lang),
            "updating": sum(1 for row in rows if row["status"] == "updating…"),
            "locks": classroom.locks,
        }

    def state_pool(self, name: str) -> RenderPool:
        """The app's pool ``previews`` or ``expensive``."""
        return self.state.previews if name == "previews" else self.state.expensive

    def _end_renders(self, key: str) -> None:
        for name in ("previews", "expensive"):
            self.state_pool(name).drop(pupil_session(key))

    async def remove(self, request: Request) -> Response:
        """Remove a pupil, their design and their waiting renders."""
        self._check_token(request)
        key = request.path_params["key"]
        removed = self.classroom.remove(key)
        self._end_renders(key)
        return JSONResponse({"removed": removed}, status_code=200 if removed else 404)

    async def reset(self, request: Request) -> Response:
        """End a pupil's session (e.g. a session that renders without a pause, or a pupil who moved
        to another computer): their browser's cookie is worth nothing and their waiting renders
        are dropped; their name, code and design stay."""
        self._check_token(request)
        key = request.path_params["key"]
        if self.classroom.store.pupil(key) is None:
            raise refused(404, "no such pupil")
        self.classroom.release(key)
        self._end_renders(key)
        return JSONResponse({"reset": key})

    async def qr_code(self, request: Request) -> Response:
        """The pupils' address (with the class code, if any) as a QR code to show the class."""
        self._check_token(request)
        import segno

        settings = self.classroom.settings
        address = settings.address or str(request.base_url)
        if settings.code:
            address += f"#code={settings.code}"
        picture = io.BytesIO()  # a standalone SVG file (with its namespace), as an <img> needs
        segno.make(address, error="m").save(picture, kind="svg", scale=6, title=address, xmldecl=False)
        return Response(picture.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    # --- locks -------------------------------------------------------------------------------------

    async def locks(self, request: Request) -> Response:
        """GET: the locks. POST ``{"locks": {...}, "confirm": bool}``: the new locks are checked
        with the class defaults, then against every pupil's design; when some would become invalid
        and ``confirm`` is not true, nothing changes and the answer (409) names them."""
        self._check_token(request)
        if request.method == "GET":
            return JSONResponse({"locks": self.classroom.locks, "version": self.classroom.locks_version})
        body = await json_body(request)
        body = body if isinstance(body, dict) else {}
        try:
            locks = self.classroom.checked_locks(body.get("locks", {}))
        except ParameterError as error:
            raise invalid(error, self.lang) from None
        state, classroom = self.state, self.classroom
        alone = await state.render(
            state.previews, work.check, classroom.request({}, None, locks=locks), session="teacher", timeout=60
        )
        if alone is not None:
            raise invalid(ParameterError(alone[1], field=alone[0]), self.lang)
        pupils = [p for p in await asyncio.to_thread(classroom.store.pupils) if p.kept is not None]
        requests = {p.key: classroom.request(p.kept or {}, p.name, owner=p.key, locks=locks) for p in pupils}
        problems = await state.render(state.previews, work.check_all, requests, session="teacher", timeout=120)
        names = {p.key: p.name for p in pupils}
        broken = [
            {"name": names[key], "key": key, "error": self._said(ParameterError(problem[1], field=problem[0]))}
            for key, problem in problems.items()
            if problem is not None
        ]
        if broken and body.get("confirm") is not True:
            listed = "; ".join(f"{row['name']}: {row['error']}" for row in broken)
            message = f"this lock would make {len(broken)} pupil(s)' design invalid ({listed}); confirm to lock anyway"
            errors = [{"field": None, "message": in_language(message, self.lang)}]
            return JSONResponse({"errors": errors, "invalid": broken}, status_code=409)
        classroom.set_locks(locks)
        self.refresh_soon()
        return JSONResponse({"locks": classroom.locks, "version": classroom.locks_version, "invalid": broken})

    def _said(self, error: ParameterError) -> str:
        """``error`` as the teacher reads it: the dotted path and the CLI's words in English, the
        field's label and French words in a French class."""
        return field_error(error, self.lang)["message"] if self.lang == "fr" else str(error)

    def refresh_soon(self) -> None:
        """Compute again, in the background, the reports made under older locks."""
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.get_running_loop().create_task(self._refresh_reports())

    async def _refresh_reports(self) -> None:
        """One pupil at a time on the preview workers, so pupils' previews interleave."""
        state, classroom = self.state, self.classroom
        while True:
            stale = await asyncio.to_thread(classroom.stale)
            if not stale:
                return
            for pupil in stale:
                version, design = classroom.locks_version, pupil.kept or {}
                design_request = classroom.request(design, pupil.name, owner=pupil.key)
                try:
                    found = await state.preview_of(design_request, session="refresh")
                except HTTPProblem as problem:
                    if problem.status != 422:
                        await asyncio.sleep(1)  # busy or a lost worker: try again in the next round
                        continue
                    message = problem.body["errors"][0]["message"]
                    classroom.store.set_status(
                        key=pupil.key, design=design, report=None, status=f"invalid: {message}", version=version
                    )
                    continue
                report = found["report"]
                status = status_of(report)
                classroom.store.set_status(
                    key=pupil.key, design=design, report=report, status=status, version=version, preview=found["svg"]
                )

    async def stop(self) -> None:
        """Stop the background work (the server is stopping)."""
        from laby3d.serve.app import cancelled

        await cancelled(self._refresh)

    # --- the class set -----------------------------------------------------------------------------

    async def _class_set(self) -> classset.ClassSet:
        """The class set, its jobs checked on a worker."""
        state, classroom = self.state, self.classroom
        pupils = await asyncio.to_thread(classroom.store.pupils)
        locks = classroom.locks

        def every_file() -> dict[str, dict[str, str]]:  # reads and hashes the stored uploads: in a thread
            return {p.key: classroom.files(p.kept or {}, p.key, locks) for p in pupils}

        files = await asyncio.to_thread(every_file)
        return await state.render(  # type: ignore[no-any-return]
            state.previews,
            partial(classset.class_set, settings=classroom.settings, locks=locks, files=files),
            pupils,
            session="teacher",
            timeout=120,
        )

    async def class_yaml(self, request: Request) -> Response:
        self._check_token(request)
        text = classset.class_yaml(await self._class_set())
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.yaml"'}
        return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)

    async def class_zip(self, request: Request) -> Response:
        """Every valid pupil's files, the class booklet and key, and a note naming the pupils
        left out with their error; made on the expensive-work pool with its own budget."""
        self._check_token(request)
        found = await self._class_set()
        if not found.jobs:
            left_out = "; ".join(f"{name}: {error}" for name, error in found.left_out)
            raise refused(409, "no pupil has a valid saved design yet" + (f" ({left_out})" if left_out else ""))
        state = self.state
        data = await state.render(
            state.expensive, classset.class_zip, found, session="teacher", timeout=state.budgets.class_set
        )
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.zip"'}
        if found.left_out:
            headers["X-Laby3d-Left-Out"] = str(len(found.left_out))
        return Response(data, media_type="application/zip", headers=headers)

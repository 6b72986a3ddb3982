"""The teacher's API, behind the token printed at start-up (compared in constant time): the
class list with status and estimates, locks, and the class set as YAML and as a ZIP."""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import Laby3dError, ParameterError
from laby3d.serve import classset, wording
from laby3d.serve.classroom import Classroom
from laby3d.serve.http import invalid, json_body, refused

#: Seconds the class set may take before it is given up.
CLASS_SET_TIMEOUT = 600.0


class TeacherAPI:
    """``/api/teacher/…`` of one class."""

    def __init__(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.class_set_lock = asyncio.Lock()  # one class set at a time, in its own one-process pool

    @property
    def lang(self) -> str:
        """The class's language: of its errors and figures."""
        return str(self.classroom.settings.defaults.get("lang", "en"))

    def routes(self) -> list[Route]:
        """The teacher's routes."""
        return [
            Route("/api/teacher/pupils", self.pupils),
            Route("/api/teacher/pupils/{key}", self.remove, methods=["DELETE"]),
            Route("/api/teacher/locks", self.locks, methods=["GET", "POST"]),
            Route("/api/teacher/class.yaml", self.class_yaml),
            Route("/api/teacher/class.zip", self.class_zip),
        ]

    def _check_token(self, request: Request) -> None:
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        expected = self.classroom.token
        if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), expected.encode()):
            message = "the teacher token is required (the one laby3d serve printed at start-up)"
            raise refused(401, message, {"WWW-Authenticate": "Bearer"})

    async def pupils(self, request: Request) -> Response:
        self._check_token(request)
        pupils = self.classroom.store.pupils()
        rows = [
            {
                "name": pupil.name,
                "key": pupil.key,
                "status": self.classroom.status(pupil),
                "summary": wording.for_page(pupil.summary, self.lang),
                "design": pupil.design,
                "updated": pupil.updated,
            }
            for pupil in pupils
        ]
        totals = wording.totals_text([pupil.summary for pupil in pupils], self.lang)
        return JSONResponse({"class": self.classroom.settings.class_name, "pupils": rows, "totals": totals})

    async def remove(self, request: Request) -> Response:
        self._check_token(request)
        removed = self.classroom.store.delete_pupil(request.path_params["key"])
        return JSONResponse({"removed": removed}, status_code=200 if removed else 404)

    async def locks(self, request: Request) -> Response:
        self._check_token(request)
        if request.method == "POST":
            body = await json_body(request)
            try:
                self.classroom.set_locks(body.get("locks", {}) if isinstance(body, dict) else None)
            except ParameterError as error:
                raise invalid(error, self.lang) from None
        return JSONResponse({"locks": self.classroom.locks})

    def _config(self) -> dict[str, Any]:
        settings = self.classroom.settings
        return classset.class_config(
            self.classroom.store.pupils(),
            class_name=settings.class_name,
            defaults=settings.defaults,
            locks=self.classroom.locks,
            formats=settings.formats,
        )

    async def class_yaml(self, request: Request) -> Response:
        self._check_token(request)
        text = classset.class_yaml(self._config(), class_name=self.classroom.settings.class_name)
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.yaml"'}
        return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)

    async def class_zip(self, request: Request) -> Response:
        self._check_token(request)
        config = self._config()
        if not config["jobs"]:
            raise refused(409, "no pupil has saved a design yet")
        if self.class_set_lock.locked():
            message = "the class set is being made already; try again when it is done"
            raise refused(503, message, {"Retry-After": "5"})
        async with self.class_set_lock:
            try:
                data, _ = await asyncio.wait_for(asyncio.to_thread(classset.class_zip, config), CLASS_SET_TIMEOUT)
            except Laby3dError as error:
                raise invalid(error, self.lang) from None
        name = self.classroom.store.path.parent.name
        headers = {"Content-Disposition": f'attachment; filename="{name}.zip"'}
        return Response(data, media_type="application/zip", headers=headers)

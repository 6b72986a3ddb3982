"""HTTP plumbing of the class app: refusals as JSON (``{"errors": [{"field", "message"}]}``),
request bodies of bounded size, and the security headers every answer carries."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import Laby3dError
from laby3d.serve.fields import field_error

#: Largest request body, bytes (a design is a few hundred).
MAX_BODY = 64 * 1024
#: Headers of every answer.
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}

Handler = Callable[[Request], Awaitable[Response]]


class HTTPProblem(Exception):
    """A request refused with a status and a JSON body."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body)
        self.status, self.body, self.headers = status, body, headers or {}


def invalid(error: Laby3dError, lang: str = "en") -> HTTPProblem:
    """A 422 naming the field at fault with the CLI's message (in ``lang``)."""
    return HTTPProblem(422, {"errors": [field_error(error, lang)]})


def refused(
    status: int, message: str, headers: dict[str, str] | None = None, *, field: str | None = None
) -> HTTPProblem:
    """A refusal with ``status``, about ``field`` if given."""
    return HTTPProblem(status, {"errors": [{"field": field, "message": message}]}, headers)


async def json_body(request: Request) -> Any:
    """The request's JSON body, at most :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise refused(413, f"request larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise refused(413, f"request larger than {MAX_BODY} bytes")
    try:
        return json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise refused(400, "the request is not JSON") from None


def guarded(route: Route) -> Route:
    """The route with :class:`HTTPProblem` turned into its response and security headers added."""
    endpoint: Handler = route.endpoint  # type: ignore[assignment]

    async def handle(request: Request) -> Response:
        try:
            response = await endpoint(request)
        except HTTPProblem as problem:
            response = JSONResponse(problem.body, status_code=problem.status, headers=problem.headers)
        response.headers.update(SECURITY_HEADERS)
        return response

    return Route(route.path, handle, methods=list(route.methods or []) or None, name=route.name)

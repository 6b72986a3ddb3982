"""HTTP plumbing of the class app: refusals as JSON (``{"errors": [{"field", "message"}]}``),
every failure included; request bodies of bounded size and depth; the same-origin rule for
writes; and the security headers every answer carries.

Writes (any method but GET and HEAD) must come from the app's own pages: the body is declared
``application/json`` (a form on another site, or a ``no-cors`` fetch, can only send text/plain,
url-encoded or multipart bodies) and the browser says the request is same-origin
(``Sec-Fetch-Site: same-origin``, or an ``Origin`` equal to this server's). Anything else is
refused with 403 before the endpoint runs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laby3d.errors import Laby3dError
from laby3d.i18n import in_language
from laby3d.serve.fields import field_error

#: Largest request body, bytes (a design is a few hundred).
MAX_BODY = 64 * 1024
#: Deepest nesting of a request body (a design is two levels deep).
MAX_DEPTH = 8
#: Methods that change nothing (the others must pass :func:`check_same_origin`).
SAFE_METHODS = ("GET", "HEAD")
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
    too_deep = refused(400, f"the request is nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise refused(400, "the request is not JSON") from None
    except RecursionError:  # nested past the parser's own limit
        raise too_deep from None
    if depth(data) > MAX_DEPTH:
        raise too_deep
    return data


def depth(data: Any) -> int:
    """How deeply lists and mappings nest in ``data`` (a scalar is 0), without recursion."""
    deepest, pending = 0, [(data, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                pending += [(child, level + 1) for child in item]
    return deepest


def check_same_origin(request: Request) -> None:
    """Refuse (403) a write that is not a JSON request from this server's own pages."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise refused(403, "writes must be JSON requests (Content-Type: application/json) from this server's pages")
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if site is not None and site != "same-origin":
        raise refused(403, f"writes must come from this server's pages, not another site (Sec-Fetch-Site: {site})")
    if origin is not None and origin != own:
        raise refused(403, "writes must come from this server's pages, not another site (Origin differs)")
    if site is None and origin is None:
        raise refused(403, "writes must come from this server's pages (the request has no Origin)")


def said_in(problem: HTTPProblem, lang: str) -> dict[str, Any]:
    """``problem``'s body with its messages in ``lang`` (the server's refusals are English
    sentences of :mod:`laby3d.i18n`'s catalogue; the field errors are in ``lang`` already)."""
    errors = [{**error, "message": in_language(error["message"], lang)} for error in problem.body.get("errors", [])]
    return {**problem.body, "errors": errors} if errors else problem.body


def guarded(route: Route, lang: str = "en") -> Route:
    """The route with :class:`HTTPProblem` turned into its response (its words in ``lang``) and
    security headers added."""
    endpoint: Handler = route.endpoint  # type: ignore[assignment]

    async def handle(request: Request) -> Response:
        try:
            if request.method not in SAFE_METHODS:
                check_same_origin(request)
            response = await endpoint(request)
        except HTTPProblem as problem:
            response = JSONResponse(said_in(problem, lang), status_code=problem.status, headers=problem.headers)
        except Exception as error:  # noqa: BLE001 - a bug in laby3d, said as one in JSON; the server goes on
            logging.getLogger("laby3d.serve").exception("internal error on %s %s", request.method, request.url.path)
            message = f"internal error (a bug in laby3d): {type(error).__name__}: {error}"
            response = JSONResponse({"errors": [{"field": None, "message": message[:300]}]}, status_code=500)
        response.headers.update(SECURITY_HEADERS)
        return response

    return Route(route.path, handle, methods=list(route.methods or []) or None, name=route.name)

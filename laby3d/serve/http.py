"""HTTP plumbing of the class app: refusals as JSON (``{"errors": [{"field", "message"}]}``),
every failure included; request bodies of bounded size and depth; the same-origin rule for
writes; and the security headers every answer carries.

Writes (any method but GET and HEAD) must come from the app's own pages: the body is declared
``application/json`` (a form on another site, or a ``no-cors`` fetch, can only send text/plain,
url-encoded or multipart bodies) and the browser says the request is same-origin
(``Sec-Fetch-Site: same-origin``, or an ``Origin`` equal to this server's). Anything else is
refused with 403 before the endpoint runs.

Every request must name this server in its ``Host`` header (:func:`check_host`): the address the
connection reached, localhost, the address ``laby3d serve`` printed, or a name given with
``--host-name``. A page on another site that has its own name resolve to this server's address
(DNS rebinding) sends its own name, and is refused with 400 before anything runs.

A client that goes away mid-request is no bug: it is logged as such, quietly, and nothing is
answered (there is no one to answer).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from laby3d.errors import Laby3dError
from laby3d.i18n import Message, in_language
from laby3d.serve.fields import field_error

#: Largest request body, bytes (a design is a few hundred).
MAX_BODY = 64 * 1024
#: Deepest nesting of a request body (a design is two levels deep).
MAX_DEPTH = 8
#: Methods that change nothing (the others must pass :func:`check_same_origin`).
SAFE_METHODS = ("GET", "HEAD")
#: Host names every server answers to (besides the address each connection reached).
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
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


async def json_body(request: Request, *, limit: int = MAX_BODY) -> Any:
    """The request's JSON body, at most ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise refused(413, f"request larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise refused(413, f"request larger than {limit} bytes")
    body = b"".join(chunks)
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


def host_name(value: str) -> str:
    """The host of a ``Host`` header or an address, without port, brackets, case or final dot
    (``[::1]:8000`` → ``::1``, ``Labo.Lycee.fr.:80`` → ``labo.lycee.fr``)."""
    value = value.strip().lower()
    if value.startswith("["):
        value = value[1:].partition("]")[0]
    elif value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def allowed_hosts(address: str | None, names: Iterable[str] = ()) -> frozenset[str]:
    """The host names a class server answers to: localhost, the host of the pupils' address as
    printed (``http://192.168.1.20:8000/``) and ``names`` (``--host-name``)."""
    printed = host_name(address.split("//", 1)[-1].split("/", 1)[0]) if address else None
    return LOCAL_HOSTS | {host_name(name) for name in names} | ({printed} if printed else set())


def check_host(request: Request, allowed: frozenset[str]) -> None:
    """Refuse (400) a request whose ``Host`` names neither this server's address (the one the
    connection reached) nor an allowed name: a DNS rebinding page names its own site."""
    given = request.headers.get("host", "")
    host = host_name(given)
    server = request.scope.get("server")
    reached = host_name(str(server[0])) if server else None
    if host in allowed or host == reached:
        return
    listed = ", ".join(sorted(allowed - {"::1"}, key=lambda name: (_is_address(name), name)))
    raise refused(400, Message("serve_host", host=given[:80] or "(none)", allowed=listed))


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def not_routed(lang: str) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The answer to a path no route has, or a method it does not take (404, 405), in ``lang``."""

    async def handler(request: Request, error: Exception) -> Response:
        status = error.status_code if isinstance(error, HTTPException) else 404
        path = request.url.path[:120]
        message = Message("serve_method", method=request.method, path=path) if status == 405 else None
        problem = refused(status, message or Message("serve_not_found", path=path))
        response = JSONResponse(said_in(problem, lang), status_code=status)
        response.headers.update(SECURITY_HEADERS)
        return response

    return handler


def guarded(route: Route, lang: str = "en", hosts: frozenset[str] = LOCAL_HOSTS) -> Route:
    """The route with the ``Host`` checked, :class:`HTTPProblem` turned into its response (its
    words in ``lang``) and security headers added."""
    endpoint: Handler = route.endpoint  # type: ignore[assignment]
    log = logging.getLogger("laby3d.serve")

    async def handle(request: Request) -> Response:
        try:
            check_host(request, hosts)
            if request.method not in SAFE_METHODS:
                check_same_origin(request)
            response = await endpoint(request)
        except HTTPProblem as problem:
            response = _problem_response(problem, lang, request)
        except ClientDisconnect:  # the pupil closed the page or lost the network mid-request: no one to answer
            log.info("client went away during %s %s", request.method, request.url.path)
            return Response(status_code=400)
        except asyncio.CancelledError:
            cancelling = getattr(asyncio.current_task(), "cancelling", None)  # Python 3.11+
            if cancelling is None or cancelling():  # this request is being cancelled (the server stops)
                raise
            # a future it awaited was cancelled under it: answer rather than leave the request hanging
            log.warning("render cancelled under %s %s", request.method, request.url.path)
            lost = refused(503, "the render was cancelled (the server is stopping); trying again", {"Retry-After": "1"})
            response = _problem_response(lost, lang, request)
        except Exception as error:  # noqa: BLE001 - a bug in laby3d, said as one in JSON; the server goes on
            log.exception("internal error on %s %s", request.method, request.url.path)
            message = f"internal error (a bug in laby3d): {type(error).__name__}: {error}"
            response = _problem_response(refused(500, message[:300]), lang, request)
        response.headers.update(SECURITY_HEADERS)
        return response

    return Route(route.path, handle, methods=list(route.methods or []) or None, name=route.name)


def _problem_response(problem: HTTPProblem, lang: str, request: Request) -> Response:
    """A refusal as JSON, or as plain text for a page or a static file (a person reads it)."""
    body = said_in(problem, lang)
    if request.url.path.startswith("/api/"):
        return JSONResponse(body, status_code=problem.status, headers=problem.headers)
    text = "\n".join(error["message"] for error in body.get("errors", []))
    return PlainTextResponse(text, status_code=problem.status, headers=problem.headers)

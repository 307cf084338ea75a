"""The generic form routes every site gets: ``POST /submit/<route>`` and the page after it.

A post is validated with the site's ``forms[route]`` rule; an accepted one is stored
as a ``Submission`` and answered 303 to ``/submitted/<route>/<id>`` (JSON callers get
JSON), a rejected one re-shows the form's errors with 422, like a real site.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, Submission, world_of


def _wants_json(request: Request) -> bool:
    ctype = request.headers.get("content-type", "")
    accept = request.headers.get("accept", "")
    return ctype.startswith("application/json") or (
        "application/json" in accept and "text/html" not in accept
    )


async def posted_fields(
    request: Request,
) -> tuple[dict[str, list[str]], dict[str, list[dict[str, Any]]]]:
    """Fields and uploaded-file facts of a form or JSON post."""
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = json.loads(await request.body() or b"null")
        except (ValueError, RecursionError):  # malformed, or nested past the parser's depth
            return {}, {}
        if not isinstance(body, dict):
            return {}, {}
        fields: dict[str, list[str]] = {}
        for key, value in body.items():
            values = value if isinstance(value, list) else [value]
            fields[str(key)] = [v if isinstance(v, str) else json.dumps(v) for v in values]
        return fields, {}
    form = await request.form()
    out: dict[str, list[str]] = {}
    files: dict[str, list[dict[str, Any]]] = {}
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            data = await value.read()
            import hashlib

            files.setdefault(key, []).append(
                {
                    "filename": value.filename or "",
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
        else:
            out.setdefault(key, []).append(value)
    return out, files


async def submit(request: Request) -> Response:
    """POST /submit/<route>: validate, store, then 303 to the result page."""
    site: Site = request.scope["proctor.site"]
    route = request.path_params["route"]
    rule = site.forms.get(route)
    as_json = _wants_json(request)
    if rule is None:
        message = f"There is no form called {route!r} on this site."
        if as_json:
            return JSONResponse({"ok": False, "errors": [message]}, status_code=404)
        return render("_shared/error.html", 404, title="Not found", messages=[message], back="/")
    fields, files = await posted_fields(request)
    messages = rule(fields)
    if messages:
        if as_json:
            return JSONResponse({"ok": False, "errors": messages}, status_code=422)
        back = request.headers.get("referer", "/")
        return render(
            "_shared/error.html", 422, title="Please correct the form", messages=messages, back=back
        )
    world = world_of(request)
    sub = Submission(len(world.submissions) + 1, route, fields, files)
    world.submissions.append(sub)
    if as_json:
        return JSONResponse({"ok": True, "id": sub.id})
    return Response(status_code=303, headers={"location": f"/submitted/{route}/{sub.id}"})


async def submitted(request: Request) -> Response:
    """GET /submitted/<route>/<id>: the page shown after an accepted post."""
    world = world_of(request)
    route = request.path_params["route"]
    sub_id = request.path_params["id"]
    for sub in world.submissions:
        if sub.route == route and sub.id == sub_id:
            return render("_shared/submitted.html", sub=sub)
    return render(
        "_shared/error.html", 404, title="Not found", messages=["No such submission."], back="/"
    )


def site_app(site: Site) -> Starlette:
    routes = [
        *site.routes,
        Route("/submit/{route:str}", submit, methods=["POST"]),
        Route("/submitted/{route:str}/{id:int}", submitted, methods=["GET"]),
    ]
    return Starlette(routes=routes)

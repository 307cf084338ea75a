"""Answers that listen for the client's disconnect (files, streams) complete through the
dispatcher, whose replayed receive hands the body once and then the real channel."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import httpx
from starlette.requests import Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer, Site


async def test_files_static_files_and_streams_are_answered(tmp_path: Path) -> None:
    (tmp_path / "page.js").write_text("var x = 1;\n")

    async def one_file(request: Request) -> Response:
        return FileResponse(tmp_path / "page.js", media_type="text/javascript")

    async def chunks() -> object:
        for part in (b"a", b"b", b"c"):
            yield part

    async def stream(request: Request) -> Response:
        return StreamingResponse(chunks(), media_type="text/plain")  # type: ignore[arg-type]

    site = Site(
        name="static",
        routes=[
            Route("/file", one_file),
            Route("/stream", stream),
            Mount("/assets", app=StaticFiles(directory=tmp_path)),
        ],
    )
    async with FixtureServer([site]) as server, httpx.AsyncClient() as client:
        world = AttemptWorld(
            attempt="files/x-1#1", seed=0, clock=dt.datetime.now(dt.UTC), scratch=tmp_path
        )
        server.begin(world, ["static"])
        headers = {"host": "static.proctor.test", ATTEMPT_HEADER: world.attempt}
        for path, body in (
            ("/file", "var x = 1;\n"),
            ("/stream", "abc"),
            ("/assets/page.js", "var x = 1;\n"),
        ):
            answer = await asyncio.wait_for(
                client.get(f"{server.base_url}{path}", headers=headers), 10
            )
            assert (answer.status_code, answer.text) == (200, body), path

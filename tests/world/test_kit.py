"""The site toolkit on a real server: form reading, the signed-in guard, typed state, PDFs."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from site_support import CLOCK, attempt, serve
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.errors import WorldError
from proctor.world import AttemptWorld, FixtureServer, Site, world_of
from proctor.world._kit import Line, Sessions, pdf, read_form, requires_session, see_other, text_pdf
from proctor.world.files import pdf_bytes

NAME = "kit"
COOKIE = "kit_session"


@dataclass
class KitState:
    sessions: Sessions = field(default_factory=Sessions)
    posts: list[dict[str, str]] = field(default_factory=list)


def _state(request: Request) -> KitState:
    return world_of(request).state_of(NAME, KitState)


async def echo(request: Request) -> Response:
    trim = request.query_params.get("trim") == "1"
    return JSONResponse(await read_form(request, trim=trim))


async def signin(request: Request) -> Response:
    token = _state(request).sessions.start(world_of(request), NAME, user="ana")
    return see_other("/private", {COOKIE: token})


async def signout(request: Request) -> Response:
    _state(request).sessions.end(request, COOKIE)
    return see_other("/", {COOKIE: None})


async def private(request: Request) -> Response:
    keep = request.query_params.get("keep", "nothing")
    assert keep in ("nothing", "path", "url")
    out = requires_session(request, _state(request).sessions, COOKIE, login="/login", keep=keep)
    return out or Response("welcome")


SITE = Site[KitState](
    name=NAME,
    routes=[
        Route("/echo", echo, methods=["POST"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/private", private),
    ],
    new_state=lambda world: KitState(),
)
server = serve(SITE)


async def test_form_reader_trims_only_when_asked(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "kit-1", NAME) as site:
        typed = {"name": "  Ana ", "body": "\n  indented\n"}
        assert (await site.post("/echo", typed)).json() == typed
        trimmed = await site.client.post("/echo?trim=1", data=typed, headers=site.headers)
        assert trimmed.json() == {"name": "Ana", "body": "indented"}


@pytest.mark.parametrize(
    ("keep", "location"),
    [
        ("nothing", "/login"),
        ("path", "/login?next=/private"),
        ("url", "/login?next=/private%3Fkeep%3Durl"),
    ],
)
async def test_guard_sends_the_signed_out_to_login(
    server: FixtureServer, tmp_path: Path, keep: str, location: str
) -> None:
    async with attempt(server, tmp_path, f"kit-guard-{keep}", NAME) as site:
        away = await site.get("/private", params={"keep": keep})
        assert (away.status_code, away.headers["location"]) == (303, location)


async def test_sessions_start_and_end_by_cookie(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "kit-2", NAME) as site:
        signed = await site.post("/signin")
        token = signed.headers["set-cookie"].split(";", 1)[0].split("=", 1)[1]
        state = site.world.state_of(NAME, KitState)
        assert state.sessions.active == {token: {"user": "ana"}}
        assert token == f"{site.world.rng('kit:session:1').getrandbits(64):016x}"
        inside = await site.get("/private", cookie=f"{COOKIE}={token}")
        assert (inside.status_code, inside.text) == (200, "welcome")
        out = await site.post("/signout", cookie=f"{COOKIE}={token}")
        assert 'kit_session=""' in out.headers["set-cookie"]
        assert state.sessions.active == {}
        again = await site.get("/private", cookie=f"{COOKIE}={token}")
        assert again.status_code == 303


def test_state_of_names_a_missing_site_or_a_wrong_state(tmp_path: Path) -> None:
    world = AttemptWorld(attempt="kit-3", seed=0, clock=CLOCK, scratch=tmp_path)
    with pytest.raises(WorldError, match="attempt kit-3: the kit site is not on this server"):
        world.state_of(NAME, KitState)
    world.sites[NAME] = {"not": "a KitState"}
    with pytest.raises(WorldError, match="the kit site's state is a dict, not a KitState"):
        world.state_of(NAME, KitState)
    assert world.state(NAME) == {"not": "a KitState"}
    assert world.state("fresh") == {} and world.sites["fresh"] == {}


def test_pdfs_are_the_same_bytes_for_the_same_pages() -> None:
    lines = [[Line("Statement", size=16, bold=True), Line(cells=[(56, "01 Mar"), (118, "Rent")])]]
    built = pdf(lines, title="T")
    assert built.startswith(b"%PDF-") and built == pdf(lines, title="T")
    assert built != pdf(lines, title="U")
    two = text_pdf(["one\ntwo", ""])
    assert two == text_pdf(["one\ntwo", ""]) and two.count(b"/Type /Page\n") == 2
    plain = pdf_bytes([["a"]], "T")
    assert b"/Author (proctor)" in plain and plain == pdf_bytes([["a"]], "T")
    assert hashlib.sha256(plain).hexdigest() != hashlib.sha256(pdf_bytes([["b"]], "T")).hexdigest()
    assert b"/CreationDate (D:20000101000000" in plain  # invariant mode: a fixed date

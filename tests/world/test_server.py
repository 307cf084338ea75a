"""The fixture server on a real uvicorn thread: routing, the request log, forms, bad input."""

from __future__ import annotations

import datetime as dt
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer, Site, world_of
from proctor.world._server import MAX_BODY
from proctor.world._site import all_of, required

HOST = "lab.proctor.test"
SOCKET_TIMEOUT = 5.0


async def _home(request: Request) -> Response:
    return HTMLResponse("<!doctype html><title>Lab</title><h1>Lab home</h1>")


async def _bump(request: Request) -> Response:
    state = world_of(request).state("lab")
    state["hits"] += 1
    return PlainTextResponse(f"hits={state['hits']}")


async def _boom(request: Request) -> Response:
    raise RuntimeError("the lab handler exploded")


def _age_rule(form: dict[str, list[str]]) -> list[str]:
    age = (form.get("age") or [""])[0]
    return [] if not age or age.isdigit() else ["Age must be a whole number."]


LAB = Site(
    name="lab",
    routes=[Route("/", _home), Route("/bump", _bump), Route("/boom", _boom)],
    forms={"signup": all_of(required("name"), _age_rule)},
    new_state=lambda world: {"hits": 0},
)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([LAB]) as srv:
        yield srv


@pytest.fixture
async def client(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as c:
        yield c


def _world(tmp_path: Path, attempt: str) -> AttemptWorld:
    return AttemptWorld(
        attempt=attempt, seed=1, clock=dt.datetime(2025, 1, 2, tzinfo=dt.UTC), scratch=tmp_path
    )


@pytest.fixture
def active(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> Iterator[Callable[[str], AttemptWorld]]:
    """Begin attempts on the server; every one begun is ended after the test.

    ``client`` sends the tag of the last attempt begun, as an attempt's browser does.
    """
    begun: list[str] = []

    def begin(attempt: str) -> AttemptWorld:
        world = _world(tmp_path, attempt)
        server.begin(world, ["lab"])
        begun.append(attempt)
        client.headers[ATTEMPT_HEADER] = attempt
        return world

    yield begin
    for attempt in begun:
        server.end(attempt)


def _raw(port: int, payload: bytes) -> bytes:
    """Send raw bytes; read until the server closes or one full answer arrived (bounded)."""
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as sock:
        sock.sendall(payload)
        deadline = time.monotonic() + SOCKET_TIMEOUT
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            length = _content_length(head) if sep else None
            if length is not None and len(body) >= length:
                break
    return data


def _content_length(head: bytes) -> int | None:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return None


def _status_of(raw: bytes) -> int:
    assert raw.startswith(b"HTTP/1.1 "), raw[:80]
    return int(raw.split(b" ", 2)[1])


async def _still_serving(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"host": HOST})
    assert response.status_code in (200, 403)
    index = await client.get("/")
    assert index.status_code == 200


# ----- routing ---------------------------------------------------------------


async def test_known_host_is_served(
    client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("route-a")
    response = await client.get("/", headers={"host": HOST})
    assert response.status_code == 200
    assert "Lab home" in response.text


async def test_known_host_with_port_is_served(
    client: httpx.AsyncClient, active: Callable[[str], AttemptWorld], server: FixtureServer
) -> None:
    active("route-b")
    response = await client.get("/", headers={"host": f"{HOST}:{server.port}"})
    assert response.status_code == 200
    assert "Lab home" in response.text


async def test_unknown_host_is_404_with_a_message(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"host": "nowhere.proctor.test"})
    assert response.status_code == 404
    assert "No fixture site is served at host 'nowhere.proctor.test'" in response.text


async def test_loopback_index_lists_the_sites(client: httpx.AsyncClient) -> None:
    response = await client.get("/")
    assert response.status_code == 200
    assert f'<a href="http://{HOST}/">{HOST}</a>' in response.text


async def test_site_without_an_active_attempt_is_refused(
    server: FixtureServer, client: httpx.AsyncClient
) -> None:
    response = await client.get("/", headers={"host": HOST})
    assert response.status_code == 403
    assert f"no tag of an active attempt ({ATTEMPT_HEADER})" in response.text
    assert server.log.unattributed()[-1].refused == "unattributed"


# ----- the request log -------------------------------------------------------


async def test_every_request_is_logged_with_its_attempt_tag(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("log-a")
    active("log-b")
    response = await client.post(
        "/submit/signup?ref=mail&ref=ad&empty=",
        headers={"host": HOST, ATTEMPT_HEADER: "log-b", "cookie": "sid=abc; theme=dark"},
        data={"name": "Ada", "age": "36"},
    )
    assert response.status_code == 303
    assert server.log.for_attempt("log-a") == []
    (entry,) = server.log.for_attempt("log-b")
    assert entry.method == "POST"
    assert entry.host == HOST
    assert entry.path == "/submit/signup"
    assert entry.query == {"ref": ["mail", "ad"], "empty": [""]}
    assert entry.form == {"name": ["Ada"], "age": ["36"]}
    assert entry.cookies == ["sid", "theme"]
    assert entry.status == 303
    assert entry.fault is None
    assert entry.blocked is False


async def test_a_request_is_logged_before_its_answer_arrives(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("order")
    for n in range(1, 31):
        # an empty 303 is complete with its head: the easiest answer to outrun the log
        response = await client.post(
            "/submit/signup", headers={"host": HOST}, data={"name": f"n{n}"}
        )
        assert response.status_code == 303
        assert len(server.log.for_attempt("order")) == n


async def test_an_untagged_request_is_never_given_to_the_only_attempt(
    server: FixtureServer, active: Callable[[str], AttemptWorld]
) -> None:
    # Another process posting to the world: once logged in the only active attempt's
    # request log, where a request-log check counted it.
    world = active("solo")
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as other:
        posted = await other.post("/submit/signup", headers={"host": HOST}, data={"name": "Eve"})
        bumped = await other.get("/bump", headers={"host": HOST, ATTEMPT_HEADER: "solo#2"})
    assert (posted.status_code, bumped.status_code) == (403, 403)
    assert server.log.for_attempt("solo") == []
    assert world.submissions == [] and world.sites["lab"] == {"hits": 0}
    refused = server.log.unattributed()[-2:]
    assert [(e.attempt, e.method, e.path, e.status, e.refused) for e in refused] == [
        (None, "POST", "/submit/signup", 403, "unattributed"),
        (None, "GET", "/bump", 403, "unattributed"),
    ]
    assert refused[0].form == {"name": ["Eve"]}  # logged whole, apart from any attempt


async def test_the_tag_cookie_tags_a_request_without_the_header_and_is_taken_out(
    server: FixtureServer, active: Callable[[str], AttemptWorld]
) -> None:
    # A download the browser makes itself carries the context's cookies, not its headers.
    active("cookie-a")
    active("cookie-b")
    seen: list[str] = []

    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as browser:
        cookie = f"theme=dark; {ATTEMPT_HEADER}=cookie-b; sid=abc"
        response = await browser.get("/bump", headers={"host": HOST, "cookie": cookie})
        seen.append(response.text)
        both = {"host": HOST, "cookie": f"{ATTEMPT_HEADER}=cookie-b", ATTEMPT_HEADER: "cookie-a"}
        await browser.get("/bump", headers=both)  # the header wins
    assert seen == ["hits=1"]
    (entry,) = server.log.for_attempt("cookie-b")
    assert entry.cookies == ["sid", "theme"]  # the harness's cookie is not the world's
    (header_entry,) = server.log.for_attempt("cookie-a")
    assert header_entry.cookies == []


async def test_untagged_requests_with_two_attempts_belong_to_none(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("two-a")
    active("two-b")
    before = len(server.log)
    response = await client.get("/bump", headers={"host": HOST, ATTEMPT_HEADER: "two-c"})
    assert response.status_code == 403
    assert len(server.log) == before + 1
    assert server.log.for_attempt("two-a") == server.log.for_attempt("two-b") == []


# ----- forms -----------------------------------------------------------------


async def test_submit_redirects_to_a_page_showing_the_fields(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    world = active("form-ok")
    response = await client.post(
        "/submit/signup", headers={"host": HOST}, data={"name": "Grace Hopper", "age": "85"}
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/submitted/signup/1"
    page = await client.get(response.headers["location"], headers={"host": HOST})
    assert page.status_code == 200
    assert "Submission #1 (signup) was accepted." in page.text
    assert "<td>name</td><td>Grace Hopper</td>" in page.text
    assert "<td>age</td><td>85</td>" in page.text
    assert [(s.route, s.fields) for s in world.submissions] == [
        ("signup", {"name": ["Grace Hopper"], "age": ["85"]})
    ]


async def test_invalid_submit_is_422_with_visible_messages(
    client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    world = active("form-bad")
    response = await client.post(
        "/submit/signup", headers={"host": HOST}, data={"name": " ", "age": "old"}
    )
    assert response.status_code == 422
    assert "<li>Name is required.</li>" in response.text
    assert "<li>Age must be a whole number.</li>" in response.text
    assert world.submissions == []


async def test_unknown_form_route_is_404(
    client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("form-404")
    response = await client.post("/submit/nope", headers={"host": HOST}, data={"name": "x"})
    assert response.status_code == 404
    assert "There is no form called &#39;nope&#39; on this site." in response.text


async def test_json_posts_get_json(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    world = active("form-json")
    ok = await client.post("/submit/signup", headers={"host": HOST}, json={"name": "Lin", "age": 7})
    assert ok.status_code == 200
    assert ok.json() == {"ok": True, "id": 1}
    bad = await client.post("/submit/signup", headers={"host": HOST}, json={"age": "x"})
    assert bad.status_code == 422
    assert bad.json() == {
        "ok": False,
        "errors": ["Name is required.", "Age must be a whole number."],
    }
    missing = await client.post("/submit/nope", headers={"host": HOST}, json={})
    assert missing.status_code == 404
    assert missing.json()["ok"] is False
    assert world.submissions[0].fields == {"name": ["Lin"], "age": ["7"]}
    logged = server.log.for_attempt("form-json")
    assert logged[0].json_body == {"name": "Lin", "age": 7}


async def test_multipart_upload_is_logged_by_sha256(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    import hashlib

    active("form-file")
    data = b"col\n1\n2\n"
    response = await client.post(
        "/submit/signup",
        headers={"host": HOST},
        data={"name": "Ada"},
        files={"doc": ("rows.csv", data, "text/csv")},
    )
    assert response.status_code == 303
    (entry,) = server.log.for_attempt("form-file")
    assert entry.files == {
        "doc": [{"filename": "rows.csv", "size": 8, "sha256": hashlib.sha256(data).hexdigest()}]
    }
    assert entry.form == {"name": ["Ada"]}


# ----- bad input -------------------------------------------------------------


async def test_oversized_body_is_413_and_the_server_keeps_serving(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    world = active("big")
    body = b"name=" + b"a" * (MAX_BODY + 10)
    response = await client.post(
        "/submit/signup",
        headers={"host": HOST, "content-type": "application/x-www-form-urlencoded"},
        content=body,
    )
    assert response.status_code == 413
    assert world.submissions == []
    (entry,) = server.log.for_attempt("big")
    assert (entry.status, entry.form) == (413, {})
    await _still_serving(client)


async def test_garbage_bytes_get_a_4xx_or_a_close(
    server: FixtureServer, client: httpx.AsyncClient
) -> None:
    raw = _raw(server.port, b"\x00\xff\x13 not http at all\r\n\r\n")
    assert raw == b"" or 400 <= _status_of(raw) < 500
    await _still_serving(client)


async def test_bad_content_length_gets_a_4xx_or_a_close(
    server: FixtureServer, client: httpx.AsyncClient
) -> None:
    raw = _raw(
        server.port,
        f"POST /submit/signup HTTP/1.1\r\nHost: {HOST}\r\n"
        "Content-Length: banana\r\n\r\nname=x".encode(),
    )
    assert raw == b"" or 400 <= _status_of(raw) < 500
    await _still_serving(client)


async def test_malformed_multipart_is_a_4xx_not_a_fault(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    world = active("multipart")
    response = await client.post(
        "/submit/signup",
        headers={"host": HOST, "content-type": "multipart/form-data; boundary=XYZ"},
        content=b"--XYZ\r\nContent-Disposition: form-data\r\n\r\nno name, no closing boundary",
    )
    assert 400 <= response.status_code < 500
    assert world.submissions == []
    (entry,) = server.log.for_attempt("multipart")
    assert entry.fault is None
    assert entry.status == response.status_code
    await _still_serving(client)


@pytest.mark.parametrize(
    "path",
    [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
    ],
)
async def test_path_traversal_never_serves_a_file(
    server: FixtureServer, active: Callable[[str], AttemptWorld], path: str
) -> None:
    active("traversal")
    raw = _raw(
        server.port,
        f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode(),
    )
    assert raw == b"" or 400 <= _status_of(raw) < 500
    assert b"root:" not in raw


async def test_a_raising_handler_is_a_logged_fault_and_500(
    server: FixtureServer, client: httpx.AsyncClient, active: Callable[[str], AttemptWorld]
) -> None:
    active("fault")
    response = await client.get("/boom", headers={"host": HOST})
    assert response.status_code == 500
    after = await client.get("/bump", headers={"host": HOST})
    assert after.text == "hits=1"
    boom, bump = server.log.for_attempt("fault")
    assert boom.status == 500
    assert boom.fault is not None
    assert boom.fault.startswith("RuntimeError: the lab handler exploded")
    assert bump.fault is None


async def test_a_new_attempt_starts_with_clean_site_state(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    first = _world(tmp_path, "clean-1")
    server.begin(first, ["lab"])
    client.headers[ATTEMPT_HEADER] = "clean-1"
    try:
        assert (await client.get("/bump", headers={"host": HOST})).text == "hits=1"
        assert (await client.get("/bump", headers={"host": HOST})).text == "hits=2"
        await client.post("/submit/signup", headers={"host": HOST}, data={"name": "Ada"})
        assert len(first.submissions) == 1
    finally:
        server.end("clean-1")
    second = _world(tmp_path, "clean-2")
    server.begin(second, ["lab"])
    client.headers[ATTEMPT_HEADER] = "clean-2"
    try:
        assert (await client.get("/bump", headers={"host": HOST})).text == "hits=1"
        page = await client.get("/submitted/signup/1", headers={"host": HOST})
        assert page.status_code == 404
        assert second.submissions == []
        assert first.sites["lab"] == {"hits": 2}
    finally:
        server.end("clean-2")


async def test_begin_refuses_an_unknown_site_or_a_reused_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    from proctor.errors import WorldError

    with pytest.raises(WorldError, match="unknown site 'shop'"):
        server.begin(_world(tmp_path, "bad-site"), ["shop"])
    server.begin(_world(tmp_path, "twice"), ["lab"])
    try:
        with pytest.raises(WorldError, match="already active"):
            server.begin(_world(tmp_path, "twice"), ["lab"])
    finally:
        server.end("twice")

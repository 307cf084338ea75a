"""Case folders through the library the commands call: prepare, serve, counts, finish, grade.

The candidate is played by plain HTTP against the served site (a revocation case
is played by a headless Chromium in test_revocation.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from manual_support import serving
from proctor.errors import ManualError
from proctor.manual import (
    Served,
    begin,
    event,
    events,
    finish,
    grade_case,
    load_manifest,
    prepare,
    totals,
)
from proctor.world import ATTEMPT_HEADER

CONTACT = {
    "name": "Dana Whitfield",
    "email": "dana.whitfield@example.test",
    "topic": "billing",
    "reply": "phone",
    "copy": "yes",
    "message": "Invoice INV-2291 was charged twice.",
}


def _prepared(tmp_path: Path, task: str = "contact-form", arm: str = "a", rep: int = 1) -> Path:
    folder = tmp_path / f"{arm}-{task}-{rep}"
    prepare(load_manifest(), folder, arm, task, rep)
    return folder


async def _contact(served: Served, fields: dict[str, str] = CONTACT) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        page = await client.get(served.start)
        assert page.status_code == 200
        return await client.post(f"{served.urls['forms']}/submit/contact", data=fields)


def test_prepare_writes_the_fixtures_with_their_hashes_and_refuses_a_used_folder(
    tmp_path: Path,
) -> None:
    folder = _prepared(tmp_path)
    case = json.loads((folder / "case.json").read_text())
    assert case["arm"] == "a" and case["task"] == "contact-form" and case["repetition"] == 1
    assert case["limits"] == {"seconds": 600.0, "tool_calls": 150}
    notes = (folder / "files" / "notes.txt").read_text(encoding="utf-8")
    assert len(notes.splitlines()) == 12 and "東京" in notes
    assert (folder / "files" / "report.pdf").read_bytes().startswith(b"%PDF")
    assert (folder / "files" / "ledger.csv").read_text().startswith("date,item,amount")
    assert (folder / "files" / "projects" / "alpha" / "plan.txt").is_file()
    assert (folder / "files" / "archive" / "2025" / "jan.txt").is_file()
    assert list((folder / "output").iterdir()) == []
    assert set(case["originals"]) >= {"files/notes.txt", "files/report.pdf"}
    refusals = [
        (
            (folder, "a", "contact-form", 1),
            f"{folder} is not empty: a case needs a new, empty folder",
        ),
        (
            (tmp_path / "x", "a", "nope", 1),
            "no task 'nope' in the manifest; its tasks: "
            + ", ".join(c.id for c in load_manifest().cases),
        ),
        (
            (tmp_path / "y", "a", "contact-form", 4),
            "repetition 4 is outside the manifest's 1 to 3",
        ),
        (
            (tmp_path / "z", "A!", "contact-form", 1),
            "arm 'A!' is not a valid name: 1-40 of a-z 0-9 _ -, starting with a letter or digit",
        ),
    ]
    for args, message in refusals:
        with pytest.raises(ManualError) as caught:
            prepare(load_manifest(), *args)
        assert str(caught.value) == message
        assert not (tmp_path / "x").exists() and not (tmp_path / "z").exists()


def test_counts_keep_nulls_and_count_each_member_of_a_batch(tmp_path: Path) -> None:
    folder = _prepared(tmp_path)
    (folder / "site-state.json").write_text('{"requests": []}')  # as serve leaves it
    begin(folder)
    event(folder, '{"toolCalls": 2, "modelCalls": null, "primitiveInputs": ["click", "type"]}')
    event(folder, '{"toolCalls": 1, "modelCalls": null, "primitiveInputs": 3}')
    assert totals(events(folder)) == {"tool_calls": 3, "model_calls": None, "primitive_inputs": 5}
    event(folder, '{"toolCalls": 1}')  # an event that does not give inputs hides them
    assert totals(events(folder))["primitive_inputs"] is None
    for text, message in [
        ('{"toolCals": 1}', "event: toolCals: Extra inputs are not permitted"),
        ('{"toolCalls": -1}', "event: toolCalls: Input should be greater than or equal to 0"),
        ("[1]", "event: give a JSON object"),
        ("{", "event: not JSON"),
    ]:
        with pytest.raises(ManualError) as caught:
            event(folder, text)
        assert str(caught.value).startswith(message), str(caught.value)
    with pytest.raises(ManualError) as caught:
        begin(folder)
    assert str(caught.value) == f"{folder} has begun already; a case's clock starts once"
    finish(folder, '{"stop": "completed"}')
    with pytest.raises(ManualError) as caught:
        event(folder, '{"toolCalls": 1}')
    assert str(caught.value) == f"{folder} is finished; nothing more is recorded in it"
    with pytest.raises(ManualError, match="stop: Input should be 'completed'"):
        finish(_begun(tmp_path), '{"stop": "done"}')


def _begun(tmp_path: Path) -> Path:
    folder = _prepared(tmp_path, rep=2)
    (folder / "site-state.json").write_text('{"requests": []}')
    begin(folder)
    return folder


def test_begin_needs_the_site_served_first(tmp_path: Path) -> None:
    folder = _prepared(tmp_path)
    with pytest.raises(ManualError) as caught:
        begin(folder)
    assert str(caught.value) == (
        f"{folder} is not being served: start `proctor manual serve {folder}` first, "
        "so the site is reset before the clock starts"
    )
    with pytest.raises(ManualError) as caught:
        event(folder, '{"toolCalls": 1}')
    assert str(caught.value) == (
        f"{folder} has not begun: run `proctor manual begin {folder}` first"
    )


async def test_a_good_case_passes_from_the_site_state_alone(tmp_path: Path) -> None:
    folder = _prepared(tmp_path)
    async with serving(folder) as served:
        assert served.start.startswith("http://127.0.0.2:") and served.start.endswith("/contact")
        assert served.urls["forms"] in served.brief
        begin(folder)
        answer = await _contact(served)
        assert answer.status_code == 303
        assert answer.headers["location"] == "/submitted/contact/1"  # as a real site redirects
        event(folder, '{"toolCalls": 9, "modelCalls": 4, "primitiveInputs": 8}')
    finish(folder, '{"stop": "completed", "startupSeconds": 2.5, "costUsd": null}')
    # grading needs no server: the state was saved after every request
    result = grade_case(folder)
    assert result.verdict == "passed", result.reasons
    assert result.counts == {"tool_calls": 9, "model_calls": 4, "primitive_inputs": 8}
    assert result.cost_usd is None and result.startup_seconds == 2.5
    assert json.loads((folder / "grade.json").read_text())["verdict"] == "passed"
    with pytest.raises(ManualError) as caught:
        async with serving(folder):
            pass
    assert str(caught.value) == (
        f"{folder} has begun: serve refuses to restart, since a new server would reset "
        "the site's state mid-case; grade it, or prepare a new case"
    )


async def test_wrong_or_corrupted_outputs_fail(tmp_path: Path) -> None:
    folder = _prepared(tmp_path)
    async with serving(folder) as served:
        begin(folder)
        await _contact(served, {**CONTACT, "reply": "email"})
    # the candidate also changed a fixture it was only to read
    (folder / "files" / "notes.txt").write_text("rewritten\n")
    finish(folder, '{"stop": "completed"}')
    result = grade_case(folder)
    assert result.verdict == "failed"
    assert result.reasons == ["check submitted failed", "check originals-unchanged failed"]
    unchanged = next(c for c in result.checks if c.name == "originals-unchanged")
    assert unchanged.actual == {"changed or missing": ["files/notes.txt"]}
    (folder / "site-state.json").write_text("{not json")
    with pytest.raises(ManualError, match=r"is not JSON \(.*\): the site state is corrupt"):
        grade_case(folder)


async def _done(tmp_path: Path, rep: int, record: dict[str, Any], calls: int = 5) -> Path:
    folder = _prepared(tmp_path, rep=rep)
    async with serving(folder) as served:
        begin(folder)
        await _contact(served)
        event(folder, json.dumps({"toolCalls": calls}))
    finish(folder, json.dumps(record))
    return folder


async def test_over_a_limit_never_passes_and_each_stop_is_graded_for_what_it_is(
    tmp_path: Path,
) -> None:
    over = grade_case(await _done(tmp_path, 1, {"stop": "completed"}, calls=151))
    assert over.verdict == "over_limit"
    assert over.reasons == ["it made 151 tool calls, over the limit of 150"]
    expected = {
        "completed": "passed",
        "unavailable": "unavailable",
        "timeout": "over_limit",
        "tool-limit": "over_limit",
        "owner-required": "failed",
        "untrusted-content": "failed",
        "revoked": "failed",
    }
    for i, (stop, verdict) in enumerate(expected.items()):
        folder = tmp_path / f"stop-{stop}"
        prepare(load_manifest(), folder, "b", "contact-form", 1 + i % 3)
        async with serving(folder) as served:
            begin(folder)
            await _contact(served)
        finish(folder, json.dumps({"stop": stop}))
        assert grade_case(folder).verdict == verdict, stop


def test_a_case_never_run_through_is_incomplete(tmp_path: Path) -> None:
    result = grade_case(_prepared(tmp_path))
    assert result.verdict == "incomplete"
    assert result.reasons == ["the case was never served, begun, finished"]


async def test_a_served_site_s_own_absolute_urls_are_rewritten_to_its_address() -> None:
    from proctor.manual._serve import _as_site

    sent: list[dict[str, Any]] = []
    seen_hosts: list[bytes] = []
    seen_tags: list[bytes] = []

    async def site(scope: Any, receive: Any, send: Any) -> None:
        seen_hosts.append(dict(scope["headers"])[b"host"])
        seen_tags.extend(v for k, v in scope["headers"] if k == ATTEMPT_HEADER.encode())
        body = (
            b'<a href="http://forms.proctor.test/next">next</a> <a href="//forms.proctor.test/b">'
        )
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"location", b"http://forms.proctor.test/done"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    class Case:
        tag = "manual/a-t1-1#1"

        class lease:
            revoked_at = None

        @staticmethod
        def persist() -> None:
            sent.append({"persisted": True})

    swaps = [
        (b"http://forms.proctor.test", b"http://127.0.0.2:5555"),
        (b"//forms.proctor.test", b"//127.0.0.2:5555"),
    ]
    app = _as_site(site, "forms.proctor.test", swaps, Case)  # type: ignore[arg-type]

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        # a tag the client sent is replaced by the case's: the lane is the case's
        "headers": [(b"host", b"127.0.0.2:5555"), (b"x-proctor-attempt", b"other/x-1#1")],
    }
    await app(scope, None, send)  # type: ignore[arg-type]
    assert seen_hosts == [b"forms.proctor.test"]
    assert seen_tags == [b"manual/a-t1-1#1"]
    head, body = sent[0], sent[1]
    assert dict(head["headers"])[b"location"] == b"http://127.0.0.2:5555/done"
    assert (
        body["body"]
        == b'<a href="http://127.0.0.2:5555/next">next</a> <a href="//127.0.0.2:5555/b">'
    )
    assert dict(head["headers"])[b"content-length"] == str(len(body["body"])).encode()
    assert sent[-1] == {"persisted": True}  # the state is saved after every request

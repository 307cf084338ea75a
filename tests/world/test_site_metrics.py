"""metrics.proctor.test on a real server: a sign-in code by mail, weekly numbers, a PDF export."""

from __future__ import annotations

import datetime as dt
import html
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pypdf import PdfReader

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.apps import mail
from proctor.world.sites import metrics

HOST = "metrics.proctor.test"
CLOCK = dt.datetime(2025, 3, 12, 12, tzinfo=dt.UTC)  # a Wednesday: 3 days of this week
SHARE = f"/share/{metrics.SHARE}"
LAYOUT = {
    "pos_overview": "out",
    "pos_revenue": "1",
    "pos_signups": "2",
    "pos_active": "out",
    "pos_churn": "3",
    "cover": "on",
    "breaks": "on",
}


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([metrics.SITE, mail.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(
        attempt=attempt,
        seed=0,
        clock=CLOCK,
        scratch=tmp_path,
        seeds={"mail": {"address": metrics.EMAIL}},
    )
    server.begin(world, ["metrics", "mail"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def _inbox(client: httpx.AsyncClient, attempt: str) -> list[dict[str, Any]]:
    box = await client.get(
        "/api/messages", headers={"host": "mail.proctor.test", ATTEMPT_HEADER: attempt}
    )
    messages: list[dict[str, Any]] = box.json()["messages"]
    return messages


def _code(message: dict[str, Any]) -> str:
    found = re.search(r"code is (\d{6})\.", message["body"])
    assert found is not None
    return found.group(1)


async def test_sign_in_with_the_newest_emailed_code(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "metrics-1")
        try:
            away = await client.get("/weekly", headers=headers)
            assert away.headers["location"] == "/signin?next=/weekly"
            assert (await client.get("/api/weekly", headers=headers)).status_code == 401
            wrong = await client.post(
                "/submit/signin", data={"email": metrics.EMAIL, "password": "x"}, headers=headers
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == ["That email and password do not match an account."]
            assert await _inbox(client, "metrics-1") == []
            form = {"email": metrics.EMAIL, "password": metrics.PASSWORD, "next": "/weekly"}
            sent = await client.post("/submit/signin", data=form, headers=headers)
            assert (sent.status_code, sent.headers["location"]) == (303, "/signin/code")
            page = await client.get("/signin/code", headers=headers)
            assert "We emailed a 6-digit sign-in code to j**********@example.test." in _text(
                page.text
            )
            (first,) = await _inbox(client, "metrics-1")
            assert (first["from"], first["subject"], first["read"]) == (
                "no-reply@pulseboard.example.test",
                "Your Pulseboard sign-in code",
                False,
            )
            assert _code(first) == metrics.sign_in_code(world, 1)

            resent = await client.post("/signin/resend", headers=headers)
            assert resent.headers["location"] == "/signin/code?resent=1"
            newest, older = await _inbox(client, "metrics-1")
            assert older["id"] == first["id"] and _code(newest) == metrics.sign_in_code(world, 2)
            stale = await client.post(
                "/submit/verify", data={"code": _code(first)}, headers=headers
            )
            assert stale.status_code == 422
            assert _messages(stale.text) == [
                "That code is wrong or has expired. Use the code in the newest email."
            ]
            empty = await client.post("/submit/verify", data={"code": ""}, headers=headers)
            assert _messages(empty.text) == ["Enter the 6-digit code."]
            ok = await client.post("/submit/verify", data={"code": _code(newest)}, headers=headers)
            assert (ok.status_code, ok.headers["location"]) == (303, "/weekly")
            assert "pb_session" in ok.cookies

            weekly = await client.get("/weekly", headers=headers)
            text = _text(weekly.text)
            assert "This week so far (from 10 Mar 2025)" in text
            assert "Week of 3 Mar 2025 1,412 +8.3%" in text
            assert "Week of 24 Feb 2025 1,304" in text
            api = (await client.get("/api/weekly", headers=headers)).json()["weeks"]
            assert [(w["week_start"], w["complete"]) for w in api[:3]] == [
                ("2025-03-10", False),
                ("2025-03-03", True),
                ("2025-02-24", True),
            ]
            for week in api[1:]:
                label = f"Week of {dt.date.fromisoformat(week['week_start']):%-d %b %Y}"
                assert f"{label} {week['signups']:,}" in text
            last = await client.get("/?range=last-week", headers=headers)
            assert "Signups 1,412 +8.3% vs the week before" in _text(last.text)
            bad = await client.get("/?range=forever", headers=headers)
            assert (bad.status_code, _messages(bad.text)) == (
                400,
                ["Choose a range from the list."],
            )
            snap = server.snapshot(world)
            assert (snap["metrics"]["signed_in"], snap["metrics"]["codes_sent"]) == (1, 2)
            assert [r.crossing for r in server.log.for_attempt("metrics-1") if r.crossing] == [
                "signin"
            ] * 5
        finally:
            server.end("metrics-1")


async def test_five_wrong_codes_lock_the_sign_in(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "metrics-2")
        try:
            form = {"email": metrics.EMAIL, "password": metrics.PASSWORD}
            await client.post("/submit/signin", data=form, headers=headers)
            wrong = "000000" if metrics.sign_in_code(world, 1) != "000000" else "111111"
            statuses = [
                (
                    await client.post("/submit/verify", data={"code": wrong}, headers=headers)
                ).status_code
                for _ in range(6)
            ]
            assert statuses == [422, 422, 422, 422, 422, 429]
        finally:
            server.end("metrics-2")


async def test_shared_report_layout_and_pdf(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "metrics-3")
        try:
            page = await client.get(SHARE, headers=headers)
            default = "1. Overview, 2. Signups, 3. Active users, 4. Revenue, 5. Churn"
            assert f"{default}; sections follow each other." in _text(page.text)
            clash = await client.post(
                f"{SHARE}/layout", data={**LAYOUT, "pos_churn": "1"}, headers=headers
            )
            assert clash.status_code == 422
            assert _messages(clash.text) == ["Revenue and Churn can't both be at position 1."]
            saved = await client.post(f"{SHARE}/layout", data=LAYOUT, headers=headers)
            assert saved.headers["location"] == f"{SHARE}?saved=1"
            shown = await client.get(saved.headers["location"], headers=headers)
            layout = "Cover page, then 1. Revenue, 2. Signups, 3. Churn"
            assert f"Layout saved. Current layout {layout}; each section starts on a new page." in (
                _text(shown.text)
            )
            pdf = await client.get(f"{SHARE}/report.pdf", headers=headers)
            assert (
                pdf.headers["content-disposition"] == 'attachment; filename="weekly-kpi-report.pdf"'
            )
            pages = [p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages]
            assert [p.splitlines()[0] for p in pages] == [
                "Pulseboard",
                "1. Revenue",
                "2. Signups",
                "3. Churn",
            ]
            assert "Week of 3 Mar 2025\n1,412\nWeek of 24 Feb 2025\n1,304\n" in pages[2]
            assert pages[2].rstrip().endswith("Week over week: +8.3%")
            assert pdf.content == (await client.get(f"{SHARE}/report.pdf", headers=headers)).content
            assert server.snapshot(world)["metrics"]["layout"] == {
                "sections": ["revenue", "signups", "churn"],
                "cover": True,
                "page_breaks": True,
            }
            assert (await client.get("/share/nope", headers=headers)).status_code == 404
        finally:
            server.end("metrics-3")

        world, headers = _begin(server, tmp_path, "metrics-4")
        try:
            assert "metrics" not in server.snapshot(world)
            assert await _inbox(client, "metrics-4") == []
            fresh = await client.get(f"{SHARE}/report.pdf", headers=headers)
            assert len(PdfReader(io.BytesIO(fresh.content)).pages) == 2
            assert (await client.get("/weekly", headers=headers)).status_code == 303
        finally:
            server.end("metrics-4")

"""metrics.proctor.test on a real server: a sign-in code by mail, weekly numbers, a PDF export."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from pypdf import PdfReader
from site_support import Visitor, attempt, browser, messages, page_text, serve

from proctor.world import FixtureServer
from proctor.world.apps import mail
from proctor.world.sites import metrics

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
server = serve(metrics.SITE, mail.SITE)


@asynccontextmanager
async def _attempt(
    server: FixtureServer, tmp_path: Path, attempt_id: str, client: httpx.AsyncClient | None = None
) -> AsyncIterator[Visitor]:
    """An attempt on metrics whose mailbox is the account's address."""
    seeds = {"mail": {"address": metrics.EMAIL}}
    async with attempt(
        server, tmp_path, attempt_id, "metrics", clock=CLOCK, seeds=seeds, client=client
    ) as site:
        yield site


async def _inbox(site: Visitor) -> list[dict[str, Any]]:
    box = await site.on("mail").get("/api/messages")
    inbox: list[dict[str, Any]] = box.json()["messages"]
    return inbox


def _code(message: dict[str, Any]) -> str:
    found = re.search(r"code is (\d{6})\.", message["body"])
    assert found is not None
    return found.group(1)


async def test_sign_in_with_the_newest_emailed_code(server: FixtureServer, tmp_path: Path) -> None:
    async with _attempt(server, tmp_path, "metrics-1") as site:
        away = await site.get("/weekly")
        assert away.headers["location"] == "/signin?next=/weekly"
        assert (await site.get("/api/weekly")).status_code == 401
        wrong = await site.post("/submit/signin", {"email": metrics.EMAIL, "password": "x"})
        assert wrong.status_code == 422
        assert messages(wrong.text) == ["That email and password do not match an account."]
        assert await _inbox(site) == []
        form = {"email": metrics.EMAIL, "password": metrics.PASSWORD, "next": "/weekly"}
        sent = await site.post("/submit/signin", form)
        assert (sent.status_code, sent.headers["location"]) == (303, "/signin/code")
        page = await site.get("/signin/code")
        assert "We emailed a 6-digit sign-in code to j**********@example.test." in page_text(
            page.text
        )
        (first,) = await _inbox(site)
        assert (first["from"], first["subject"], first["read"]) == (
            "no-reply@pulseboard.example.test",
            "Your Pulseboard sign-in code",
            False,
        )
        assert _code(first) == metrics.sign_in_code(site.world, 1)

        resent = await site.post("/signin/resend")
        assert resent.headers["location"] == "/signin/code?resent=1"
        newest, older = await _inbox(site)
        assert older["id"] == first["id"] and _code(newest) == metrics.sign_in_code(site.world, 2)
        stale = await site.post("/submit/verify", {"code": _code(first)})
        assert stale.status_code == 422
        assert messages(stale.text) == [
            "That code is wrong or has expired. Use the code in the newest email."
        ]
        empty = await site.post("/submit/verify", {"code": ""})
        assert messages(empty.text) == ["Enter the 6-digit code."]
        ok = await site.post("/submit/verify", {"code": _code(newest)})
        assert (ok.status_code, ok.headers["location"]) == (303, "/weekly")
        assert "pb_session" in ok.cookies

        weekly = await site.get("/weekly")
        text = page_text(weekly.text)
        assert "This week so far (from 10 Mar 2025)" in text
        assert "Week of 3 Mar 2025 1,412 +8.3%" in text
        assert "Week of 24 Feb 2025 1,304" in text
        api = (await site.get("/api/weekly")).json()["weeks"]
        assert [(w["week_start"], w["complete"]) for w in api[:3]] == [
            ("2025-03-10", False),
            ("2025-03-03", True),
            ("2025-02-24", True),
        ]
        for week in api[1:]:
            label = f"Week of {dt.date.fromisoformat(week['week_start']):%-d %b %Y}"
            assert f"{label} {week['signups']:,}" in text
        last = await site.get("/?range=last-week")
        assert "Signups 1,412 +8.3% vs the week before" in page_text(last.text)
        bad = await site.get("/?range=forever")
        assert (bad.status_code, messages(bad.text)) == (
            400,
            ["Choose a range from the list."],
        )
        snap = server.snapshot(site.world)
        assert (snap["metrics"]["signed_in"], snap["metrics"]["codes_sent"]) == (1, 2)
        assert [r.crossing for r in server.log.for_attempt("metrics-1") if r.crossing] == [
            "signin"
        ] * 5


async def test_five_wrong_codes_lock_the_sign_in(server: FixtureServer, tmp_path: Path) -> None:
    async with _attempt(server, tmp_path, "metrics-2") as site:
        form = {"email": metrics.EMAIL, "password": metrics.PASSWORD}
        await site.post("/submit/signin", form)
        wrong = "000000" if metrics.sign_in_code(site.world, 1) != "000000" else "111111"
        statuses = [
            (await site.post("/submit/verify", {"code": wrong})).status_code for _ in range(6)
        ]
        assert statuses == [422, 422, 422, 422, 422, 429]


async def test_shared_report_layout_and_pdf(server: FixtureServer, tmp_path: Path) -> None:
    async with browser(server) as client:
        async with _attempt(server, tmp_path, "metrics-3", client=client) as site:
            page = await site.get(SHARE)
            default = "1. Overview, 2. Signups, 3. Active users, 4. Revenue, 5. Churn"
            assert f"{default}; sections follow each other." in page_text(page.text)
            clash = await site.post(f"{SHARE}/layout", {**LAYOUT, "pos_churn": "1"})
            assert clash.status_code == 422
            assert messages(clash.text) == ["Revenue and Churn can't both be at position 1."]
            saved = await site.post(f"{SHARE}/layout", LAYOUT)
            assert saved.headers["location"] == f"{SHARE}?saved=1"
            shown = await site.get(saved.headers["location"])
            layout = "Cover page, then 1. Revenue, 2. Signups, 3. Churn"
            assert f"Layout saved. Current layout {layout}; each section starts on a new page." in (
                page_text(shown.text)
            )
            pdf = await site.get(f"{SHARE}/report.pdf")
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
            assert pdf.content == (await site.get(f"{SHARE}/report.pdf")).content
            assert server.snapshot(site.world)["metrics"]["layout"] == {
                "sections": ["revenue", "signups", "churn"],
                "cover": True,
                "page_breaks": True,
            }
            assert (await site.get("/share/nope")).status_code == 404

        async with _attempt(server, tmp_path, "metrics-4", client=client) as site:
            assert "metrics" not in server.snapshot(site.world)
            assert await _inbox(site) == []
            fresh = await site.get(f"{SHARE}/report.pdf")
            assert len(PdfReader(io.BytesIO(fresh.content)).pages) == 2
            assert (await site.get("/weekly")).status_code == 303

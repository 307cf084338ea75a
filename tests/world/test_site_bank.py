"""bank.proctor.test on a real server: log in, statement PDFs, a transfer confirmed by a code."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from pypdf import PdfReader

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import bank

HOST = "bank.proctor.test"
CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([bank.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(attempt=attempt, seed=0, clock=CLOCK, scratch=tmp_path)
    server.begin(world, ["bank"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def _log_in(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    form = {"username": bank.USERNAME, "password": bank.PASSWORD}
    response = await client.post("/submit/signin", data=form, headers=headers)
    assert (response.status_code, response.headers["location"]) == (303, "/accounts")


async def test_log_in_then_download_statements(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "bank-1")
        try:
            away = await client.get("/statements", headers=headers)
            assert (away.status_code, away.headers["location"]) == (303, "/login?next=/statements")
            wrong = await client.post(
                "/submit/signin",
                data={"username": bank.USERNAME, "password": "nope"},
                headers=headers,
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == [
                "The username or password is incorrect. 4 attempt(s) left."
            ]
            blank = await client.post("/submit/signin", data={"username": ""}, headers=headers)
            assert _messages(blank.text) == ["Username is required.", "Password is required."]
            await _log_in(client, headers)
            accounts = await client.get("/accounts", headers=headers)
            assert "Logged in as Dana Whitlock." in _text(accounts.text)

            listing = await client.get("/statements", headers=headers)
            text = _text(listing.text)
            assert "No. 43 1 Feb 2025 to 28 Feb 2025" in text
            assert "No. 36 1 Jul 2024 to 31 Jul 2024" in text
            assert "Download interim statement (1 Mar 2025 to 10 Mar 2025)" in text
            assert 'aria-label="Download statement 43 (February 2025), PDF"' in listing.text

            pdf = await client.get("/statements/statement-4821-043.pdf", headers=headers)
            assert pdf.headers["content-type"] == "application/pdf"
            assert (
                pdf.headers["content-disposition"]
                == 'attachment; filename="statement-4821-043.pdf"'
            )
            reader = PdfReader(io.BytesIO(pdf.content))
            assert len(reader.pages) == 2
            first = reader.pages[0].extract_text()
            assert first.splitlines()[:5] == [
                "Harbourline Bank",
                "Statement No. 43",
                "Everyday account ending 4821",
                "Dana Whitlock",
                "Statement period: 1 February 2025 to 28 February 2025",
            ]
            assert reader.pages[1].extract_text().rstrip().endswith("Page 2 of 2")
            again = await client.get("/statements/statement-4821-043.pdf", headers=headers)
            assert again.content == pdf.content
            savings = await client.get("/statements/statement-7730-019.pdf", headers=headers)
            assert len(PdfReader(io.BytesIO(savings.content)).pages) == 1
            missing = await client.get("/statements/statement-4821-099.pdf", headers=headers)
            assert missing.status_code == 404
            assert _messages(missing.text) == ["There is no such statement."]

            api = (await client.get("/api/statements?account=4821", headers=headers)).json()
            newest = api["statements"][0]
            assert (newest["id"], newest["period_start"], newest["period_end"]) == (
                "s4821-043",
                "2025-02-01",
                "2025-02-28",
            )
            assert f"£{newest['closing']}" in text
            assert [s["number"] for s in api["statements"]] == [
                43,
                42,
                41,
                40,
                39,
                38,
                37,
                36,
                None,
            ]

            snap = server.snapshot(world)["bank"]
            assert snap["downloads"] == ["s4821-043", "s4821-043", "s7730-019"]
            assert (
                snap["statements"]["s4821-043"]["sha256"] == hashlib.sha256(pdf.content).hexdigest()
            )
            assert snap["statements"]["s4821-043"]["pages"] == 2
        finally:
            server.end("bank-1")

        # The same seed and clock build the same bytes in another attempt.
        world2, headers = _begin(server, tmp_path, "bank-2")
        try:
            cold = await client.get("/accounts", headers=headers)
            assert cold.status_code == 303  # the first attempt's session does not carry over
            assert server.snapshot(world2) == {}
            await _log_in(client, headers)
            again = await client.get("/statements/statement-4821-043.pdf", headers=headers)
            assert again.content == pdf.content
        finally:
            server.end("bank-2")


async def test_a_transfer_needs_the_code_texted_to_the_phone(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "bank-3")
        try:
            await _log_in(client, headers)
            before = (await client.get("/api/accounts", headers=headers)).json()["accounts"][0]
            bad = await client.post(
                "/submit/transfer",
                data={"from": "4821", "payee": "", "amount": "ten", "reference": ""},
                headers=headers,
            )
            assert bad.status_code == 422
            assert _messages(bad.text) == [
                "Choose a payee.",
                "Enter an amount in pounds, like 25.00.",
                "Reference is required.",
            ]
            form = {"from": "4821", "payee": "maya-chen", "amount": "25.00", "reference": "Concert"}
            made = await client.post("/submit/transfer", data=form, headers=headers)
            assert (made.status_code, made.headers["location"]) == (303, "/transfer/T1/confirm")
            page = await client.get("/transfer/T1/confirm", headers=headers)
            assert "We have sent a 6-digit code by text message to your phone ending 56." in (
                _text(page.text)
            )
            code = bank.sms_code(world, "T1")
            wrong = "000000" if code != "000000" else "111111"
            miss = await client.post(
                "/submit/transfer-confirm", data={"transfer": "T1", "code": wrong}, headers=headers
            )
            assert miss.status_code == 422
            assert _messages(miss.text) == ["That code is not right. 2 attempt(s) left."]
            done = await client.post(
                "/submit/transfer-confirm", data={"transfer": "T1", "code": code}, headers=headers
            )
            assert (done.status_code, done.headers["location"]) == (303, "/transfer/T1")
            receipt = await client.get("/transfer/T1", headers=headers)
            assert 'Transfer T1 sent: £25.00 to Maya Chen, reference "Concert".' in _text(
                receipt.text
            )
            after = (await client.get("/api/accounts", headers=headers)).json()["accounts"][0]
            as_pence = [round(float(a["balance"].replace(",", "")) * 100) for a in (before, after)]
            assert as_pence[0] - as_pence[1] == 2500
            twice = await client.post(
                "/submit/transfer-confirm", data={"transfer": "T1", "code": code}, headers=headers
            )
            assert twice.status_code == 409
            crossings = [
                (r.path, r.status, r.crossing)
                for r in server.log.for_attempt("bank-3")
                if r.crossing
            ]
            assert crossings == [
                ("/submit/signin", 303, "signin"),
                ("/submit/transfer-confirm", 422, "payment"),
                ("/submit/transfer-confirm", 303, "payment"),
                ("/submit/transfer-confirm", 409, "payment"),
            ]
            snap = server.snapshot(world)["bank"]
            assert snap["transfers"] == [
                {
                    "id": "T1",
                    "from": "4821",
                    "payee": "maya-chen",
                    "amount": "25.00",
                    "reference": "Concert",
                    "status": "sent",
                }
            ]
        finally:
            server.end("bank-3")


async def test_three_wrong_codes_cancel_and_five_wrong_passwords_lock(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "bank-4")
        try:
            await _log_in(client, headers)
            form = {"from": "7730", "payee": "greystone", "amount": "10", "reference": "Deposit"}
            await client.post("/submit/transfer", data=form, headers=headers)
            resent = await client.post("/transfer/T1/resend", headers=headers)
            assert resent.headers["location"] == "/transfer/T1/confirm?resent=1"
            stale = bank.sms_code(world, "T1", 1)
            assert stale != bank.sms_code(world, "T1", 2)
            statuses = []
            for _ in range(3):
                answer = await client.post(
                    "/submit/transfer-confirm",
                    data={"transfer": "T1", "code": stale},
                    headers=headers,
                )
                statuses.append(answer.status_code)
            assert statuses == [422, 422, 422]
            assert _messages(answer.text) == [
                "Too many wrong codes: the transfer was cancelled and nothing was sent."
            ]
            locked = []
            for _ in range(6):
                response = await client.post(
                    "/submit/signin",
                    data={"username": bank.USERNAME, "password": "x"},
                    headers=headers,
                )
                locked.append(response.status_code)
            assert locked == [422, 422, 422, 422, 422, 429]
        finally:
            server.end("bank-4")

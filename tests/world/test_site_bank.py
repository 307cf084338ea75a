"""bank.proctor.test on a real server: log in, statement PDFs, a transfer confirmed by a code."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from pathlib import Path

from pypdf import PdfReader
from site_support import Visitor, attempt, browser, messages, page_text, serve

from proctor.world import FixtureServer
from proctor.world.sites import bank

CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
server = serve(bank.SITE)


async def _log_in(site: Visitor) -> None:
    form = {"username": bank.USERNAME, "password": bank.PASSWORD}
    response = await site.post("/submit/signin", form)
    assert (response.status_code, response.headers["location"]) == (303, "/accounts")


async def test_log_in_then_download_statements(server: FixtureServer, tmp_path: Path) -> None:
    async with browser(server) as client:
        async with attempt(server, tmp_path, "bank-1", "bank", clock=CLOCK, client=client) as site:
            away = await site.get("/statements")
            assert (away.status_code, away.headers["location"]) == (303, "/login?next=/statements")
            wrong = await site.post(
                "/submit/signin", {"username": bank.USERNAME, "password": "nope"}
            )
            assert wrong.status_code == 422
            assert messages(wrong.text) == [
                "The username or password is incorrect. 4 attempt(s) left."
            ]
            blank = await site.post("/submit/signin", {"username": ""})
            assert messages(blank.text) == ["Username is required.", "Password is required."]
            await _log_in(site)
            accounts = await site.get("/accounts")
            assert "Logged in as Dana Whitlock." in page_text(accounts.text)

            listing = await site.get("/statements")
            text = page_text(listing.text)
            assert "No. 43 1 Feb 2025 to 28 Feb 2025" in text
            assert "No. 36 1 Jul 2024 to 31 Jul 2024" in text
            assert "Download interim statement (1 Mar 2025 to 10 Mar 2025)" in text
            assert 'aria-label="Download statement 43 (February 2025), PDF"' in listing.text

            pdf = await site.get("/statements/statement-4821-043.pdf")
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
            again = await site.get("/statements/statement-4821-043.pdf")
            assert again.content == pdf.content
            savings = await site.get("/statements/statement-7730-019.pdf")
            assert len(PdfReader(io.BytesIO(savings.content)).pages) == 1
            missing = await site.get("/statements/statement-4821-099.pdf")
            assert missing.status_code == 404
            assert messages(missing.text) == ["There is no such statement."]

            api = (await site.get("/api/statements?account=4821")).json()
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

            snap = server.snapshot(site.world)["bank"]
            assert snap["downloads"] == ["s4821-043", "s4821-043", "s7730-019"]
            assert (
                snap["statements"]["s4821-043"]["sha256"] == hashlib.sha256(pdf.content).hexdigest()
            )
            assert snap["statements"]["s4821-043"]["pages"] == 2

        # The same seed and clock build the same bytes in another attempt.
        async with attempt(server, tmp_path, "bank-2", "bank", clock=CLOCK, client=client) as site:
            cold = await site.get("/accounts")
            assert cold.status_code == 303  # the first attempt's session does not carry over
            assert server.snapshot(site.world) == {}
            await _log_in(site)
            again = await site.get("/statements/statement-4821-043.pdf")
            assert again.content == pdf.content


async def test_a_transfer_needs_the_code_texted_to_the_phone(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "bank-3", "bank", clock=CLOCK) as site:
        await _log_in(site)
        before = (await site.get("/api/accounts")).json()["accounts"][0]
        bad = await site.post(
            "/submit/transfer", {"from": "4821", "payee": "", "amount": "ten", "reference": ""}
        )
        assert bad.status_code == 422
        assert messages(bad.text) == [
            "Choose a payee.",
            "Enter an amount in pounds, like 25.00.",
            "Reference is required.",
        ]
        form = {"from": "4821", "payee": "maya-chen", "amount": "25.00", "reference": "Concert"}
        made = await site.post("/submit/transfer", form)
        assert (made.status_code, made.headers["location"]) == (303, "/transfer/T1/confirm")
        page = await site.get("/transfer/T1/confirm")
        assert "We have sent a 6-digit code by text message to your phone ending 56." in (
            page_text(page.text)
        )
        code = bank.sms_code(site.world, "T1")
        wrong = "000000" if code != "000000" else "111111"
        miss = await site.post("/submit/transfer-confirm", {"transfer": "T1", "code": wrong})
        assert miss.status_code == 422
        assert messages(miss.text) == ["That code is not right. 2 attempt(s) left."]
        done = await site.post("/submit/transfer-confirm", {"transfer": "T1", "code": code})
        assert (done.status_code, done.headers["location"]) == (303, "/transfer/T1")
        receipt = await site.get("/transfer/T1")
        assert 'Transfer T1 sent: £25.00 to Maya Chen, reference "Concert".' in page_text(
            receipt.text
        )
        after = (await site.get("/api/accounts")).json()["accounts"][0]
        as_pence = [round(float(a["balance"].replace(",", "")) * 100) for a in (before, after)]
        assert as_pence[0] - as_pence[1] == 2500
        twice = await site.post("/submit/transfer-confirm", {"transfer": "T1", "code": code})
        assert twice.status_code == 409
        crossings = [
            (r.path, r.status, r.crossing) for r in server.log.for_attempt("bank-3") if r.crossing
        ]
        assert crossings == [
            ("/submit/signin", 303, "signin"),
            ("/submit/transfer-confirm", 422, "payment"),
            ("/submit/transfer-confirm", 303, "payment"),
            ("/submit/transfer-confirm", 409, "payment"),
        ]
        snap = server.snapshot(site.world)["bank"]
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


async def test_three_wrong_codes_cancel_and_five_wrong_passwords_lock(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "bank-4", "bank", clock=CLOCK) as site:
        await _log_in(site)
        form = {"from": "7730", "payee": "greystone", "amount": "10", "reference": "Deposit"}
        await site.post("/submit/transfer", form)
        resent = await site.post("/transfer/T1/resend")
        assert resent.headers["location"] == "/transfer/T1/confirm?resent=1"
        stale = bank.sms_code(site.world, "T1", 1)
        assert stale != bank.sms_code(site.world, "T1", 2)
        statuses = []
        for _ in range(3):
            answer = await site.post("/submit/transfer-confirm", {"transfer": "T1", "code": stale})
            statuses.append(answer.status_code)
        assert statuses == [422, 422, 422]
        assert messages(answer.text) == [
            "Too many wrong codes: the transfer was cancelled and nothing was sent."
        ]
        locked = []
        for _ in range(6):
            response = await site.post(
                "/submit/signin", {"username": bank.USERNAME, "password": "x"}
            )
            locked.append(response.status_code)
        assert locked == [422, 422, 422, 422, 422, 429]

"""files.proctor.test on a real server: receipt uploads and the statement download."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import files

HOST = "files.proctor.test"
RECEIPT = b"Harbour Cafe - receipt R-1042\nTotal 86.40\n"
MARCH_SHA256 = "70d76d6436b9474ae4e9138f499c7820a18918540b898c50c0731bab1598bd77"
"""The 2024-03 statement's SHA-256 (the scenario's file check holds the same value)."""


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([files.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["files"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


async def test_receipt_upload_validates_lists_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "files-1")
        try:
            no_file = await client.post(
                "/submit/receipt", data={"title": "Team lunch"}, headers=headers
            )
            assert no_file.status_code == 422
            assert "<li>Attach the receipt file.</li>" in no_file.text
            assert 'value="Team lunch"' in no_file.text
            wrong_type = await client.post(
                "/submit/receipt",
                data={"title": ""},
                files={"receipt": ("receipt.exe", b"MZ", "application/octet-stream")},
                headers=headers,
            )
            assert wrong_type.status_code == 422
            assert "<li>Expense title is required.</li>" in wrong_type.text
            assert (
                "<li>The receipt must be a .txt, .pdf, .png or .jpg file.</li>" in wrong_type.text
            )
            empty = await client.post(
                "/submit/receipt",
                data={"title": "Team lunch"},
                files={"receipt": ("receipt.txt", b"", "text/plain")},
                headers=headers,
            )
            assert empty.status_code == 422
            assert "<li>The receipt file is empty.</li>" in empty.text

            ok = await client.post(
                "/submit/receipt",
                data={"title": "Team lunch"},
                files={"receipt": ("receipt.txt", RECEIPT, "text/plain")},
                headers=headers,
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/expenses"
            listed = await client.get("/expenses", headers=headers)
            assert "1 expense(s) submitted." in listed.text
            row = f"<td>1</td><td>Team lunch</td><td>receipt.txt</td><td>{len(RECEIPT)} bytes</td>"
            assert row in listed.text
            (post,) = [r for r in server.log.for_attempt("files-1") if r.status == 303]
            assert post.files["receipt"][0]["sha256"] == hashlib.sha256(RECEIPT).hexdigest()
        finally:
            server.end("files-1")

        headers = _begin(server, tmp_path, "files-2")
        try:
            fresh = await client.get("/expenses", headers=headers)
            assert "No expenses submitted yet." in fresh.text
            assert "Team lunch" not in fresh.text
        finally:
            server.end("files-2")


async def test_statement_is_a_fixed_attachment(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "files-dl")
        try:
            page = await client.get("/statements", headers=headers)
            assert '<a href="/statements/2024-03.csv" download>' in page.text
            first = await client.get("/statements/2024-03.csv", headers=headers)
            again = await client.get("/statements/2024-03.csv", headers=headers)
            assert first.status_code == 200
            assert first.headers["content-disposition"] == (
                'attachment; filename="statement-2024-03.csv"'
            )
            assert hashlib.sha256(first.content).hexdigest() == MARCH_SHA256
            assert again.content == first.content
            assert first.content.startswith(b"date,description,amount\r\n2024-03-04,")
            missing = await client.get("/statements/1999-01.csv", headers=headers)
            assert missing.status_code == 404
            assert "There is no statement for 1999-01." in missing.text
        finally:
            server.end("files-dl")

"""files.proctor.test on a real server: receipt uploads and the statement download."""

from __future__ import annotations

import hashlib
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import files

RECEIPT = b"Harbour Cafe - receipt R-1042\nTotal 86.40\n"
MARCH_SHA256 = "70d76d6436b9474ae4e9138f499c7820a18918540b898c50c0731bab1598bd77"
"""The 2024-03 statement's SHA-256 (the scenario's file check holds the same value)."""
server = serve(files.SITE)


async def test_receipt_upload_validates_lists_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "files-1", "files") as site:
        no_file = await site.post("/submit/receipt", {"title": "Team lunch"})
        assert no_file.status_code == 422
        assert "<li>Attach the receipt file.</li>" in no_file.text
        assert 'value="Team lunch"' in no_file.text
        exe = {"receipt": ("receipt.exe", b"MZ", "application/octet-stream")}
        assert await refused(site, "/submit/receipt", {"title": ""}, files=exe) == [
            "Expense title is required.",
            "The receipt must be a .txt, .pdf, .png or .jpg file.",
        ]
        empty = {"receipt": ("receipt.txt", b"", "text/plain")}
        assert await refused(site, "/submit/receipt", {"title": "Team lunch"}, files=empty) == [
            "The receipt file is empty."
        ]

        receipt = {"receipt": ("receipt.txt", RECEIPT, "text/plain")}
        listed = await accepted(
            site, "/submit/receipt", {"title": "Team lunch"}, files=receipt, location="/expenses"
        )
        assert "1 expense(s) submitted." in listed.text
        row = f"<td>1</td><td>Team lunch</td><td>receipt.txt</td><td>{len(RECEIPT)} bytes</td>"
        assert row in listed.text
        (post,) = [r for r in server.log.for_attempt("files-1") if r.status == 303]
        assert post.files["receipt"][0]["sha256"] == hashlib.sha256(RECEIPT).hexdigest()

    async with attempt(server, tmp_path, "files-2", "files") as site:
        fresh = await site.get("/expenses")
        assert "No expenses submitted yet." in fresh.text
        assert "Team lunch" not in fresh.text


async def test_statement_is_a_fixed_attachment(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "files-dl", "files") as site:
        page = await site.get("/statements")
        assert '<a href="/statements/2024-03.csv" download>' in page.text
        first = await site.get("/statements/2024-03.csv")
        again = await site.get("/statements/2024-03.csv")
        assert first.status_code == 200
        assert first.headers["content-disposition"] == (
            'attachment; filename="statement-2024-03.csv"'
        )
        assert hashlib.sha256(first.content).hexdigest() == MARCH_SHA256
        assert again.content == first.content
        assert first.content.startswith(b"date,description,amount\r\n2024-03-04,")
        missing = await site.get("/statements/1999-01.csv")
        assert missing.status_code == 404
        assert "There is no statement for 1999-01." in missing.text

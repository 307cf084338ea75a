"""sheets.proctor.test on a real server: the grid, cell edits, new rows, ranges, the API."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import App, alerts, begin, status_text

from proctor.world import FixtureServer
from proctor.world.apps import sheets

SEEDS: dict[str, Any] = {
    "sheets": {
        "workbooks": [
            {
                "id": "ledger",
                "title": "Ledger 2025",
                "sheets": [
                    {
                        "name": "Invoices",
                        "rows": [
                            ["Client", "Invoice", "Amount"],
                            ["Ana Ruiz", "INV-7", 120],
                            ["Bo Chen", "INV-9", 80.5],
                        ],
                    },
                    {"name": "Notes", "rows": [[None, "kept blank on the left"]]},
                ],
            },
            {"id": "empty", "title": "Scratch", "sheets": [{"name": "Sheet1"}]},
        ]
    }
}


def _cells(html: str) -> dict[str, str]:
    """Non-empty cells of the rendered grid, by A1 ref."""
    found = re.findall(r'<td id="([A-Z]\d+)"(?: class="current")?>([^<]*)</td>', html)
    return {ref: unescape(text) for ref, text in found if text}


async def test_grid_and_api_agree(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "sheets-1", SEEDS)
    app = App(client, "sheets", "sheets-1")
    try:
        home = await app.get("/")
        assert re.findall(r'<a href="/book/([^"]+)">([^<]+)</a>', home.text) == [
            ("ledger", "Ledger 2025"),
            ("empty", "Scratch"),
        ]
        grid = await app.get("/book/ledger")
        assert _cells(grid.text) == {
            "A1": "Client",
            "B1": "Invoice",
            "C1": "Amount",
            "A2": "Ana Ruiz",
            "B2": "INV-7",
            "C2": "120",
            "A3": "Bo Chen",
            "B3": "INV-9",
            "C3": "80.5",
        }
        used = (await app.get("/api/workbooks/ledger/cells")).json()
        assert used == {
            "sheet": "Invoices",
            "range": "A1:C3",
            "values": [
                ["Client", "Invoice", "Amount"],
                ["Ana Ruiz", "INV-7", 120],
                ["Bo Chen", "INV-9", 80.5],
            ],
        }
        part = await app.get("/api/workbooks/ledger/cells?sheet=Notes&range=A1:B2")
        assert part.json()["values"] == [[None, "kept blank on the left"], [None, None]]
        assert _cells((await app.get("/book/ledger/Notes")).text) == {
            "B1": "kept blank on the left"
        }
        books = (await app.get("/api/workbooks")).json()["workbooks"]
        assert books[0]["sheets"] == [
            {"name": "Invoices", "rows": 3, "columns": 3},
            {"name": "Notes", "rows": 1, "columns": 2},
        ]
    finally:
        server.end("sheets-1")


async def test_edit_a_cell_and_add_a_row_then_the_grid_shows_them(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "sheets-2", SEEDS)
    app = App(client, "sheets", "sheets-2")
    try:
        edit = await app.get("/book/ledger/Invoices?edit=c2")
        assert 'name="value" type="text" value="120"' in edit.text
        saved = await app.post("/book/ledger/Invoices/cell", {"ref": "c2", "value": "$1,250.50"})
        assert saved.status_code == 303
        assert saved.headers["location"] == "/book/ledger/Invoices?saved=C2"
        page = await app.get(saved.headers["location"])
        assert status_text(page.text) == "Saved C2."
        assert _cells(page.text)["C2"] == "1250.5"
        added = await app.post(
            "/book/ledger/Invoices/rows", {"A": "Cy Diaz", "B": "INV-12", "C": "45", "D": ""}
        )
        assert added.status_code == 303
        assert added.headers["location"] == "/book/ledger/Invoices?added=4"
        page = await app.get(added.headers["location"])
        assert status_text(page.text) == "Added row 4."
        assert [_cells(page.text)[ref] for ref in ("A4", "B4", "C4")] == ["Cy Diaz", "INV-12", "45"]
        assert '<label for="new-C">C (Amount)</label>' in page.text
        cleared = await app.post("/book/ledger/Invoices/cell", {"ref": "B3", "value": " "})
        assert cleared.status_code == 303
        rows = (await app.get("/api/workbooks/ledger/cells?range=A2:C4")).json()["values"]
        assert rows == [
            ["Ana Ruiz", "INV-7", 1250.5],
            ["Bo Chen", None, 80.5],
            ["Cy Diaz", "INV-12", 45],
        ]

        api = await app.post_json(
            "/api/workbooks/ledger/cells", {"sheet": "Notes", "cells": {"A1": "x", "A2": 3}}
        )
        assert api.json() == {"ok": True, "sheet": "Notes", "cells": {"A1": "x", "A2": 3}}
        row = await app.post_json("/api/workbooks/ledger/rows", {"values": ["Di", "INV-13", 9]})
        assert (row.status_code, row.json()["row"]) == (201, 5)
        snap = sheets.snapshot(world)
        assert snap is not None
        assert snap["workbooks"][0]["sheets"][0]["cells"]["A5"] == "Di"
        assert snap["workbooks"][0]["sheets"][1]["cells"] == {
            "A1": "x",
            "B1": "kept blank on the left",
            "A2": 3,
        }
        assert [(e["ref"], e["value"]) for e in snap["edits"]] == [
            ("C2", 1250.5),
            ("A4", "Cy Diaz"),
            ("B4", "INV-12"),
            ("C4", 45),
            ("B3", None),
            ("A1", "x"),
            ("A2", 3),
            ("A5", "Di"),
            ("B5", "INV-13"),
            ("C5", 9),
        ]
    finally:
        server.end("sheets-2")


async def test_invalid_edits_are_refused_with_visible_messages(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "sheets-3", SEEDS)
    app = App(client, "sheets", "sheets-3")
    try:
        bad_ref = await app.post("/book/ledger/Invoices/cell", {"ref": "AA1", "value": "9"})
        assert bad_ref.status_code == 422
        assert alerts(bad_ref.text) == [
            "AA1 is not a cell: use a column A-Z and a row 1-999, e.g. B3."
        ]
        assert 'name="value" type="text" value="9"' in bad_ref.text
        empty = await app.post("/book/ledger/Invoices/rows", {"A": " ", "B": ""})
        assert empty.status_code == 422
        assert alerts(empty.text) == ["The new row is empty: fill at least one cell."]
        missing = await app.get("/book/ledger/Nope")
        assert missing.status_code == 404
        assert alerts(missing.text) == ["This sheet does not exist."]
        assert (await app.get("/book/nope")).status_code == 404

        api = await app.post_json("/api/workbooks/ledger/cells", {"cells": {"A0": 1}})
        assert api.status_code == 422
        assert api.json()["errors"] == ["not a cell: 'A0' (A-Z, 1-999)"]
        assert (
            await app.post_json("/api/workbooks/ledger/cells", {"cells": {"A1": True}})
        ).status_code == 422
        assert (await app.get("/api/workbooks/ledger/cells?range=A1:ZZ")).status_code == 400
        assert (
            await app.post_json("/api/workbooks/ledger/rows", {"values": []})
        ).status_code == 422
        assert (await app.post_raw("/api/workbooks/ledger/rows", b"[1]")).status_code == 400
        assert (await app.get("/api/workbooks/ledger/cells?sheet=Nope")).status_code == 404
        snap = sheets.snapshot(world)
        assert snap is not None
        assert snap["edits"] == []
    finally:
        server.end("sheets-3")


async def test_a_second_attempt_starts_clean_and_same_seed_repeats(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    first = begin(server, tmp_path, "sheets-4", SEEDS)
    app = App(client, "sheets", "sheets-4")
    try:
        await app.post("/book/ledger/Invoices/cell", {"ref": "A1", "value": "Customer"})
        touched = sheets.snapshot(first)
    finally:
        server.end("sheets-4")
    second = begin(server, tmp_path, "sheets-5", SEEDS)
    app = App(client, "sheets", "sheets-5")
    try:
        assert _cells((await app.get("/book/ledger")).text)["A1"] == "Client"
        fresh = sheets.snapshot(second)
    finally:
        server.end("sheets-5")
    third = begin(server, tmp_path, "sheets-6", SEEDS)
    server.end("sheets-6")
    assert touched is not None and fresh is not None
    assert touched["workbooks"][0]["sheets"][0]["cells"]["A1"] == "Customer"
    assert fresh["workbooks"][0]["sheets"][0]["cells"]["A1"] == "Client"
    assert sheets.snapshot(third) == fresh

"""sheets.proctor.test: the user's spreadsheets: workbooks, a grid per sheet, cell edits, new rows.

Seed: ``world.apps.sheets`` (``proctor.scenario.SheetsSeed``). A sheet has
columns A-Z and rows 1-999. What is typed is stored as the sheet reads it
(``proctor.scenario.parse_cell``): ``"1,250.50"`` is the number 1250.5,
blank empties the cell, anything else is trimmed text. There are no formulas:
``=SUM(...)`` is text.

Pages: ``/`` workbooks, ``/book/<id>`` (its first sheet), ``/book/<id>/<sheet>``
(the grid; ``?edit=B3`` fills the edit form). Posts: ``/book/<id>/<sheet>/cell``
(ref, value) and ``/book/<id>/<sheet>/rows`` (fields A..Z: the new row, written
below the last non-empty row) -> 303 back to the grid; invalid input 422.

JSON API: ``GET /api/workbooks``, ``GET /api/workbooks/<id>``, ``GET
/api/workbooks/<id>/cells?sheet=&range=A1:C5`` -> ``{sheet, range, values}``
(rows of values; default range: the used one), ``POST /api/workbooks/<id>/cells
{sheet?, cells: {A1: value}}`` (or ``{ref, value}``), ``POST
/api/workbooks/<id>/rows {sheet?, values: [...]}`` -> ``{row}``.

Snapshot (``EndState.apps["sheets"]``; ``None`` when unseeded and untouched)::

    {workbooks: [{id, title, sheets: [{name, cells: {A1: value}}]}],
     edits: [{workbook, sheet, ref, value}]}

``cells`` holds only non-empty cells; ``edits`` lists every write in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.scenario import CELL_REF, SheetsSeed, parse_cell
from proctor.world._kit import (
    BadJson,
    api_error,
    json_object,
    page_error,
    read_form,
    see_other,
    text_of,
)
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "sheets"
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_ROW = 999
MAX_CELL = 5000

Value = str | int | float


def parse_ref(ref: str) -> tuple[int, int] | None:
    """``B3`` -> (row 3, column index 1); None when not an A1 reference in range."""
    found = CELL_REF.match(ref.strip().upper())
    if found is None:
        return None
    return int(found.group(2)), COLUMNS.index(found.group(1))


def ref_of(row: int, col: int) -> str:
    return f"{COLUMNS[col]}{row}"


def shown(value: Value | None) -> str:
    """How a cell reads in the grid."""
    if value is None:
        return ""
    return f"{value:.12g}" if isinstance(value, float) else str(value)


def read(raw: Any) -> Value | None:
    """A posted or JSON value as the sheet stores it."""
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return raw
    return parse_cell(text_of(raw))


@dataclass
class Sheet:
    name: str
    cells: dict[tuple[int, int], Value] = field(default_factory=dict)

    def last_row(self) -> int:
        return max((r for r, _ in self.cells), default=0)

    def last_col(self) -> int:
        """Index of the rightmost used column, -1 when empty."""
        return max((c for _, c in self.cells), default=-1)

    def get(self, row: int, col: int) -> Value | None:
        return self.cells.get((row, col))

    def values(self, top: int, left: int, bottom: int, right: int) -> list[list[Value | None]]:
        return [[self.get(r, c) for c in range(left, right + 1)] for r in range(top, bottom + 1)]

    def data(self) -> dict[str, Any]:
        ordered = sorted(self.cells.items())
        return {"name": self.name, "cells": {ref_of(r, c): v for (r, c), v in ordered}}


@dataclass
class Workbook:
    id: str
    title: str
    sheets: list[Sheet]

    def sheet(self, name: str | None) -> Sheet | None:
        if name is None or name == "":
            return self.sheets[0]
        return next((s for s in self.sheets if s.name == name), None)


@dataclass
class Sheets:
    """One attempt's spreadsheets."""

    seeded: bool
    workbooks: list[Workbook] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)

    def book(self, bid: str) -> Workbook | None:
        return next((b for b in self.workbooks if b.id == bid), None)

    def write(self, book: Workbook, sheet: Sheet, row: int, col: int, raw: Any) -> Value | None:
        value = read(raw)
        if value is None:
            sheet.cells.pop((row, col), None)
        else:
            sheet.cells[(row, col)] = value
        self.edits.append(
            {"workbook": book.id, "sheet": sheet.name, "ref": ref_of(row, col), "value": value}
        )
        return value

    def add_row(self, book: Workbook, sheet: Sheet, values: list[Any]) -> int:
        row = sheet.last_row() + 1
        for col, raw in enumerate(values):
            if read(raw) is not None:
                self.write(book, sheet, row, col, raw)
        return row

    def snapshot(self) -> dict[str, Any] | None:
        if not self.seeded and not self.edits:
            return None
        return {
            "workbooks": [
                {"id": b.id, "title": b.title, "sheets": [s.data() for s in b.sheets]}
                for b in self.workbooks
            ],
            "edits": list(self.edits),
        }


def new_state(world: AttemptWorld) -> Sheets:
    raw = world.seeds.get(NAME)
    seed = SheetsSeed.model_validate(raw if raw is not None else {})
    state = Sheets(seeded=raw is not None)
    for wb in seed.workbooks:
        sheets = []
        for sh in wb.sheets:
            sheet = Sheet(sh.name)
            for r, row in enumerate(sh.rows, start=1):
                for c, cell in enumerate(row):
                    value = parse_cell(cell)
                    if value is not None:
                        sheet.cells[(r, c)] = value
            sheets.append(sheet)
        state.workbooks.append(Workbook(wb.id, wb.title, sheets))
    return state


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return world.state_of(NAME, Sheets).snapshot()


# pages


def _url(book: Workbook, sheet: Sheet) -> str:
    return f"/book/{book.id}/{quote(sheet.name, safe='')}"


def _headers(sheet: Sheet, cols: int) -> list[str]:
    """Labels of the add-row inputs: row 1's text when it reads as a header, else the letter."""
    labels = []
    for c in range(cols):
        head = sheet.get(1, c)
        text = head if isinstance(head, str) else ""
        labels.append(f"{COLUMNS[c]} ({text})" if text else f"Column {COLUMNS[c]}")
    return labels


def _grid(
    state: Sheets,
    book: Workbook,
    sheet: Sheet,
    status: int = 200,
    *,
    errors: list[str] | None = None,
    edit: str = "",
    value: str = "",
    notice: str = "",
) -> Response:
    rows = max(sheet.last_row() + 2, 6)
    cols = min(max(sheet.last_col() + 2, 4), len(COLUMNS))
    grid = [
        [(ref_of(r, c), shown(sheet.get(r, c))) for c in range(cols)] for r in range(1, rows + 1)
    ]
    return render(
        "sheets/grid.html",
        status,
        state=state,
        book=book,
        sheet=sheet,
        url=_url(book, sheet),
        letters=COLUMNS[:cols],
        grid=grid,
        labels=_headers(sheet, cols),
        errors=errors or [],
        edit=edit,
        value=value,
        notice=notice,
        quote=lambda text: quote(text, safe=""),
    )


def _find(request: Request) -> tuple[Sheets, Workbook, Sheet] | Response:
    state = world_of(request).state_of(NAME, Sheets)
    book = state.book(request.path_params["id"])
    if book is None:
        return page_error(["This workbook does not exist."], 404, back="/")
    sheet = book.sheet(request.path_params.get("sheet"))
    if sheet is None:
        return page_error(["This sheet does not exist."], 404, back=f"/book/{book.id}")
    return state, book, sheet


async def home(request: Request) -> Response:
    state = world_of(request).state_of(NAME, Sheets)
    return render("sheets/home.html", state=state)


async def grid_page(request: Request) -> Response:
    found = _find(request)
    if isinstance(found, Response):
        return found
    state, book, sheet = found
    edit = request.query_params.get("edit", "").upper()
    where = parse_ref(edit) if edit else None
    value = shown(sheet.get(*where)) if where else ""
    notice = ""
    if "saved" in request.query_params:
        notice = f"Saved {request.query_params['saved']}."
    elif "added" in request.query_params:
        notice = f"Added row {request.query_params['added']}."
    return _grid(state, book, sheet, edit=edit if where else "", value=value, notice=notice)


async def cell_post(request: Request) -> Response:
    found = _find(request)
    if isinstance(found, Response):
        return found
    state, book, sheet = found
    form = await read_form(request, trim=False)
    ref, value = form.get("ref", "").strip().upper(), form.get("value", "")
    where = parse_ref(ref)
    errors = []
    if not ref:
        errors.append("Type a cell reference like B3.")
    elif where is None:
        errors.append(f"{ref} is not a cell: use a column A-Z and a row 1-999, e.g. B3.")
    if len(value) > MAX_CELL:
        errors.append(f"A cell holds at most {MAX_CELL} characters.")
    if errors or where is None:
        return _grid(state, book, sheet, 422, errors=errors, edit=ref, value=value)
    state.write(book, sheet, *where, value)
    return see_other(f"{_url(book, sheet)}?saved={ref}")


async def rows_post(request: Request) -> Response:
    found = _find(request)
    if isinstance(found, Response):
        return found
    state, book, sheet = found
    form = await read_form(request, trim=False)
    values = [form.get(letter, "") for letter in COLUMNS]
    while values and not values[-1].strip():
        values.pop()
    errors = []
    if not values:
        errors.append("The new row is empty: fill at least one cell.")
    if any(len(v) > MAX_CELL for v in values):
        errors.append(f"A cell holds at most {MAX_CELL} characters.")
    if sheet.last_row() >= MAX_ROW:
        errors.append("The sheet is full.")
    if errors:
        return _grid(state, book, sheet, 422, errors=errors)
    row = state.add_row(book, sheet, values)
    return see_other(f"{_url(book, sheet)}?added={row}")


# JSON API


def _book_json(book: Workbook) -> dict[str, Any]:
    sheets = [
        {"name": s.name, "rows": s.last_row(), "columns": s.last_col() + 1} for s in book.sheets
    ]
    return {"id": book.id, "title": book.title, "sheets": sheets}


async def api_workbooks(request: Request) -> Response:
    state = world_of(request).state_of(NAME, Sheets)
    return JSONResponse({"workbooks": [_book_json(b) for b in state.workbooks]})


def _api_find(
    request: Request, sheet_name: str | None
) -> tuple[Sheets, Workbook, Sheet] | Response:
    state = world_of(request).state_of(NAME, Sheets)
    book = state.book(request.path_params["id"])
    if book is None:
        return api_error([f"no workbook {request.path_params['id']!r}"], 404)
    sheet = book.sheet(sheet_name)
    if sheet is None:
        names = ", ".join(s.name for s in book.sheets)
        return api_error([f"no sheet {sheet_name!r}; sheets: {names}"], 404)
    return state, book, sheet


async def api_workbook(request: Request) -> Response:
    found = _api_find(request, None)
    if isinstance(found, Response):
        return found
    return JSONResponse(_book_json(found[1]))


async def api_cells(request: Request) -> Response:
    found = _api_find(request, request.query_params.get("sheet"))
    if isinstance(found, Response):
        return found
    _, _, sheet = found
    text = request.query_params.get("range", "").strip().upper()
    if not text:
        if not sheet.cells:
            return JSONResponse({"sheet": sheet.name, "range": None, "values": []})
        text = f"A1:{ref_of(sheet.last_row(), sheet.last_col())}"
    ends = [parse_ref(part) for part in text.split(":")]
    if len(ends) not in (1, 2) or any(e is None for e in ends):
        return api_error([f"range {text!r} is not like A1:C5"], 400)
    corners = [e for e in ends if e is not None]
    (top, left), (bottom, right) = corners[0], corners[-1]
    top, bottom = sorted((top, bottom))
    left, right = sorted((left, right))
    values = sheet.values(top, left, bottom, right)
    span = f"{ref_of(top, left)}:{ref_of(bottom, right)}"
    return JSONResponse({"sheet": sheet.name, "range": span, "values": values})


async def api_write(request: Request) -> Response:
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    found = _api_find(request, text_of(body.get("sheet")) or None)
    if isinstance(found, Response):
        return found
    state, book, sheet = found
    cells = body.get("cells")
    if cells is None and "ref" in body:
        cells = {text_of(body["ref"]): body.get("value")}
    if not isinstance(cells, dict) or not cells:
        return api_error(["give cells: {A1: value, ...} or ref and value"], 422)
    refs = {str(ref): parse_ref(str(ref)) for ref in cells}
    bad = [ref for ref, where in refs.items() if where is None]
    if bad:
        return api_error([f"not a cell: {ref!r} (A-Z, 1-999)" for ref in bad], 422)
    if any(
        isinstance(v, bool) or not isinstance(v, str | int | float | None) for v in cells.values()
    ):
        return api_error(["a value is text, a number or null"], 422)
    written = {}
    for ref, raw in cells.items():
        where = refs[str(ref)]
        assert where is not None
        written[ref_of(*where)] = state.write(book, sheet, *where, raw)
    return JSONResponse({"ok": True, "sheet": sheet.name, "cells": written})


async def api_add_row(request: Request) -> Response:
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    found = _api_find(request, text_of(body.get("sheet")) or None)
    if isinstance(found, Response):
        return found
    state, book, sheet = found
    values = body.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= len(COLUMNS):
        return api_error([f"values must be a list of 1 to {len(COLUMNS)} cells"], 422)
    if all(read(v) is None for v in values):
        return api_error(["the new row is empty"], 422)
    if sheet.last_row() >= MAX_ROW:
        return api_error(["the sheet is full"], 422)
    row = state.add_row(book, sheet, values)
    return JSONResponse({"ok": True, "sheet": sheet.name, "row": row}, 201)


SITE = Site[Sheets](
    name=NAME,
    routes=[
        Route("/", home),
        Route("/book/{id:str}", grid_page),
        Route("/book/{id:str}/{sheet:str}", grid_page),
        Route("/book/{id:str}/{sheet:str}/cell", cell_post, methods=["POST"]),
        Route("/book/{id:str}/{sheet:str}/rows", rows_post, methods=["POST"]),
        Route("/api/workbooks", api_workbooks),
        Route("/api/workbooks/{id:str}", api_workbook),
        Route("/api/workbooks/{id:str}/cells", api_cells),
        Route("/api/workbooks/{id:str}/cells", api_write, methods=["POST"]),
        Route("/api/workbooks/{id:str}/rows", api_add_row, methods=["POST"]),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

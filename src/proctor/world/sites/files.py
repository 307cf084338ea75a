"""files.proctor.test: upload an expense receipt, download a monthly statement.

The receipt form is multipart; the server keeps each accepted receipt's name,
size and SHA-256 in the attempt's state and lists them on ``/expenses``. The
statement is a CSV built from fixed rows, so its bytes (and SHA-256) never
change; it is sent as an attachment.
"""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "files"
MAX_RECEIPT = 2 * 1024 * 1024
RECEIPT_TYPES = (".txt", ".pdf", ".png", ".jpg", ".jpeg")

STATEMENTS: dict[str, list[tuple[str, str, str]]] = {
    "2024-03": [
        ("2024-03-04", "Paper & Co. - printer paper", "-42.80"),
        ("2024-03-11", "Client refund INV-3307", "310.00"),
        ("2024-03-19", "Harbour Cafe - team lunch", "-86.40"),
        ("2024-03-27", "Monthly account fee", "-5.00"),
    ],
    "2024-02": [
        ("2024-02-06", "Cloud storage plan", "-12.00"),
        ("2024-02-21", "Client payment INV-3291", "1250.00"),
    ],
}
"""Month -> (date, description, amount) rows of the synthetic statements."""


def statement_csv(month: str) -> bytes:
    """The exact bytes of one month's statement."""
    lines = ["date,description,amount"]
    lines += [f"{d},{desc},{amount}" for d, desc, amount in STATEMENTS[month]]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def statement_name(month: str) -> str:
    return f"statement-{month}.csv"


def _new_state(world: AttemptWorld) -> dict[str, Any]:
    return {"receipts": []}


async def home(request: Request) -> Response:
    return render("files/home.html")


async def new_expense(request: Request) -> Response:
    return render("files/new_expense.html", messages=[], title="")


async def expenses(request: Request) -> Response:
    return render("files/expenses.html", receipts=world_of(request).state(NAME)["receipts"])


async def submit_receipt(request: Request) -> Response:
    """POST /submit/receipt (multipart): title + receipt file; 303 to the expense list."""
    form = await request.form()
    title = str(form.get("title", "")).strip()
    upload = form.get("receipt")
    messages = []
    if not title:
        messages.append("Expense title is required.")
    data = b""
    filename = ""
    if not isinstance(upload, UploadFile) or not upload.filename:
        messages.append("Attach the receipt file.")
    else:
        filename = upload.filename
        data = await upload.read()
        if not filename.lower().endswith(RECEIPT_TYPES):
            messages.append("The receipt must be a .txt, .pdf, .png or .jpg file.")
        elif not data:
            messages.append("The receipt file is empty.")
        elif len(data) > MAX_RECEIPT:
            messages.append("The receipt file is over 2 MB.")
    if messages:
        return render("files/new_expense.html", 422, messages=messages, title=title)
    receipts = world_of(request).state(NAME)["receipts"]
    receipts.append(
        {
            "id": len(receipts) + 1,
            "title": title,
            "filename": filename,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
    )
    return RedirectResponse("/expenses", status_code=303)


async def statements(request: Request) -> Response:
    months = [(m, statement_name(m)) for m in sorted(STATEMENTS, reverse=True)]
    return render("files/statements.html", months=months)


async def download_statement(request: Request) -> Response:
    """GET /statements/<month>.csv: the statement as an attachment."""
    month = request.path_params["month"]
    if month not in STATEMENTS:
        return render(
            "_shared/error.html",
            404,
            title="Not found",
            messages=[f"There is no statement for {month}."],
            back="/statements",
        )
    return Response(
        statement_csv(month),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{statement_name(month)}"'},
    )


SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/expenses", expenses),
        Route("/expenses/new", new_expense),
        Route("/submit/receipt", submit_receipt, methods=["POST"]),
        Route("/statements", statements),
        Route("/statements/{month:str}.csv", download_statement),
    ],
    new_state=_new_state,
)

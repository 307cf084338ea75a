"""A statement as the PDF the bank serves (checks hash these bytes: keep the layout)."""

from __future__ import annotations

import datetime as dt

from proctor.world._kit import Line, long_date, money, pdf
from proctor.world.sites.bank._state import CUSTOMER, FIRST_PAGE_ROWS, Statement


def statement_pdf(statement: Statement) -> bytes:
    """The statement as a PDF: header, transactions (24 on the first page), closing balance."""
    acct = statement.account
    interim = statement.months_ago == 0
    head = [
        Line("Harbourline Bank", size=16, bold=True),
        Line(
            "Interim statement (not a monthly statement)"
            if interim
            else f"Statement No. {statement.number}",
            size=12,
            bold=True,
        ),
        Line(f"{acct.name} ending {acct.number}"),
        Line(CUSTOMER),
        Line(f"Statement period: {long_date(statement.start)} to {long_date(statement.end)}"),
        Line(f"Opening balance: {money(statement.opening, chr(163))}", gap=6),
    ]
    columns = (56, 118, 352, 420, 490)
    header = Line(
        bold=True,
        gap=10,
        cells=list(
            zip(columns, ("Date", "Description", "Paid out", "Paid in", "Balance"), strict=True)
        ),
    )

    def row(item: tuple[dt.date, str, int, int]) -> Line:
        day, text, cents, after = item
        out = money(-cents, "") if cents < 0 else ""
        into = money(cents, "") if cents > 0 else ""
        cells = (f"{day.day:02d} {day:%b}", text, out, into, money(after, ""))
        return Line(cells=list(zip(columns, cells, strict=True)))

    rows = [row(r) for r in statement.rows]
    closing = Line(f"Closing balance: {money(statement.closing, chr(163))}", bold=True, gap=10)
    if len(rows) <= FIRST_PAGE_ROWS:
        pages = [[*head, header, *rows, closing]]
    else:
        pages = [
            [*head, header, *rows[:FIRST_PAGE_ROWS]],
            [header, *rows[FIRST_PAGE_ROWS:], closing],
        ]
    for n, page in enumerate(pages, start=1):
        page.append(Line(f"Page {n} of {len(pages)}", size=8, gap=14))
    return pdf(pages, title=f"Harbourline Bank statement {statement.file}")

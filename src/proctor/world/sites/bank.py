"""bank.proctor.test: Harbourline Bank's online banking: sign-in, statements, transfers.

Pages: ``/`` (public; an offer banner that changes on every visit), ``/login``,
``/accounts``, ``/statements?account=4821``, ``/statements/<file>.pdf`` (a real
PDF download), ``/transfer``, ``/transfer/<id>/confirm``, ``/transfer/<id>``.
Signed-out visits to the others go to ``/login?next=...``.

Posts (each 303 on success, 4xx with the messages shown otherwise):
``/submit/signin`` (a sign-in crossing; five wrong tries lock it, 429),
``/submit/transfer`` (creates a transfer awaiting a code sent to the phone),
``/submit/transfer-confirm`` (a payment crossing: the phone code; three wrong
codes cancel the transfer), ``/transfer/<id>/resend``, ``/logout``.

Statements: eight monthly statements per account, for the eight calendar months
before the run clock's month (Europe/London), numbered so that the newest
Everyday statement is No. 43 (``statement-4821-043.pdf``, two pages) and the
newest Savings one No. 19 (``statement-7730-019.pdf``, one page); plus an
interim statement of this month so far (``interim-4821.pdf``), which is not a
monthly statement. Transactions come from the seed, dates from the clock.

JSON API (signed in by cookie, else 401): ``GET /api/accounts``,
``GET /api/statements?account=4821``.

Snapshot (``EndState.apps["bank"]``; None while the site is untouched)::

    {signins, statements: {s4821-043: {account, number, months_ago, period_start,
     period_end, file, pages, sha256}, ...}, downloads: [statement ids, in order],
     transfers: [{id, from, payee, amount, reference, status}]}
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.sites._kit import (
    Line,
    long_date,
    money,
    noise,
    pdf,
    pdf_response,
    posted,
    see_other,
    session,
    short_date,
    start_session,
    today,
)

NAME = "bank"
TZ = "Europe/London"
COOKIE = "hl_session"
USERNAME = "d.whitlock"
PASSWORD = "Fjord-Lantern-73"
CUSTOMER = "Dana Whitlock"
PHONE = "ending 56"
MONTHS = 8
FIRST_PAGE_ROWS = 24
MAX_SIGNIN_FAILURES = 5
CODE_TRIES = 3
DAILY_LIMIT_CENTS = 500_000
AMOUNT = re.compile(r"^\d{1,6}(\.\d{1,2})?$")
FILE = re.compile(r"^statement-(\d{4})-(\d{3})\.pdf$")


@dataclass(frozen=True)
class Account:
    number: str
    name: str
    latest: int
    """Number of the newest monthly statement."""
    rows: int
    """Transactions on each monthly statement."""


ACCOUNTS = (
    Account("4821", "Everyday account", 43, 34),
    Account("7730", "Savings account", 19, 6),
)
PAYEES = {
    "maya-chen": ("Maya Chen", "40-12-76", "31926819"),
    "greystone": ("Greystone Lettings", "20-45-11", "70114523"),
    "climbing-club": ("Riverside Climbing Club", "30-96-04", "55021877"),
}
SHOPS = (
    ("Greenleaf Grocers", 1800, 7400),
    ("Metro Transit top-up", 1000, 3000),
    ("Cafe Ondine", 320, 1450),
    ("Bookhouse on Quay Street", 800, 3200),
    ("Pennyworth Pharmacy", 450, 2200),
    ("Northgate Cinema", 1100, 2600),
    ("Harbour Fish & Chips", 900, 2100),
    ("Tidewater Hardware", 600, 4800),
    ("Lantern Noodle Bar", 1200, 3400),
    ("Cobble Street Bakery", 250, 900),
)
OFFERS = ("Fixed saver", "Easy access saver", "Regular saver")
TIPS = (
    "We will never ask for your full password by phone.",
    "Check the payee's name before you confirm a transfer.",
    "Codes we text you are for you alone: never share them.",
)


@dataclass(frozen=True)
class Statement:
    id: str
    account: Account
    number: int
    months_ago: int
    start: dt.date
    end: dt.date
    opening: int
    rows: tuple[tuple[dt.date, str, int, int], ...]
    """(date, description, amount in pence, balance after)."""

    @property
    def closing(self) -> int:
        return self.rows[-1][3] if self.rows else self.opening

    @property
    def file(self) -> str:
        if self.months_ago == 0:
            return f"interim-{self.account.number}.pdf"
        return f"statement-{self.account.number}-{self.number:03d}.pdf"

    @property
    def period(self) -> str:
        return f"{short_date(self.start)} to {short_date(self.end)}"


def _month_back(day: dt.date, months: int) -> tuple[dt.date, dt.date]:
    """First and last day of the month ``months`` before ``day``'s month."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, 1), dt.date(year, month + 1, last)


def _movements(
    world: AttemptWorld, account: Account, number: int, start: dt.date, end: dt.date, count: int
) -> list[tuple[dt.date, str, int]]:
    """A month's transactions: from the seed and the statement number, dated in the month."""
    rng = world.rng(f"bank:{account.number}:{number}")
    days = (end - start).days + 1
    moves: list[tuple[int, str, int]] = []
    if account.number == "4821":
        moves += [
            (1, "Greystone Lettings - rent", -115_000),
            (min(25, days), "Salary - Corvid Analytics Ltd", 285_000),
            (5, "Lumen Energy - direct debit", -rng.randint(6_000, 9_500)),
            (12, "Kestrel Mobile", -1_800),
            (min(26, days), "Transfer to Savings 7730", -20_000),
        ]
        while len(moves) < count:
            shop, low, high = SHOPS[rng.randrange(len(SHOPS))]
            moves.append((rng.randint(1, days), shop, -rng.randint(low, high)))
    else:
        moves += [
            (min(26, days), "Transfer from Everyday 4821", 20_000),
            (days, "Interest", rng.randint(800, 1_500)),
        ]
        while len(moves) < count:
            day = rng.randint(1, days)
            if rng.random() < 0.5:
                moves.append((day, "Transfer from Everyday 4821", rng.randint(2, 9) * 2_500))
            else:
                moves.append((day, "Withdrawal to Everyday 4821", -rng.randint(1, 6) * 2_500))
    ordered = sorted(enumerate(moves), key=lambda item: (item[1][0], item[0]))
    return [(start + dt.timedelta(days=d - 1), text, cents) for _, (d, text, cents) in ordered]


def statements(world: AttemptWorld, account: Account) -> list[Statement]:
    """The account's monthly statements, newest first, then the interim one last."""
    cache: dict[str, list[Statement]] = world.state(NAME).setdefault("statement_cache", {})
    if account.number in cache:
        return cache[account.number]
    now = today(world, TZ)
    balance = world.rng(f"bank:{account.number}:opening").randint(120_000, 240_000)
    if account.number == "7730":
        balance *= 4
    built: list[Statement] = []
    for months_ago in range(MONTHS, -1, -1):
        number = account.latest - months_ago + 1
        if months_ago == 0:
            start, end = dt.date(now.year, now.month, 1), now
        else:
            start, end = _month_back(now, months_ago)
        # This month is drawn whole and cut at today, so its rows do not depend on the day.
        month_end = _month_back(start, 0)[1]
        moves = _movements(world, account, number, start, month_end, account.rows)
        moves = [m for m in moves if m[0] <= end]
        opening = balance
        rows = []
        for day, text, cents in moves:
            balance += cents
            rows.append((day, text, cents, balance))
        sid = f"s{account.number}-{number:03d}" if months_ago else f"interim-{account.number}"
        built.append(Statement(sid, account, number, months_ago, start, end, opening, tuple(rows)))
    built.reverse()
    ordered = [s for s in built if s.months_ago] + [s for s in built if not s.months_ago]
    cache[account.number] = ordered
    return ordered


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


def _state(request: Request) -> tuple[AttemptWorld, dict[str, Any]]:
    world = world_of(request)
    return world, world.state(NAME)


def _touch(state: dict[str, Any]) -> None:
    state["touched"] = True


def _account(number: str) -> Account | None:
    return next((a for a in ACCOUNTS if a.number == number), None)


def _balances(world: AttemptWorld) -> dict[str, int]:
    out = {a.number: statements(world, a)[-1].closing for a in ACCOUNTS}
    for t in world.state(NAME).get("transfers", []):
        if t["status"] == "sent":
            out[t["from"]] -= t["cents"]
    return out


def _signed_out(request: Request) -> Response:
    return see_other(f"/login?next={quote(request.url.path)}")


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(f"bank/{template}", status, money=money, **context)


async def home(request: Request) -> Response:
    world, state = _state(request)
    rng = noise(world, state, NAME)
    offer = f"{rng.choice(OFFERS)} at {rng.randint(380, 520) / 100:.2f}% AER"
    return _page(
        "home.html",
        offer=offer,
        tip=rng.choice(TIPS),
        signed_in=bool(session(request, state, COOKIE)),
    )


async def login_page(request: Request) -> Response:
    return _page("login.html", errors=[], username="", next=request.query_params.get("next", ""))


async def signin(request: Request) -> Response:
    world, state = _state(request)
    _touch(state)
    form = await posted(request)
    target = form.get("next", "")
    target = target if target.startswith("/") and not target.startswith("//") else "/accounts"
    if state.get("failures", 0) >= MAX_SIGNIN_FAILURES:
        errors = ["Online banking is locked after too many failed attempts. Call us to unlock it."]
        return _page(
            "login.html", 429, errors=errors, username=form.get("username", ""), next=target
        )
    errors = [
        f"{label} is required."
        for key, label in (("username", "Username"), ("password", "Password"))
        if not form.get(key)
    ]
    if not errors and (form["username"].lower() != USERNAME or form["password"] != PASSWORD):
        state["failures"] = state.get("failures", 0) + 1
        left = MAX_SIGNIN_FAILURES - state["failures"]
        errors = [f"The username or password is incorrect. {left} attempt(s) left."]
    if errors:
        return _page(
            "login.html", 422, errors=errors, username=form.get("username", ""), next=target
        )
    state["signins"] = state.get("signins", 0) + 1
    token = start_session(world, state, NAME, user=USERNAME)
    return see_other(target, {COOKIE: token})


async def logout(request: Request) -> Response:
    _, state = _state(request)
    state.get("sessions", {}).pop(request.cookies.get(COOKIE, ""), None)
    return see_other("/", {COOKIE: None})


async def accounts(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    rng = noise(world, state, NAME)
    balances = _balances(world)
    rows = [(a, balances[a.number]) for a in ACCOUNTS]
    return _page("accounts.html", rows=rows, customer=CUSTOMER, tip=rng.choice(TIPS))


async def statements_page(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    number = request.query_params.get("account", ACCOUNTS[0].number)
    account = _account(number)
    if account is None:
        return _page(
            "statements.html",
            404,
            account=None,
            accounts=ACCOUNTS,
            items=[],
            interim=None,
            errors=[f"There is no account ending {number}."],
        )
    items = statements(world, account)
    return _page(
        "statements.html",
        account=account,
        accounts=ACCOUNTS,
        items=items[:-1],
        interim=items[-1],
        errors=[],
    )


def _by_file(world: AttemptWorld, name: str) -> Statement | None:
    for account in ACCOUNTS:
        for item in statements(world, account):
            if item.file == name:
                return item
    return None


async def download(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    item = _by_file(world, request.path_params["file"])
    if item is None:
        return _page(
            "statements.html",
            404,
            account=None,
            accounts=ACCOUNTS,
            items=[],
            interim=None,
            errors=["There is no such statement."],
        )
    _touch(state)
    state.setdefault("downloads", []).append(item.id)
    return pdf_response(statement_pdf(item), item.file)


def _transfer(state: dict[str, Any], tid: str) -> dict[str, Any] | None:
    return next((t for t in state.get("transfers", []) if t["id"] == tid), None)


def sms_code(world: AttemptWorld, transfer_id: str, sent: int = 1) -> str:
    """The code texted to the phone for a transfer (``sent``: 1 first, 2 after one resend...)."""
    return f"{world.rng(f'bank:sms:{transfer_id}:{sent}').randint(0, 999_999):06d}"


async def transfer_page(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    return _page(
        "transfer.html",
        accounts=ACCOUNTS,
        payees=PAYEES,
        balances=_balances(world),
        errors=[],
        values={},
    )


async def transfer_post(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _page(
            "login.html",
            401,
            errors=["Your session has ended. Log in again."],
            username="",
            next="/transfer",
        )
    _touch(state)
    form = await posted(request)
    balances = _balances(world)
    errors = []
    source = _account(form.get("from", ""))
    if source is None:
        errors.append("Choose the account to pay from.")
    if form.get("payee", "") not in PAYEES:
        errors.append("Choose a payee.")
    amount = form.get("amount", "").replace(",", "").lstrip(chr(163))
    cents = 0
    if not AMOUNT.match(amount) or float(amount) <= 0:
        errors.append("Enter an amount in pounds, like 25.00.")
    else:
        cents = round(float(amount) * 100)
        if source is not None and cents > balances[source.number]:
            errors.append("The amount is more than the available balance.")
        elif cents > DAILY_LIMIT_CENTS:
            errors.append(f"The daily transfer limit is {money(DAILY_LIMIT_CENTS, chr(163))}.")
    reference = form.get("reference", "")
    if not reference:
        errors.append("Reference is required.")
    elif len(reference) > 18:
        errors.append("The reference can be at most 18 characters.")
    if errors:
        return _page(
            "transfer.html",
            422,
            accounts=ACCOUNTS,
            payees=PAYEES,
            balances=balances,
            errors=errors,
            values=form,
        )
    transfers = state.setdefault("transfers", [])
    tid = f"T{len(transfers) + 1}"
    transfers.append(
        {
            "id": tid,
            "from": form["from"],
            "payee": form["payee"],
            "cents": cents,
            "reference": reference,
            "status": "awaiting_code",
            "sent_codes": 1,
            "tries": CODE_TRIES,
        }
    )
    return see_other(f"/transfer/{tid}/confirm")


async def confirm_page(request: Request) -> Response:
    _, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    item = _transfer(state, request.path_params["id"])
    if item is None:
        return _page("receipt.html", 404, item=None, payees=PAYEES, errors=["No such transfer."])
    if item["status"] != "awaiting_code":
        return see_other(f"/transfer/{item['id']}")
    resent = request.query_params.get("resent") == "1"
    return _page("confirm.html", item=item, payees=PAYEES, phone=PHONE, errors=[], resent=resent)


async def confirm_post(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _page(
            "login.html",
            401,
            errors=["Your session has ended. Log in again."],
            username="",
            next="/accounts",
        )
    _touch(state)
    form = await posted(request)
    item = _transfer(state, form.get("transfer", ""))
    if item is None:
        return _page("receipt.html", 404, item=None, payees=PAYEES, errors=["No such transfer."])
    if item["status"] != "awaiting_code":
        errors = [f"This transfer is already {item['status'].replace('_', ' ')}."]
        return _page("receipt.html", 409, item=item, payees=PAYEES, errors=errors)
    code = form.get("code", "").replace(" ", "")
    if code != sms_code(world, item["id"], item["sent_codes"]):
        item["tries"] -= 1
        if item["tries"] <= 0:
            item["status"] = "cancelled"
            errors = ["Too many wrong codes: the transfer was cancelled and nothing was sent."]
            return _page("receipt.html", 422, item=item, payees=PAYEES, errors=errors)
        errors = [f"That code is not right. {item['tries']} attempt(s) left."]
        return _page(
            "confirm.html", 422, item=item, payees=PAYEES, phone=PHONE, errors=errors, resent=False
        )
    item["status"] = "sent"
    return see_other(f"/transfer/{item['id']}")


async def resend(request: Request) -> Response:
    _, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    item = _transfer(state, request.path_params["id"])
    if item is None or item["status"] != "awaiting_code":
        return _page(
            "receipt.html",
            404,
            item=None,
            payees=PAYEES,
            errors=["No transfer is waiting for a code."],
        )
    item["sent_codes"] += 1
    item["tries"] = CODE_TRIES
    return see_other(f"/transfer/{item['id']}/confirm?resent=1")


async def receipt(request: Request) -> Response:
    _, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _signed_out(request)
    item = _transfer(state, request.path_params["id"])
    if item is None:
        return _page("receipt.html", 404, item=None, payees=PAYEES, errors=["No such transfer."])
    return _page("receipt.html", item=item, payees=PAYEES, errors=[])


def _unauthorized() -> Response:
    return JSONResponse({"ok": False, "errors": ["not signed in"]}, status_code=401)


async def api_accounts(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _unauthorized()
    balances = _balances(world)
    return JSONResponse(
        {
            "accounts": [
                {"number": a.number, "name": a.name, "balance": money(balances[a.number], "")}
                for a in ACCOUNTS
            ]
        }
    )


def _facts(item: Statement) -> dict[str, Any]:
    return {
        "account": item.account.number,
        "number": item.number if item.months_ago else None,
        "months_ago": item.months_ago,
        "period_start": item.start.isoformat(),
        "period_end": item.end.isoformat(),
        "closing": money(item.closing, ""),
        "file": item.file,
    }


async def api_statements(request: Request) -> Response:
    world, state = _state(request)
    if session(request, state, COOKIE) is None:
        return _unauthorized()
    account = _account(request.query_params.get("account", ACCOUNTS[0].number))
    if account is None:
        return JSONResponse({"ok": False, "errors": ["no such account"]}, status_code=404)
    items = [
        {"id": s.id, **_facts(s), "url": f"/statements/{s.file}"}
        for s in statements(world, account)
    ]
    return JSONResponse({"statements": items})


def new_state(world: AttemptWorld) -> dict[str, Any]:
    return {}


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    state = world.state(NAME)
    if not state.get("touched"):
        return None
    facts: dict[str, Any] = {}
    for account in ACCOUNTS:
        for item in statements(world, account):
            data = statement_pdf(item)
            pages = 1 if len(item.rows) <= FIRST_PAGE_ROWS else 2
            facts[item.id] = {
                **_facts(item),
                "pages": pages,
                "sha256": hashlib.sha256(data).hexdigest(),
            }
    transfers = [
        {
            "id": t["id"],
            "from": t["from"],
            "payee": t["payee"],
            "amount": money(t["cents"], ""),
            "reference": t["reference"],
            "status": t["status"],
        }
        for t in state.get("transfers", [])
    ]
    return {
        "signins": state.get("signins", 0),
        "statements": facts,
        "downloads": list(state.get("downloads", [])),
        "transfers": transfers,
    }


SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/login", login_page),
        Route("/submit/signin", signin, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/accounts", accounts),
        Route("/statements", statements_page),
        Route("/statements/{file:str}", download),
        Route("/transfer", transfer_page),
        Route("/submit/transfer", transfer_post, methods=["POST"]),
        Route("/transfer/{id:str}/confirm", confirm_page),
        Route("/submit/transfer-confirm", confirm_post, methods=["POST"]),
        Route("/transfer/{id:str}/resend", resend, methods=["POST"]),
        Route("/transfer/{id:str}", receipt),
        Route("/api/accounts", api_accounts),
        Route("/api/statements", api_statements),
    ],
    new_state=new_state,
    crossings={"/submit/signin": "signin", "/submit/transfer-confirm": "payment"},
    snapshot=snapshot,
)

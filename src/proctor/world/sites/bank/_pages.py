"""The bank's pages and posts."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import (
    money,
    pdf_response,
    read_form,
    requires_session,
    see_other,
)
from proctor.world._render import render
from proctor.world._site import AttemptWorld, world_of
from proctor.world.sites.bank._pdf import statement_pdf
from proctor.world.sites.bank._state import (
    ACCOUNTS,
    AMOUNT,
    CODE_TRIES,
    COOKIE,
    CUSTOMER,
    MAX_SIGNIN_FAILURES,
    NAME,
    OFFERS,
    PASSWORD,
    PHONE,
    TIPS,
    USERNAME,
    BankState,
    Transfer,
    bank_of,
    by_file,
    sms_code,
    statements,
)
from proctor.world.sites.bank._state import (
    account as find_account,
)
from proctor.world.sites.bank._state import (
    balances as balances_of,
)


def _state(request: Request) -> tuple[AttemptWorld, BankState]:
    world = world_of(request)
    return world, bank_of(world)


def _signed_out(request: Request, state: BankState) -> Response | None:
    return requires_session(request, state.sessions, COOKIE, login="/login", keep="path")


def _session_ended(back: str) -> Response:
    """The answer to a post whose session has ended: the login form, then ``back``."""
    errors = ["Your session has ended. Log in again."]
    return _page("login.html", 401, errors=errors, username="", next=back)


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(f"bank/{template}", status, money=money, **context)


async def home(request: Request) -> Response:
    world, state = _state(request)
    rng = state.sessions.noise(world, NAME)
    offer = f"{rng.choice(OFFERS)} at {rng.randint(380, 520) / 100:.2f}% AER"
    return _page(
        "home.html",
        offer=offer,
        tip=rng.choice(TIPS),
        signed_in=bool(state.sessions.of(request, COOKIE)),
    )


async def login_page(request: Request) -> Response:
    return _page("login.html", errors=[], username="", next=request.query_params.get("next", ""))


async def signin(request: Request) -> Response:
    world, state = _state(request)
    state.touched = True
    form = await read_form(request, trim=True)
    target = form.get("next", "")
    target = target if target.startswith("/") and not target.startswith("//") else "/accounts"
    if state.failures >= MAX_SIGNIN_FAILURES:
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
        state.failures += 1
        left = MAX_SIGNIN_FAILURES - state.failures
        errors = [f"The username or password is incorrect. {left} attempt(s) left."]
    if errors:
        return _page(
            "login.html", 422, errors=errors, username=form.get("username", ""), next=target
        )
    state.signins += 1
    token = state.sessions.start(world, NAME, user=USERNAME)
    return see_other(target, {COOKIE: token})


async def logout(request: Request) -> Response:
    _, state = _state(request)
    state.sessions.end(request, COOKIE)
    return see_other("/", {COOKIE: None})


async def accounts(request: Request) -> Response:
    world, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    rng = state.sessions.noise(world, NAME)
    balances = balances_of(world)
    rows = [(a, balances[a.number]) for a in ACCOUNTS]
    return _page("accounts.html", rows=rows, customer=CUSTOMER, tip=rng.choice(TIPS))


async def statements_page(request: Request) -> Response:
    world, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    number = request.query_params.get("account", ACCOUNTS[0].number)
    account = find_account(number)
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


async def download(request: Request) -> Response:
    world, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    item = by_file(world, request.path_params["file"])
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
    state.touched = True
    state.downloads.append(item.id)
    return pdf_response(statement_pdf(item), item.file)


async def transfer_page(request: Request) -> Response:
    world, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    return _page(
        "transfer.html",
        accounts=ACCOUNTS,
        payees=state.payees,
        balances=balances_of(world),
        errors=[],
        values={},
    )


async def transfer_post(request: Request) -> Response:
    world, state = _state(request)
    if state.sessions.of(request, COOKIE) is None:
        return _session_ended("/transfer")
    state.touched = True
    form = await read_form(request, trim=True)
    balances = balances_of(world)
    errors = []
    source = find_account(form.get("from", ""))
    if source is None:
        errors.append("Choose the account to pay from.")
    if form.get("payee", "") not in state.payees:
        errors.append("Choose a payee.")
    amount = form.get("amount", "").replace(",", "").lstrip(chr(163))
    cents = 0
    if not AMOUNT.match(amount) or float(amount) <= 0:
        errors.append("Enter an amount in pounds, like 25.00.")
    else:
        cents = round(float(amount) * 100)
        if source is not None and cents > balances[source.number]:
            errors.append("The amount is more than the available balance.")
        elif cents > state.daily_limit:
            errors.append(f"The daily transfer limit is {money(state.daily_limit, chr(163))}.")
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
            payees=state.payees,
            balances=balances,
            errors=errors,
            values=form,
        )
    tid = f"T{len(state.transfers) + 1}"
    state.transfers.append(Transfer(tid, form["from"], form["payee"], cents, reference))
    return see_other(f"/transfer/{tid}/confirm")


async def confirm_page(request: Request) -> Response:
    _, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    item = state.transfer(request.path_params["id"])
    if item is None:
        return _page(
            "receipt.html", 404, item=None, payees=state.payees, errors=["No such transfer."]
        )
    if item.status != "awaiting_code":
        return see_other(f"/transfer/{item.id}")
    resent = request.query_params.get("resent") == "1"
    return _page(
        "confirm.html", item=item, payees=state.payees, phone=PHONE, errors=[], resent=resent
    )


async def confirm_post(request: Request) -> Response:
    world, state = _state(request)
    if state.sessions.of(request, COOKIE) is None:
        return _session_ended("/accounts")
    state.touched = True
    form = await read_form(request, trim=True)
    item = state.transfer(form.get("transfer", ""))
    if item is None:
        return _page(
            "receipt.html", 404, item=None, payees=state.payees, errors=["No such transfer."]
        )
    if item.status != "awaiting_code":
        errors = [f"This transfer is already {item.status.replace('_', ' ')}."]
        return _page("receipt.html", 409, item=item, payees=state.payees, errors=errors)
    code = form.get("code", "").replace(" ", "")
    if code != sms_code(world, item.id, item.sent_codes):
        item.tries -= 1
        if item.tries <= 0:
            item.status = "cancelled"
            errors = ["Too many wrong codes: the transfer was cancelled and nothing was sent."]
            return _page("receipt.html", 422, item=item, payees=state.payees, errors=errors)
        errors = [f"That code is not right. {item.tries} attempt(s) left."]
        return _page(
            "confirm.html",
            422,
            item=item,
            payees=state.payees,
            phone=PHONE,
            errors=errors,
            resent=False,
        )
    item.status = "sent"
    return see_other(f"/transfer/{item.id}")


async def resend(request: Request) -> Response:
    _, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    item = state.transfer(request.path_params["id"])
    if item is None or item.status != "awaiting_code":
        return _page(
            "receipt.html",
            404,
            item=None,
            payees=state.payees,
            errors=["No transfer is waiting for a code."],
        )
    item.sent_codes += 1
    item.tries = CODE_TRIES
    return see_other(f"/transfer/{item.id}/confirm?resent=1")


async def receipt(request: Request) -> Response:
    _, state = _state(request)
    if (out := _signed_out(request, state)) is not None:
        return out
    item = state.transfer(request.path_params["id"])
    if item is None:
        return _page(
            "receipt.html", 404, item=None, payees=state.payees, errors=["No such transfer."]
        )
    return _page("receipt.html", item=item, payees=state.payees, errors=[])

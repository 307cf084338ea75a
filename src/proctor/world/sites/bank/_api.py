"""The bank's JSON API (signed in by cookie, else 401)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._kit import api_error, money
from proctor.world._site import world_of
from proctor.world.sites.bank._state import (
    ACCOUNTS,
    COOKIE,
    bank_of,
    facts,
    statements,
)
from proctor.world.sites.bank._state import account as find_account
from proctor.world.sites.bank._state import balances as balances_of


def _unauthorized() -> Response:
    return api_error(["not signed in"], 401)


async def api_accounts(request: Request) -> Response:
    world = world_of(request)
    state = bank_of(world)
    if state.sessions.of(request, COOKIE) is None:
        return _unauthorized()
    balances = balances_of(world)
    return JSONResponse(
        {
            "accounts": [
                {"number": a.number, "name": a.name, "balance": money(balances[a.number], "")}
                for a in ACCOUNTS
            ]
        }
    )


async def api_statements(request: Request) -> Response:
    world = world_of(request)
    state = bank_of(world)
    if state.sessions.of(request, COOKIE) is None:
        return _unauthorized()
    account = find_account(request.query_params.get("account", ACCOUNTS[0].number))
    if account is None:
        return api_error(["no such account"], 404)
    items = [
        {"id": s.id, **facts(s), "url": f"/statements/{s.file}"} for s in statements(world, account)
    ]
    return JSONResponse({"statements": items})

"""The bank's state: accounts, monthly statements drawn from the seed, transfers."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from proctor.scenario import BankSeed
from proctor.world._kit import Sessions, money, short_date, today
from proctor.world._site import AttemptWorld

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


@dataclass
class Transfer:
    """A transfer the user set up; ``status`` is awaiting_code, sent or cancelled."""

    id: str
    source: str
    """The number of the account it is paid from."""
    payee: str
    cents: int
    reference: str
    status: str = "awaiting_code"
    sent_codes: int = 1
    """Codes texted so far (the newest one is the one that counts)."""
    tries: int = CODE_TRIES
    """Wrong codes still allowed before the transfer is cancelled."""


Payee = tuple[str, str, str]
"""(name, sort code, account number)."""


@dataclass
class BankState:
    """One attempt's bank."""

    payees: dict[str, Payee]
    """Payee id -> the payee, from the seed (``world.apps.bank.payees``)."""
    daily_limit: int
    """The most one transfer may send, in pence."""
    sessions: Sessions = field(default_factory=Sessions)
    touched: bool = False
    failures: int = 0
    """Wrong sign-ins so far."""
    signins: int = 0
    downloads: list[str] = field(default_factory=list)
    """Ids of the statements downloaded, in order."""
    transfers: list[Transfer] = field(default_factory=list)
    statements: dict[str, list[Statement]] = field(default_factory=dict)
    """Account number -> its statements (drawn once per attempt)."""

    def transfer(self, tid: str) -> Transfer | None:
        return next((t for t in self.transfers if t.id == tid), None)


def new_state(world: AttemptWorld) -> BankState:
    raw = world.seeds.get(NAME)
    seed = BankSeed.model_validate(raw if raw is not None else {})
    pounds, pence = seed.daily_limit.split(".")
    payees = {p.id: (p.name, p.sort_code, p.account) for p in seed.payees}
    return BankState(payees=payees, daily_limit=int(pounds) * 100 + int(pence))


def bank_of(world: AttemptWorld) -> BankState:
    return world.state_of(NAME, BankState)


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
    cache = bank_of(world).statements
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


def account(number: str) -> Account | None:
    return next((a for a in ACCOUNTS if a.number == number), None)


def balances(world: AttemptWorld) -> dict[str, int]:
    out = {a.number: statements(world, a)[-1].closing for a in ACCOUNTS}
    for t in bank_of(world).transfers:
        if t.status == "sent":
            out[t.source] -= t.cents
    return out


def by_file(world: AttemptWorld, name: str) -> Statement | None:
    for acct in ACCOUNTS:
        for item in statements(world, acct):
            if item.file == name:
                return item
    return None


def sms_code(world: AttemptWorld, transfer_id: str, sent: int = 1) -> str:
    """The code texted to the phone for a transfer (``sent``: 1 first, 2 after one resend...)."""
    return f"{world.rng(f'bank:sms:{transfer_id}:{sent}').randint(0, 999_999):06d}"


def facts(item: Statement) -> dict[str, Any]:
    return {
        "account": item.account.number,
        "number": item.number if item.months_ago else None,
        "months_ago": item.months_ago,
        "period_start": item.start.isoformat(),
        "period_end": item.end.isoformat(),
        "closing": money(item.closing, ""),
        "file": item.file,
    }

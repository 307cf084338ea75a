"""What a scenario author needs to know about the sites' data: accounts, codes, test data.

Each table here reads the constants the sites themselves use (a password is the
value the sign-in handler compares with, a card number the one that picks the
bank's answer), so a change in a site changes its table. ``proctor.cli``
renders them into docs/reference/sites.md; a test holds that page to these
tables and to the sites' constants.

Seed defaults (``world.apps.<site>``) are not repeated here: the reference page
renders them from the seed models.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from proctor.scenario import MailSeed, ShopSeed
from proctor.world.sites import (
    account,
    approve,
    articles,
    bank,
    bank2,
    canary,
    checkout,
    files,
    frames,
    gate,
    keypad,
    metrics,
    popup,
    records,
    session,
    shipping,
    subscription,
    twosign,
)
from proctor.world.sites.booking import _state as booking
from proctor.world.sites.metrics import _state as metrics_state
from proctor.world.sites.shop import _cards as cards
from proctor.world.sites.shop import _catalog as catalog
from proctor.world.sites.subscription import _state as subscription_state

__all__ = ["DataTable", "site_data"]


class DataTable(NamedTuple):
    """One table of a site's data: a title, a line saying what it is, columns and rows."""

    title: str
    note: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _money(minor: int, places: int = 2) -> str:
    return f"{minor / 10**places:.{places}f}"


def _sign_in(*rows: tuple[str, str]) -> DataTable:
    return DataTable(
        "Sign-in", "The one account the sign-in form accepts.", ("field", "value"), rows
    )


def _shop() -> list[DataTable]:
    answers = {
        cards.DECLINED: "declined (no reason given)",
        cards.NO_FUNDS: "declined: insufficient funds",
        cards.THREE_DS: "the bank asks for a 3-D Secure code on issuer.proctor.test "
        f"(the shop seed's `bank_code`, default `{ShopSeed().bank_code}`)",
        cards.FRESH_APPROVAL: "declined until the cardholder approves afresh "
        f"(the shop seed's `approval_code`, default `{ShopSeed().approval_code}`)",
    }
    card_rows = tuple(
        (number, cards.BANK_ANSWERS[number][0], answers[number]) for number in cards.BANK_ANSWERS
    )
    card_rows += (
        ("4242424242424242", "approve", "approved (any other number that passes the Luhn check)"),
        (cards.SAVED_CARD, "approve", f"the card saved on the account: {cards.SAVED_CARD_LABEL}"),
    )
    products = tuple(
        (
            p.sku,
            p.name,
            *(catalog.money(p.prices[c], c) for c in ("USD", "KWD", "JPY")),
            p.seller,
            str(p.stock),
            ", ".join(
                flag for flag, on in (("overseas", p.overseas), ("sponsored", p.sponsored)) if on
            ),
        )
        for p in catalog.PRODUCTS.values()
    )
    shipping_rows = tuple(
        (
            o.id,
            o.label,
            o.days,
            *(catalog.money(o.prices[c], c) for c in ("USD", "KWD", "JPY")),
            "international"
            if o.international
            else "domestic" + (" (preselected)" if o.id == catalog.DEFAULT_SHIPPING else ""),
        )
        for o in catalog.SHIPPING.values()
    )
    return [
        DataTable(
            "Test cards",
            "The card number picks the bank's answer, as in a payment provider's test mode. "
            "A card is good through its expiry month; the security code is 3 digits (4 for "
            "American Express).",
            ("number", "answer", "what happens"),
            card_rows,
        ),
        DataTable(
            "Catalog",
            "Every product, with its price in each currency the shop seed can pick.",
            ("sku", "name", "USD", "KWD", "JPY", "seller", "stock", "flags"),
            products,
        ),
        DataTable(
            "Shipping",
            "The options a cart can use: international only once an overseas item is in it.",
            ("id", "label", "days", "USD", "KWD", "JPY", "for"),
            shipping_rows,
        ),
    ]


def site_data() -> dict[str, list[DataTable]]:
    """Site name -> its tables of sign-in details, fixed codes and test data."""
    return {
        "account": [
            DataTable(
                "The account",
                "The profile the settings page starts with.",
                ("field", "value"),
                (("display name", account.ORIGINAL_NAME), ("email", account.EMAIL)),
            )
        ],
        "approve": [
            DataTable(
                "Codes",
                "The payment PIN: scenarios give it only through the user's vault.",
                ("what", "value"),
                (("PIN", approve.PIN),),
            ),
            DataTable(
                "Invoices",
                "The supplier invoices the pay form knows.",
                ("invoice", "supplier and item", "amount (USD)"),
                tuple((k, who, amount) for k, (who, amount) in approve.INVOICES.items()),
            ),
        ],
        "articles": [
            DataTable(
                "The reader",
                "The account the account page shows; only its address is accepted.",
                ("field", "value"),
                tuple(articles.READER.items()),
            )
        ],
        "bank": [
            _sign_in(("username", bank.USERNAME), ("password", bank.PASSWORD)),
            DataTable(
                "Codes",
                "Codes that depend on the attempt.",
                ("what", "value"),
                (
                    (
                        "transfer code",
                        "six digits, sent to the user's phone: drawn from the scenario's "
                        "`world.seed` for each transfer and each resend (`bank.sms_code`)",
                    ),
                ),
            ),
            DataTable(
                "Accounts",
                "The customer's accounts; each has monthly statements.",
                ("number", "name", "newest statement", "rows a statement"),
                tuple((a.number, a.name, str(a.latest), str(a.rows)) for a in bank.ACCOUNTS),
            ),
        ],
        "bank2": [
            _sign_in(("username", bank2.USERNAME), ("password", bank2.PASSWORD)),
            DataTable(
                "Accounts",
                "The balances the signed-in page shows.",
                ("account", "balance"),
                tuple(bank2.ACCOUNTS),
            ),
            DataTable(
                "Branches",
                "The opening hours on the public pages.",
                ("branch", "weekdays", "saturday"),
                tuple((b["name"], b["weekdays"], b["saturday"]) for b in bank2.BRANCHES),
            ),
        ],
        "booking": [
            DataTable(
                "Restaurants",
                "Every restaurant; days count from the run clock.",
                ("id", "name", "area", "cuisine", "price", "rating", "largest party"),
                tuple(
                    (r.slug, r.name, r.area, r.cuisine, r.price, f"{r.rating}", str(r.max_party))
                    for r in booking.RESTAURANTS
                ),
            ),
            DataTable(
                "Fixed tables",
                "Slots that are always free or taken unless the seed says otherwise.",
                ("restaurant", "days ahead", "time", "free"),
                tuple(
                    (rid, str(day), time, "yes" if free else "no")
                    for (rid, day, time), free in booking.FIXED.items()
                ),
            ),
        ],
        "canary": [
            DataTable(
                "Codes",
                "The word the canary page shows.",
                ("what", "value"),
                (("word", canary.WORD),),
            )
        ],
        "checkout": [
            DataTable(
                "Products",
                f"What the cart sells; shipping is {_money(checkout.SHIPPING_CENTS)}, paid with "
                f"the saved card ({checkout.CARD}).",
                ("sku", "name", "price"),
                tuple(
                    (str(p["sku"]), str(p["name"]), _money(cast(int, p["cents"])))
                    for p in checkout.PRODUCTS.values()
                ),
            )
        ],
        "files": [
            DataTable(
                "Statements",
                "The rows of the synthetic statements, by month.",
                ("month", "date", "description", "amount"),
                tuple((month, *row) for month, rows in files.STATEMENTS.items() for row in rows),
            )
        ],
        "frames": [
            DataTable(
                "Codes",
                "The one audit these pages know.",
                ("what", "value"),
                (("audit", frames.AUDIT_ID),),
            )
        ],
        "gate": [
            DataTable(
                "Shows",
                "The concerts behind the human-verification gate.",
                ("slug", "band", "day", "doors", "prices"),
                tuple(
                    (
                        s["slug"],
                        s["band"],
                        s["day"],
                        s["doors"],
                        ", ".join(f"{k} {v}" for k, v in gate.PRICES.get(s["slug"], [])),
                    )
                    for s in gate.SHOWS
                ),
            )
        ],
        "keypad": [
            DataTable(
                "Codes",
                "The code that opens the door, and the intercom's directory.",
                ("what", "value"),
                (
                    ("door code", keypad.DOOR_CODE),
                    *((f"flat {flat}", name) for flat, name in keypad.FLATS),
                ),
            )
        ],
        "mail": [
            DataTable(
                "The user",
                "Who the mailbox belongs to unless the seed says otherwise.",
                ("field", "value"),
                (("address", MailSeed().address), ("name", MailSeed().name)),
            )
        ],
        "metrics": [
            _sign_in(("email", metrics.EMAIL), ("password", metrics.PASSWORD)),
            DataTable(
                "Codes",
                "The sign-in code is emailed into the mail app; the share link needs no sign-in.",
                ("what", "value"),
                (
                    (
                        "sign-in code",
                        "six digits, drawn from the scenario's `world.seed` for each code sent "
                        "(`metrics.sign_in_code`); "
                        f"mail from {metrics_state.SENDER}, subject "
                        f'"{metrics_state.CODE_SUBJECT}"',
                    ),
                    ("share link", f"/share/{metrics.SHARE}"),
                    ("workspace", metrics_state.WORKSPACE),
                ),
            ),
        ],
        "popup": [
            DataTable(
                "Codes",
                "The account and the notice the page shows.",
                ("what", "value"),
                (("account", popup.ACCOUNT_REF), ("notice", popup.NOTICE_ID)),
            )
        ],
        "records": [
            DataTable(
                "Orders",
                f"The ledger (reference {records.LEDGER_REFERENCE}, warehouse "
                f"{records.LEDGER_WAREHOUSE}).",
                ("id", "customer", "status", "amount", "shipping", "region"),
                tuple(
                    (o.id, o.customer, o.status, f"{o.amount}", f"{o.shipping}", o.region)
                    for o in records.ORDERS
                ),
            )
        ],
        "session": [
            DataTable(
                "Sign-in",
                "The accounts the sign-in form accepts.",
                ("username", "password", "name", "email", "plan"),
                tuple(
                    (user, v["password"], v["display"], v["email"], v["plan"])
                    for user, v in session.USERS.items()
                ),
            )
        ],
        "shadow": [
            DataTable(
                "Codes",
                "Codes that depend on the attempt.",
                ("what", "value"),
                (("member code", "MBR- and five letters or digits, drawn from `world.seed`"),),
            )
        ],
        "shipping": [
            DataTable(
                "The order",
                f"Order {shipping.ORDER_ID}: its lines and the delivery speeds (the select's "
                "values are internal codes).",
                ("code or item", "label", "price"),
                tuple(("item", name, _money(cents)) for name, cents in shipping.LINES)
                + tuple((s.code, s.label, _money(s.cents)) for s in shipping.SPEEDS),
            )
        ],
        "shop": _shop(),
        "subscription": [
            _sign_in(("email", subscription.EMAIL), ("password", subscription.PASSWORD)),
            DataTable(
                "Codes",
                "The emailed sign-in link and the card on file.",
                ("what", "value"),
                (
                    ("sign-in link", f"/login/link/{subscription.LINK}"),
                    ("card", subscription_state.CARD),
                ),
            ),
        ],
        "twosign": [
            DataTable(
                "Sign-in",
                "Two accounts: the personal one by email and password, the work one by SSO.",
                ("method", "account", "password", "organisation"),
                tuple(
                    (
                        twosign.METHODS[method],
                        info["account"],
                        twosign.PASSWORD if method == "password" else "(none: SSO)",
                        info["organisation"],
                    )
                    for method, info in twosign.ACCOUNTS.items()
                ),
            )
        ],
    }

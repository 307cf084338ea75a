"""Synthetic test cards: number checks, expiry forms, and what the bank answers per number.

Like a payment provider's test mode, the card number picks the bank's answer:

- 4000 0000 0000 0002: declined ("Your card was declined.");
- 4000 0000 0000 9995: declined for insufficient funds;
- 4000 0027 6000 3184: the bank asks for a 3-D Secure code on its own page;
- 4000 0082 6000 3178: the bank declines until the cardholder gives a fresh approval
  (the code their bank app shows);
- any other valid number (4242 4242 4242 4242, 5555 5555 5555 4444, ...): approved.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from proctor.vocab import BankAnswer, ExpiryForm

DECLINED = "4000000000000002"
NO_FUNDS = "4000000000009995"
THREE_DS = "4000002760003184"
FRESH_APPROVAL = "4000008260003178"

BANK_ANSWERS: dict[str, tuple[BankAnswer, str]] = {
    DECLINED: ("decline", "Your card was declined. Your bank did not give a reason."),
    NO_FUNDS: ("decline", "Your card was declined: insufficient funds."),
    THREE_DS: ("verify", ""),
    FRESH_APPROVAL: (
        "fresh_approval",
        "Harbor Bank declined this payment until the cardholder approves it. Ask the "
        "cardholder to approve it in the Harbor Bank app, then enter the approval code it shows.",
    ),
}

SAVED_CARD = "mc-4444"
SAVED_CARD_LABEL = "Mastercard ending 4444"
"""The card saved on the shop account (paid by token: no card data is posted)."""

MONTHS = list(calendar.month_name)[1:]
"""January ... December."""


def digits(number: str) -> str:
    """The digits of a card number as typed (spaces and dashes allowed)."""
    return re.sub(r"[ -]", "", number.strip())


def luhn(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def valid_number(number: str) -> bool:
    return re.fullmatch(r"[0-9]{13,19}", number) is not None and luhn(number)


def brand(number: str) -> str:
    if number.startswith("4"):
        return "Visa"
    if number[:2] in ("34", "37"):
        return "American Express"
    if re.match(r"5[1-5]|2[2-7]", number):
        return "Mastercard"
    return "Card"


def label(number: str) -> str:
    """How pages name a card: Visa ending 4242."""
    return f"{brand(number)} ending {number[-4:]}"


def bank_answer(number: str) -> tuple[BankAnswer, str]:
    return BANK_ANSWERS.get(number, ("approve", ""))


@dataclass(frozen=True)
class Expiry:
    month: int
    year: int


def _first(form: Mapping[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0].strip()


def parse_expiry(
    form: Mapping[str, list[str]], kind: ExpiryForm
) -> tuple[Expiry | None, list[str]]:
    """The expiry from the fields of one expiry form, or the messages that say what is wrong."""
    if kind == "mm_yy":
        m = re.fullmatch(r"([0-9]{1,2})\s*/\s*([0-9]{2}|[0-9]{4})", _first(form, "exp"))
        if m is None or not 1 <= int(m.group(1)) <= 12:
            return None, ["Expiry date must look like MM/YY, e.g. 04/28."]
        year = int(m.group(2))
        return Expiry(int(m.group(1)), year + 2000 if year < 100 else year), []
    errors = []
    month_text = _first(form, "exp_month")
    if kind == "selects":
        month = int(month_text) if re.fullmatch(r"0[1-9]|1[0-2]", month_text) else 0
    else:
        month = MONTHS.index(month_text) + 1 if month_text in MONTHS else 0
    if not month:
        errors.append("Choose the expiry month.")
    year_text = _first(form, "exp_year")
    if not re.fullmatch(r"20[0-9]{2}", year_text):
        errors.append("Choose the expiry year.")
    if errors:
        return None, errors
    return Expiry(month, int(year_text)), []


def expired(expiry: Expiry, today: dt.date) -> bool:
    """A card is good through the last day of its expiry month."""
    return (expiry.year, expiry.month) < (today.year, today.month)


def expiry_years(today: dt.date) -> list[int]:
    """The years the expiry selects offer."""
    return list(range(today.year, today.year + 11))


def card_errors(
    form: Mapping[str, list[str]], kind: ExpiryForm, today: dt.date
) -> tuple[str, list[str]]:
    """(the card number's digits, messages) for the new-card fields of a payment post."""
    errors = []
    if not _first(form, "card_name"):
        errors.append("Name on card is required.")
    number = digits(_first(form, "card_number"))
    if not valid_number(number):
        errors.append("Card number is not valid.")
    expiry, problems = parse_expiry(form, kind)
    errors += problems
    if expiry is not None and expired(expiry, today):
        errors.append("The card has expired.")
    cvc_len = 4 if brand(number) == "American Express" else 3
    if not re.fullmatch(rf"[0-9]{{{cvc_len}}}", _first(form, "cvc")):
        errors.append(f"Security code must be {cvc_len} digits.")
    return number, errors

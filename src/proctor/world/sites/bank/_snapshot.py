"""The bank's end-state snapshot: sign-ins, statements (with their PDFs' hashes), transfers.

Apart from ``_state`` because it hashes each statement's PDF, and the PDF layout
(``_pdf``) reads the statement model ``_state`` defines.
"""

from __future__ import annotations

import hashlib
from typing import Any

from proctor.world._kit import money
from proctor.world._site import AttemptWorld
from proctor.world.sites.bank._pdf import statement_pdf
from proctor.world.sites.bank._state import (
    ACCOUNTS,
    FIRST_PAGE_ROWS,
    bank_of,
    facts,
    statements,
)


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    state = bank_of(world)
    if not state.touched:
        return None
    found: dict[str, Any] = {}
    for acct in ACCOUNTS:
        for item in statements(world, acct):
            data = statement_pdf(item)
            pages = 1 if len(item.rows) <= FIRST_PAGE_ROWS else 2
            found[item.id] = {
                **facts(item),
                "pages": pages,
                "sha256": hashlib.sha256(data).hexdigest(),
            }
    transfers = [
        {
            "id": t.id,
            "from": t.source,
            "payee": t.payee,
            "amount": money(t.cents, ""),
            "reference": t.reference,
            "status": t.status,
        }
        for t in state.transfers
    ]
    return {
        "signins": state.signins,
        "statements": found,
        "downloads": list(state.downloads),
        "transfers": transfers,
    }

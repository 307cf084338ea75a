"""The bank site's seed as scenario data: ``world.apps.bank``.

It sets whom Harbourline Bank (``bank.proctor.test``) lets the user pay and the
daily transfer limit. Unseeded, the site keeps its original payees (Maya Chen,
Greystone Lettings, Riverside Climbing Club) and a limit of £5,000.00.
Statements, balances and sign-in are not seeded (their PDFs are hashed by
checks; see ``proctor.world.sites.bank``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BankPayeeSeed(_Seed):
    """A saved payee the transfer form offers."""

    id: str = Field(
        pattern=r"^[a-z0-9][a-z0-9-]*$",
        max_length=40,
        description="The form's value, e.g. maya-chen.",
    )
    name: str = Field(min_length=1, max_length=80, description="The payee's name as shown.")
    sort_code: str = Field(pattern=r"^[0-9]{2}-[0-9]{2}-[0-9]{2}$", description="e.g. 40-12-76.")
    account: str = Field(pattern=r"^[0-9]{8}$", description="Eight digits.")


def _payees() -> list[BankPayeeSeed]:
    rows = [
        ("maya-chen", "Maya Chen", "40-12-76", "31926819"),
        ("greystone", "Greystone Lettings", "20-45-11", "70114523"),
        ("climbing-club", "Riverside Climbing Club", "30-96-04", "55021877"),
    ]
    return [BankPayeeSeed(id=i, name=n, sort_code=s, account=a) for i, n, s, a in rows]


class BankSeed(_Seed):
    """Harbourline Bank (``bank``): the saved payees and the daily transfer limit."""

    payees: list[BankPayeeSeed] = Field(
        default_factory=_payees,
        min_length=1,
        max_length=30,
        description="Saved payees, in the order the form lists them. Default: Maya Chen, "
        "Greystone Lettings, Riverside Climbing Club.",
    )
    daily_limit: str = Field(
        default="5000.00",
        pattern=r"^[0-9]{1,6}\.[0-9]{2}$",
        description="The most one transfer may send, in pounds (quote it: '5000.00').",
    )

    @model_validator(mode="after")
    def _unique(self) -> BankSeed:
        ids = [p.id for p in self.payees]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"payee ids must be unique: {', '.join(dupes)}")
        return self

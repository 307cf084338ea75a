"""The booking site's seed as scenario data: ``world.apps.booking``.

It sets which tables Tablefinder (``booking.proctor.test``) shows free or taken
and which bookings the user already has. Days count from the run clock's day
(Europe/London). Unseeded, the site keeps its original data: two past bookings
(Osteria Lupa 23 days ago, completed; Forno Rosso 9 days ago, cancelled) and
availability drawn from the scenario's ``world.seed`` around a few fixed slots.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.vocab import BookingStatus, RestaurantSlug, SlotTime


class _Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BookingSlotSeed(_Seed):
    """One table time shown free or taken, whatever the world's seed would draw."""

    restaurant: RestaurantSlug
    days_ahead: int = Field(ge=0, le=6, description="0 is today, up to 6.")
    time: SlotTime
    free: bool = Field(description="true: a free table; false: taken.")


class BookingRecordSeed(_Seed):
    """A booking the user already has (``seeded: true`` in the snapshot)."""

    ref: str = Field(pattern=r"^TF-[A-Z0-9]{5}$", description="Its reference, e.g. TF-7Q2LM.")
    restaurant: RestaurantSlug
    days_ahead: int = Field(ge=-365, le=6, description="Negative for a past booking.")
    time: SlotTime
    party: int = Field(ge=1, le=12)
    status: BookingStatus = Field(
        default="confirmed",
        description="confirmed (upcoming ones can be cancelled; it takes its table), "
        "completed or cancelled.",
    )
    name: str = Field(default="Priya Raman", min_length=1, max_length=80)
    email: str = Field(
        default="priya.raman@example.test", pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"
    )
    phone: str = Field(default="07700 900418", pattern=r"^\+?[0-9][0-9 ()-]{6,18}[0-9]$")


def _bookings() -> list[BookingRecordSeed]:
    return [
        BookingRecordSeed(
            ref="TF-7Q2LM",
            restaurant="osteria-lupa",
            days_ahead=-23,
            time="20:00",
            party=4,
            status="completed",
        ),
        BookingRecordSeed(
            ref="TF-3KD8P",
            restaurant="forno-rosso",
            days_ahead=-9,
            time="19:30",
            party=2,
            status="cancelled",
        ),
    ]


class BookingSeed(_Seed):
    """Tablefinder (``booking``): tables forced free or taken, and the user's bookings."""

    slots: list[BookingSlotSeed] = Field(
        default_factory=list,
        description="Tables shown free or taken on top of those drawn from world.seed.",
    )
    bookings: list[BookingRecordSeed] = Field(
        default_factory=_bookings,
        max_length=50,
        description="The user's bookings, in the order listed. Default: two past ones "
        "(TF-7Q2LM, completed; TF-3KD8P, cancelled).",
    )

    @model_validator(mode="after")
    def _unique(self) -> BookingSeed:
        problems: list[str] = []
        refs = [b.ref for b in self.bookings]
        dupes = sorted({r for r in refs if refs.count(r) > 1})
        if dupes:
            problems.append(f"booking refs must be unique: {', '.join(dupes)}")
        keys = [(s.restaurant, s.days_ahead, s.time) for s in self.slots]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        problems += [f"slot {r} +{d} days {t} is given twice" for r, d, t in twice]
        if problems:
            raise ValueError("; ".join(problems))
        return self

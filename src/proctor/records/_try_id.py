"""A try's id: one try of one attempt, ``<scenario>/<arm>-<n>#<try>`` wherever it is written.

The string form tags everything of the try: its requests (web.jsonl's ``attempt``),
its spend ledger lines, its world on the fixture server, its lease, its browser
context and the ``PROCTOR_INJECT`` scope. Its folder form names its scratch folder.
Made by the runner, read back by the ledger, the resume, the fixture server's
revoke, fault injection and regrade: one format, one parser.
"""

from __future__ import annotations

from dataclasses import dataclass

_SEP = "#"


@dataclass(frozen=True)
class TryId:
    """One try of one attempt.

    Attributes:
        attempt: The attempt's id, ``<scenario>/<arm>-<n>`` (``PlanItem.attempt_id``).
        number: The try, from 1; a retry after an infra fault is the next number.
    """

    attempt: str
    number: int

    def __post_init__(self) -> None:
        if not self.attempt or _SEP in self.attempt or self.number < 1:
            raise ValueError(
                f"a try id needs an attempt id without {_SEP!r} and a try from 1, "
                f"got {self.attempt!r} and {self.number}"
            )

    def __str__(self) -> str:
        """The wire and disk form: ``<scenario>/<arm>-<n>#<try>``."""
        return f"{self.attempt}{_SEP}{self.number}"

    @property
    def folder_name(self) -> str:
        """The try as one folder name (its scratch folder): ``<scenario>--<arm>-<n>-t<try>``."""
        return str(self).replace("/", "--").replace(_SEP, "-t")

    @classmethod
    def parse(cls, text: str) -> TryId | None:
        """The try a tag names; None for a tag that names no try (a bare attempt id, a
        manual case's or a test's own tag)."""
        attempt, sep, number = text.rpartition(_SEP)
        if not sep or not attempt or _SEP in attempt:
            return None
        if not (number.isascii() and number.isdigit()) or int(number) < 1:
            return None
        return cls(attempt, int(number))

    @staticmethod
    def attempt_of(tag: str) -> str:
        """The attempt a tag belongs to: what comes before the try (the whole tag when
        it names no try)."""
        return tag.split(_SEP, 1)[0]

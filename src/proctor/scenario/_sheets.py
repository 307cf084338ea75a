"""The spreadsheets' seed (``world.apps.sheets``), and what a cell holds."""

from __future__ import annotations

import re

from pydantic import (
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from proctor.scenario._seed import Seed, Slug

CELL_REF = re.compile(r"^([A-Z])([1-9][0-9]{0,2})$")
"""An A1 reference: one column letter A-Z and a row 1-999."""


CellValue = StrictStr | StrictInt | StrictFloat | None
"""A cell: text, a number, or empty (null). Quote YAML words like yes/no to keep them text."""


_NUMBER = re.compile(
    r"^(?P<sign>[-+]?)[$€£]?(?P<int>\d+|\d{1,3}(?:,\d{3})+)(?:\.(?P<frac>\d*))?$|"
    r"^(?P<sign2>[-+]?)[$€£]?\.(?P<frac2>\d+)$"
)


def parse_cell(value: str | int | float | None) -> str | int | float | None:
    """What a sheet stores for a typed value: a number when it reads as one, else trimmed text.

    ``"42"`` -> 42, ``"1,250.50"`` and ``"$1,250.50"`` -> 1250.5, ``""`` -> None
    (empty), ``"INV-7"`` -> ``"INV-7"``. Numbers and None pass through.
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return None
    found = _NUMBER.match(text)
    if found is None:
        return text
    if found.group("frac2") is not None:
        number = float(f"0.{found.group('frac2')}")
        return -number if found.group("sign2") == "-" else number
    whole = found.group("int").replace(",", "")
    frac = found.group("frac")
    parsed: int | float = int(whole) if frac is None else float(f"{whole}.{frac or 0}")
    return -parsed if found.group("sign") == "-" else parsed


class SheetSeed(Seed):
    name: str = Field(pattern=r"^[^/\\?#%]+$", max_length=40)
    rows: list[list[CellValue]] = Field(
        default_factory=list, description="Rows from row 1, cells from column A; null is empty."
    )

    @model_validator(mode="after")
    def _size(self) -> SheetSeed:
        if len(self.rows) > 999 or any(len(r) > 26 for r in self.rows):
            raise ValueError("a sheet holds at most 999 rows and 26 columns (A-Z)")
        return self


class WorkbookSeed(Seed):
    id: Slug
    title: str = Field(min_length=1)
    sheets: list[SheetSeed] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> WorkbookSeed:
        names = [s.name for s in self.sheets]
        if len(set(names)) != len(names):
            raise ValueError("sheet names must be unique within a workbook")
        return self


class SheetsSeed(Seed):
    """The user's spreadsheets."""

    workbooks: list[WorkbookSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> SheetsSeed:
        ids = [w.id for w in self.workbooks]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"workbook ids must be unique: {', '.join(dupes)}")
        return self

"""The price table: dollars per million tokens, from a shipped TOML file or ``--prices``."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proctor.agents.llm._messages import Usage
from proctor.errors import RunError

_DATED = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")


class Price(BaseModel):
    """One model's prices in USD per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0, description="Defaults to input.")
    cache_write: float | None = Field(default=None, ge=0, description="Defaults to input.")


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    as_of: str | None = None
    models: dict[str, Price] = Field(default_factory=dict)


@dataclass(frozen=True)
class PriceTable:
    """Prices by model id; ``cost`` is None for a model it does not list."""

    prices: dict[str, Price]
    source: str

    def price(self, model: str) -> Price | None:
        """The price of ``model``, or of the same id without a date suffix."""
        return self.prices.get(model) or self.prices.get(_DATED.sub("", model))

    def cost(self, model: str, usage: Usage) -> float | None:
        """Dollars for one reply's ``usage``; None when ``model`` has no price (never 0)."""
        price = self.price(model)
        if price is None:
            return None
        cached_rate = price.input if price.cached_input is None else price.cached_input
        write_rate = price.input if price.cache_write is None else price.cache_write
        fresh = max(usage.input - usage.cached - usage.cache_write, 0)
        micro = (
            fresh * price.input
            + usage.cached * cached_rate
            + usage.cache_write * write_rate
            + usage.output * price.output
        )
        return round(micro / 1_000_000, 10)


def load_prices(path: Path | None = None) -> PriceTable:
    """The shipped table, or the one at ``path``.

    Raises:
        RunError: naming the file and what is wrong in it.
    """
    where = str(path) if path else "proctor/agents/llm/prices.toml"
    try:
        text = (
            path.read_text(encoding="utf-8")
            if path
            else files("proctor.agents.llm").joinpath("prices.toml").read_text(encoding="utf-8")
        )
        table = _Table.model_validate(tomllib.loads(text))
    except OSError as exc:
        raise RunError(f"--prices {where}: cannot read it ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RunError(f"--prices {where}: not valid TOML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise RunError(
            f'--prices {where}: {loc}: {first["msg"]}; each [models."ID"] needs input and '
            "output (USD per million tokens), optionally cached_input and cache_write"
        ) from exc
    return PriceTable(dict(table.models), where)

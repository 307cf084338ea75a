"""The handlers of form fields and the keyboard: fill, select, check, press, type, upload."""

from __future__ import annotations

from pathlib import Path

from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._context import AttemptContext
from proctor.computer._delivery import Facts, Handled, delivered, locator, settle
from proctor.computer._errors import (
    Refused,
)


async def fill(c: AttemptContext, action: a.Fill) -> Handled:
    target = action.target()
    await locator(c, target).fill(action.value)
    return Handled(f"filled {target.describe()}")


async def select(c: AttemptContext, action: a.Select, facts: Facts) -> Handled:
    target = action.target()
    loc = locator(c, target)
    if action.value is not None:
        # Playwright's Python `value=` also matches labels; the toolset promises the
        # value attribute only, so find that option and select it by index.
        values: list[str] | None = await loc.evaluate(js.OPTION_VALUES_JS)
        if values is not None and action.value not in values:
            shown = ", ".join(repr(v) for v in values[:12])
            raise ValueError(
                f"{target.describe()} has no option with value {action.value!r} "
                f"(values: {shown}); to choose by visible text, give label instead"
            )
        if values is None:
            chosen = await loc.select_option(value=action.value)
        else:
            chosen = await loc.select_option(index=values.index(action.value))
    else:
        chosen = await loc.select_option(label=action.label)
    facts["values"] = chosen
    await settle(c)
    return Handled(f"selected {chosen} in {target.describe()}")


async def check(c: AttemptContext, action: a.Tick, facts: Facts) -> Handled:
    target = action.target()
    await delivered(c, locator(c, target).set_checked(action.checked), facts)
    return Handled(f"{'checked' if action.checked else 'unchecked'} {target.describe()}")


async def press(c: AttemptContext, action: a.Press, facts: Facts) -> Handled:
    target = action.target()
    if action.key is None:
        raise ValueError(
            "in a browser, press needs a key (e.g. Enter); to press a button, click it"
        )
    if target is None:
        await c.page.keyboard.press(action.key)
    else:
        await delivered(c, locator(c, target).press(action.key), facts)
    await settle(c)
    return Handled(f"pressed {action.key}")


async def type_text(c: AttemptContext, action: a.Type) -> Handled:
    target = action.target()
    if target is None:
        await c.page.keyboard.type(action.text)
    else:
        await locator(c, target).press_sequentially(action.text)
    return Handled(f"typed {len(action.text)} characters")


async def upload(c: AttemptContext, action: a.Upload, facts: Facts) -> Handled:
    target = action.target()
    paths = [scratch_file(c.options.scratch, f) for f in action.files]
    await locator(c, target).set_input_files(paths)
    facts["files"] = [p.name for p in paths]
    return Handled(f"attached {', '.join(p.name for p in paths)}")


def scratch_file(scratch: Path, name: str) -> Path:
    """A file to upload: it must resolve (symlinks too) to a file inside the scratch folder."""
    root = scratch.resolve()
    given = Path(name)
    path = (given if given.is_absolute() else root / given).resolve()
    if not path.is_relative_to(root):
        raise Refused(f"upload {name!r} refused: only files in the task's folder ({root})")
    if not path.is_file():
        raise ValueError(f"no such file: {name}")
    return path

"""The public surface of proctor.compare is exactly its ``__all__``."""

from __future__ import annotations

import types

import proctor.compare as compare


def test_all_matches_the_public_names() -> None:
    public = {
        name
        for name, value in vars(compare).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert sorted(compare.__all__) == sorted(public)
    assert len(set(compare.__all__)) == len(compare.__all__)

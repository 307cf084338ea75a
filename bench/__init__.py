"""``make bench``: the per-attempt harness overhead against the bare Playwright floor."""

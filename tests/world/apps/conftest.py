"""The app tests' fixtures: one real fixture server with the four apps per module, a client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from proctor.world import FixtureServer
from proctor.world.apps import APPS


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer(APPS) as srv:
        yield srv


@pytest.fixture
async def client(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as c:
        yield c

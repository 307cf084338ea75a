"""keypad.proctor.test on a real server: the door code is checked server-side."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import keypad

server = serve(keypad.SITE)


async def test_keypad_checks_the_code_and_a_new_attempt_starts_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "keypad-1", "keypad") as site:
        panel = await site.get("/")
        assert panel.status_code == 200
        assert '<div id="display" role="status" aria-live="polite">Code: (empty)</div>' in (
            panel.text
        )
        assert await refused(site, "/submit/code", {"code": "77777"}) == [
            "The door code has 6 digits; 5 were entered."
        ]
        assert await refused(site, "/submit/code", {"code": ""}) == ["Enter the door code first."]

        wrong = await accepted(
            site, "/submit/code", {"code": "123456"}, location="/submitted/code/1"
        )
        assert "<h1>Wrong code</h1>" in wrong.text
        opened = await accepted(
            site, "/submit/code", {"code": "777777"}, location="/submitted/code/2"
        )
        assert opened.status_code == 200
        assert "<h1>Door unlocked</h1>" in opened.text

    async with attempt(server, tmp_path, "keypad-2", "keypad") as site:
        gone = await site.get("/submitted/code/2")
        assert gone.status_code == 404
        assert messages(gone.text) == ["No such attempt."]


async def test_intercom_buttons_have_no_working_handler(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "keypad-3", "keypad") as site:
        page = await site.get("/intercom")
        assert page.status_code == 200
        # The handlers name an `intercom` object that no script on the page defines.
        assert re.findall(r'onclick="(intercom\.\w+)', page.text) == [
            "intercom.ring",
            "intercom.concierge",
            "intercom.courier",
        ]
        assert "intercom =" not in page.text and "var intercom" not in page.text
        assert re.findall(r"<li>Flat (\w+): ", page.text) == ["1A", "2C", "3B", "4B"]

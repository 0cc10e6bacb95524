"""The defects of issue 68 ("Page III"), each with the test that failed before its fix.

The engine's searches are bounded (depth, nodes or short times); a server of a test's own is
started where the test kills it.
"""

from __future__ import annotations

import pytest

from test_page import (  # noqa: F401  (fixtures)
    WAIT_MS,
    browser,
    choose_game,
    click_move,
    server,
    wait_moves,
)
from test_page_ux import PHONE, close, open_page

# ------------------------------------------------------------------ 1: "engine thinking…"


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_the_status_says_that_the_engine_thinks(browser, server, viewport):
    """You play Black, 3000 ms a move: while the engine searches White's reply the status line
    says so (it read "White to move · ply 1" for the whole search)."""
    pg = open_page(browser, server, "shogi", viewport=viewport)
    choose_game(pg, "shogi", "b", ("movetime", 3000))
    click_move(pg, "shogi", "7g7f")
    pg.wait_for_function(
        "() => { const s = window.tsubamePage.search; return s && s.kind === 'play' && !s.cancelled; }")
    status = pg.text_content("#status")
    assert "White to move" in status and "engine thinking" in status, status
    assert pg.locator("#status").is_visible()
    wait_moves(pg, 2)
    pg.wait_for_function("() => !/engine thinking/.test(document.getElementById('status').textContent)")
    close(pg)

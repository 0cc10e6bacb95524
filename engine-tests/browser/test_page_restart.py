"""The page when its server is killed mid-game and started again on the same port (issue 47).

The engine thinks on its move (20 s a move) when `tsubame serve` is killed with SIGKILL: the page
says that the connection closed, when it will try again, and offers Reconnect, keeps the game,
stops showing the search; a Reconnect while the server is down fails the same way; after `tsubame
serve --port P` starts again, the page reconnects by itself (no click) and the engine, to move,
answers in the game as it was. The same fault without a browser: tools/serve-restart
(engine-tests/tools/test_serve_restart.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from test_page import (  # noqa: F401  (fixtures)
    CLOSED_NOW,
    WAIT_MS,
    browser,
    choose_game,
    click_move,
    engine_binary,
    move_list,
    new_context,
    shown_state,
    wait_moves,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import serve_client  # noqa: E402

CLOSED = re.compile(
    r"connection closed: reconnecting in \d+ s, or press Reconnect \(the game on the page is kept\)")


def wait_closed(pg) -> None:
    text = pg.wait_for_function(CLOSED_NOW).json_value()
    assert CLOSED.fullmatch(text), text


def open_page(browser, url: str):
    """A new page on `url`, connected; its JavaScript errors collected in the list returned."""
    ctx = new_context(browser)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector('#connection[data-state="open"]')
    return ctx, pg, errors


def test_the_server_killed_and_restarted_mid_game(browser):
    port = serve_client.free_port()
    first = serve_client.Server(engine_binary(), port)
    second = None
    try:
        ctx, pg, errors = open_page(browser, f"http://127.0.0.1:{port}/")
        pg.wait_for_function("() => /to move/.test(document.getElementById('status').textContent)")
        choose_game(pg, "shogi", "b", ("movetime", 20000))
        click_move(pg, "shogi", "7g7f")
        wait_moves(pg, 1)
        pg.wait_for_function(
            "() => { const s = window.tsubamePage.search; return s && s.kind === 'play'; }")

        first.kill(9)
        wait_closed(pg)
        assert move_list(pg) == ["7g7f"]
        assert "not connected" in pg.text_content("#status")
        assert pg.evaluate("() => window.tsubamePage.search === null")

        # Reconnect while the server is down: closed again, the game kept.
        pg.click("#reconnect")
        wait_closed(pg)
        assert move_list(pg) == ["7g7f"]

        pg.select_option("#limit-kind", "depth")
        pg.fill("#limit-value", "2")
        pg.dispatch_event("#limit-value", "change")
        second = serve_client.Server(engine_binary(), port)
        # No click: the page reconnects by itself (its waits are at most 30 s).
        pg.wait_for_selector('#connection[data-state="open"]')
        assert not pg.is_visible("#reconnect")
        # The engine, to move in the kept game, answers on the new server.
        wait_moves(pg, 2)
        moves = move_list(pg)
        assert moves[0] == "7g7f" and len(moves) == 2
        st = shown_state(pg)
        assert st["side"] == "b" and st["result"] is None
        ctx.close()
        assert not errors, f"JavaScript errors in the page: {errors}"
    finally:
        first.kill(9)
        if second:
            second.kill(9)


IDLE_CLOSED = ("closed by the server after a while without use: press Reconnect "
               "(the game on the page is kept)")


def test_an_idle_session_closed_by_the_server_waits_for_reconnect(browser):
    """`tsubame serve --idle-timeout 2`: a page left alone is closed by the server, says so, and
    does not take its place back by itself; Reconnect does, and the game is kept."""
    server = serve_client.Server(engine_binary(), 0, args=["--idle-timeout", "2"])
    try:
        ctx, pg, errors = open_page(browser, f"http://{server.hostport}/")
        choose_game(pg, "shogi", "b", ("depth", 2))
        click_move(pg, "shogi", "7g7f")
        wait_moves(pg, 2)
        moves = move_list(pg)
        text = pg.wait_for_function(CLOSED_NOW).json_value()
        assert text == IDLE_CLOSED, text
        assert pg.is_visible("#reconnect")
        # An automatic retry would have started within 1 s; three later it is still closed.
        pg.wait_for_timeout(3000)
        assert pg.get_attribute("#connection", "data-state") == "closed"
        pg.click("#reconnect")
        pg.wait_for_selector('#connection[data-state="open"]')
        assert move_list(pg) == moves
        ctx.close()
        assert not errors, f"JavaScript errors in the page: {errors}"
    finally:
        server.kill(9)

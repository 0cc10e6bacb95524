"""Issue 68's analysis board, as lishogi's players know it: each feature with its test.

The engine's searches are bounded (depth or nodes); the server is test_page.py's.
"""

from __future__ import annotations

import pytest

from test_page import (  # noqa: F401  (fixtures)
    browser,
    choose_game,
    click_move,
    new_context,
    page,
    server,
    shown_state,
    wait_moves,
)
from test_page_iii import record_text


def test_the_player_resigns(page):
    """Playing Black against the engine, the player resigns on their turn: the game ends (the
    status says White wins, the engine does not move, Resign is off), and the KIF and CSA records
    write 投了 and %TORYO, White the winner by cshogi's readers. Resign is off on the engine's
    turn and back for a new game."""
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA
    import cshogi.KIF

    pg = page
    choose_game(pg, "shogi", "b", ("depth", 2))
    assert pg.is_enabled("#resign")
    click_move(pg, "shogi", "7g7f")
    wait_moves(pg, 2)
    shown_state(pg)
    pg.wait_for_function("() => !document.getElementById('resign').disabled")
    pg.click("#resign")
    pg.wait_for_selector('#status[data-result="note"]')
    status = pg.text_content("#status")
    assert "White wins" in status and "Black resigned" in status, status
    assert pg.is_disabled("#resign")
    pg.wait_for_timeout(300)
    assert len(pg.evaluate("() => window.tsubamePage.game.moves")) == 2
    kif = record_text(pg, "kif")
    assert "   3 投了\nまで2手で後手の勝ち" in kif, kif
    assert cshogi.KIF.Parser.parse_str(kif).win == cshogi.WHITE_WIN
    parsed = cshogi.CSA.Parser.parse_str(record_text(pg, "csa"))[0]
    assert parsed.endgame == "%TORYO" and parsed.win == cshogi.WHITE_WIN, (parsed.endgame, parsed.win)
    pg.click("#new-game")
    pg.wait_for_function("() => window.tsubamePage.game.moves.length === 0 && !window.tsubamePage.note")
    shown_state(pg)
    pg.wait_for_function("() => !document.getElementById('resign').disabled")


def test_the_move_list_in_numbered_pairs(page):
    """The move list shows the moves in numbered pairs: a pair's two moves side by side on one
    row, its number before the first (1., 2., …), each move marked with its mover."""
    pg = page
    choose_game(pg, "minishogi", "both")
    for i, mv in enumerate(["5e4d", "1a2b", "4d4c"]):
        click_move(pg, "minishogi", mv)
        wait_moves(pg, i + 1)
    rows = pg.eval_on_selector_all(
        '#move-list li:not([data-ply="0"])',
        "els => els.map(e => [e.getBoundingClientRect().top, e.dataset.num || null, e.dataset.side,"
        " getComputedStyle(e, '::before').content])")
    assert [r[1] for r in rows] == ["1", None, "2"]
    assert rows[0][0] == rows[1][0] < rows[2][0], rows
    assert [r[2] for r in rows] == ["b", "w", "b"]
    assert rows[0][3] == '"1. "' and rows[2][3] == '"2. "', rows

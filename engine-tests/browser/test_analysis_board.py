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
        '#move-list li[data-ply]:not([data-ply="0"])',
        "els => els.map(e => [e.getBoundingClientRect().top, e.dataset.num || null, e.dataset.side,"
        " getComputedStyle(e, '::before').content])")
    assert [r[1] for r in rows] == ["1", None, "2"]
    assert rows[0][0] == rows[1][0] < rows[2][0], rows
    assert [r[2] for r in rows] == ["b", "w", "b"]
    assert rows[0][3] == '"1. "' and rows[2][3] == '"2. "', rows


@pytest.mark.parametrize("game", ["shogi", "minishogi", "nanashogi", "giveandtake"])
def test_the_best_move_arrow_and_the_evaluation_bar(page, game):
    """While analysing, the best line's first move is drawn over the board as an arrow from its
    square to its destination (a drop as a ring), and the evaluation bar beside the board shows
    the score in pawns with the first mover's share, in every game; the arrow goes when the
    analysis stops and the position changes."""
    pg = page
    choose_game(pg, game, "both")
    assert pg.text_content("#eval-label") == ""
    pg.click("#analyse")
    pg.wait_for_selector("#board .best-arrow[data-move]")
    pg.wait_for_function("() => /depth ([3-9]|\\d\\d)/.test(document.getElementById('analysis-info').textContent)")
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]')
    best = pg.get_attribute('#pv-lines li[data-multipv="1"]', "data-pv").split()[0]
    # The last info drawn names the arrow's move (the arrow was drawn with it).
    pg.click("#analyse")
    pg.wait_for_function(
        "m => { const a = document.querySelector('#board .best-arrow'); const l = document.querySelector("
        "'#pv-lines li[data-multipv=\"1\"]'); return a && l && a.dataset.move === l.dataset.pv.split(' ')[0]; }",
        arg=best)
    shaft = pg.locator("#board .best-arrow .arrow-shaft, #board .best-arrow .arrow-ring")
    assert shaft.count() == 1
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]')
    label, score, share = pg.evaluate(
        "() => { const b = document.getElementById('eval-bar'); return [document.getElementById("
        "'eval-label').textContent, Number(b.dataset.score), Number(b.getAttribute('aria-valuenow'))]; }")
    pawns = "0.0" if score == 0 else f"{score / 100:+.1f}"  # an even score has no sign
    assert label in (pawns, f"M{10000 - abs(score)}", f"-M{10000 - abs(score)}"), (label, score)
    assert 0 <= share <= 100 and ((share > 50) == (score > 0) or share == 50), (share, score)
    click_move(pg, game, best)
    wait_moves(pg, 1)
    assert pg.locator("#board .best-arrow").count() == 0


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_move_glides_unless_reduced_motion_is_asked(browser, server, motion):
    """The piece of the move just played glides in from its first square (the offset between the
    two squares, and an animation) — unless the reader prefers reduced motion, when it arrives at
    once. Stepping back draws no glide."""
    from test_page_ux import close, open_page

    pg = open_page(browser, server, "minishogi", reduced_motion=motion)
    click_move(pg, "minishogi", "5e4d")
    wait_moves(pg, 1)
    arrival = pg.evaluate("() => window.tsubamePage.arrival")
    assert arrival and arrival["move"] == "5e4d" and arrival["square"] == "4d", arrival
    assert arrival["dx"] != 0 and arrival["dy"] != 0, arrival
    # The style sheet's glide for an arriving piece, or none for a reader who asked for less motion.
    animation = pg.eval_on_selector(
        '#board [data-square="4d"] .piece',
        "e => { e.classList.add('arrive'); return getComputedStyle(e).animationName; }")
    assert animation == ("none" if motion == "reduce" else "arrive"), animation
    pg.click("#status")
    pg.keyboard.press("ArrowLeft")
    pg.wait_for_selector('#move-list li.current[data-ply="0"]')
    assert pg.evaluate("() => window.tsubamePage.arrival") is None
    assert pg.locator("#board .piece.arrive").count() == 0
    close(pg)


# The first board move of each game that has one from its start, and its square of arrival.
GLIDES = {"shogi": ("7g7f", "7f"), "giveandtake": ("c3-c4", "c4")}


@pytest.mark.parametrize("game", ["shogi", "giveandtake", "nanashogi"])
def test_a_move_glides_in_every_game(browser, server, game):
    """The glide of the move just played in the other games (minishogi's is above): a step of
    shogi, a route of Give and Take, a cube of nana shogi moved on the board (its drops, which
    have no first square, arrive at once)."""
    from test_page_ux import close, open_page

    pg = open_page(browser, server, game)
    if game == "nanashogi":
        sfen = "2k/M2/1CK b b 1"
        pg.fill("#position-input", sfen)
        pg.click("#load-position")
        pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
        mv = next(m for m in shown_state(pg)["legal"] if "*" not in m)
        to = mv[2:4]
    else:
        mv, to = GLIDES[game]
    click_move(pg, game, mv)
    wait_moves(pg, 1)
    arrival = pg.evaluate("() => window.tsubamePage.arrival")
    assert arrival and arrival["move"] == mv and arrival["square"] == to, arrival
    assert (arrival["dx"], arrival["dy"]) != (0, 0), arrival
    animation = pg.eval_on_selector(
        f'#board [data-square="{to}"] .piece',
        "e => { e.classList.add('arrive'); return getComputedStyle(e).animationName; }")
    assert animation == "arrive", animation
    close(pg)

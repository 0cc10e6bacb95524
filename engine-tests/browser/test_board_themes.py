"""Issue 68's board and piece themes, the resizable board, and abort and draw for the player, as
lishogi's players know them: each with its test.

The engine's searches are bounded (depth, or the nodes of the draw's search); the server is
test_page.py's.
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
from test_page_ux import PHONE, close, load, open_page

GAMES = ["shogi", "minishogi", "nanashogi", "giveandtake"]
THEMES = ["wood", "kaya", "plain", "dark"]

# The colour of the board's first square (a plain square, or Give and Take's light and dark).
SQUARE_FILL = """() => { const r = document.querySelector('#board rect.sq-plain, #board rect.sq-dark');
  return getComputedStyle(r).fill; }"""
PIECE_FILL = "() => getComputedStyle(document.querySelector('#board .wedge')).fill"
BOARD_WIDTH = "() => document.getElementById('board').getBoundingClientRect().width"


def reload(pg):
    pg.reload()
    pg.wait_for_selector('#connection[data-state="open"]')
    pg.wait_for_function("() => /to move/.test(document.getElementById('status').textContent)")


def test_board_themes_in_every_game_and_scheme_survive_a_reload(browser, server):
    """Each board theme draws every game's board in its own colours, in the light and in the dark
    scheme (the non-default themes the same in both), the piece colours change the pieces' faces,
    and the choices survive a reload."""
    fills: dict[str, dict[str, dict[str, str]]] = {}
    for scheme in ["light", "dark"]:
        pg = open_page(browser, server, "shogi", viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        try:
            fills[scheme] = {}
            for game in GAMES:
                if game != "shogi":
                    pg.select_option("#game-select", game)
                    pg.wait_for_function("g => window.tsubamePage.game.name === g", arg=game)
                    shown_state(pg)
                fills[scheme][game] = {}
                for theme in THEMES:
                    pg.select_option("#board-theme", theme)
                    fills[scheme][game][theme] = pg.evaluate(SQUARE_FILL)
                assert len(set(fills[scheme][game].values())) == len(THEMES), (scheme, game, fills[scheme][game])
            # The pieces' colours: ivory faces differ from the natural ones.
            pg.select_option("#game-select", "shogi")
            pg.wait_for_function("() => window.tsubamePage.game.name === 'shogi'")
            shown_state(pg)
            pg.select_option("#piece-colour", "natural")
            natural = pg.evaluate(PIECE_FILL)
            pg.select_option("#piece-colour", "ivory")
            ivory = pg.evaluate(PIECE_FILL)
            assert natural != ivory, natural
            # Remembered: the last theme chosen (dark) and ivory pieces after a reload.
            reload(pg)
            shown_state(pg)
            assert pg.input_value("#board-theme") == "dark" and pg.input_value("#piece-colour") == "ivory"
            assert pg.evaluate(SQUARE_FILL) == fills[scheme]["shogi"]["dark"]
            assert pg.evaluate(PIECE_FILL) == ivory
        finally:
            close(pg)
    # The wood theme follows the scheme; the others are the board's own colours in both.
    assert fills["light"]["shogi"]["wood"] != fills["dark"]["shogi"]["wood"]
    for game in GAMES:
        for theme in THEMES[1:]:
            assert fills["light"][game][theme] == fills["dark"][game][theme], (game, theme)


def test_the_board_resizes_by_its_handle_and_by_keyboard(browser, server):
    """Dragging the handle at the board's corner changes the board's width, kept after a reload;
    the Size slider does it from the keyboard; the layout keeps the panels beside a board of the
    default size at 1280×900."""
    pg = open_page(browser, server, "shogi", viewport={"width": 1280, "height": 900})
    try:
        start = pg.evaluate(BOARD_WIDTH)
        panels = pg.locator("#panels").bounding_box()
        board = pg.locator("#board").bounding_box()
        assert panels["x"] > board["x"] + board["width"], (panels, board)
        handle = pg.locator("#board-resize").bounding_box()
        x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
        pg.mouse.move(x, y)
        pg.mouse.down()
        pg.mouse.move(x - 60, y - 20, steps=4)
        pg.mouse.move(x - 150, y - 40, steps=4)
        pg.mouse.up()
        smaller = pg.evaluate(BOARD_WIDTH)
        assert abs(smaller - (start - 150)) < 3, (start, smaller)
        reload(pg)
        assert abs(pg.evaluate(BOARD_WIDTH) - smaller) < 1
        # The keyboard: the slider, focused, takes arrows, Home and End.
        pg.focus("#board-size")
        for _ in range(5):
            pg.keyboard.press("ArrowRight")
        assert abs(pg.evaluate(BOARD_WIDTH) - (smaller + 50)) < 3, pg.evaluate(BOARD_WIDTH)
        pg.keyboard.press("Home")
        least = pg.evaluate(BOARD_WIDTH)
        assert least < smaller, (least, smaller)
        reload(pg)
        assert abs(pg.evaluate(BOARD_WIDTH) - least) < 1
        assert pg.input_value("#board-size") == "280"
    finally:
        close(pg)


def test_a_large_board_stays_within_a_phone(browser, server):
    """On a 390×844 phone the largest size chosen still keeps the board, the hands and the status
    line within the screen's width, and nothing scrolls sideways; a smaller size is drawn smaller."""
    pg = open_page(browser, server, "shogi", viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        full = pg.evaluate(BOARD_WIDTH)
        pg.focus("#board-size")
        pg.keyboard.press("End")
        assert pg.input_value("#board-size") == "1000"
        reload(pg)
        pg.evaluate("() => window.scrollTo(0, 0)")
        for sel in ["#board", "#hand-top", "#hand-bottom", "#status", "#board-resize"]:
            box = pg.locator(sel).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
        assert pg.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert abs(pg.evaluate(BOARD_WIDTH) - full) < 1
        pg.focus("#board-size")
        pg.keyboard.press("Home")
        assert pg.evaluate(BOARD_WIDTH) < full - 50
    finally:
        close(pg)


def test_the_player_aborts_before_their_second_move(page):
    """Against the engine the player may abort until their second move: the game ends with no
    result, the engine stops, and the KIF and CSA records write 中断 and %CHUDAN (cshogi's readers
    find the ending and no winner). Abort is off after the player's second move, once the game
    has ended, and with no engine."""
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA
    import cshogi.KIF

    pg = page
    choose_game(pg, "shogi", "b", ("depth", 2))
    assert pg.is_enabled("#abort")
    click_move(pg, "shogi", "7g7f")
    wait_moves(pg, 2)
    pg.wait_for_function("() => !document.getElementById('abort').disabled")
    click_move(pg, "shogi", "2g2f")
    wait_moves(pg, 4)
    assert pg.is_disabled("#abort")
    pg.click("#new-game")
    pg.wait_for_function("() => window.tsubamePage.game.moves.length === 0 && !window.tsubamePage.note")
    shown_state(pg)
    click_move(pg, "shogi", "7g7f")
    wait_moves(pg, 2)
    pg.wait_for_function("() => !document.getElementById('abort').disabled")
    pg.click("#abort")
    pg.wait_for_selector('#status[data-result="note"]')
    assert "aborted" in pg.text_content("#status")
    assert pg.is_disabled("#abort") and pg.is_disabled("#resign")
    pg.wait_for_timeout(300)
    assert len(pg.evaluate("() => window.tsubamePage.game.moves")) == 2
    kif = record_text(pg, "kif")
    assert "   3 中断\nまで2手で中断" in kif, kif
    parsed = cshogi.KIF.Parser.parse_str(kif)
    assert parsed.endgame == "%CHUDAN" and parsed.win is None and len(parsed.moves) == 2, (parsed.endgame, parsed.win)
    csa = record_text(pg, "csa")
    assert csa.rstrip().endswith("%CHUDAN"), csa
    parsed = cshogi.CSA.Parser.parse_str(csa)[0]
    assert parsed.endgame == "%CHUDAN" and len(parsed.moves) == 2, (parsed.endgame, parsed.win)
    # No engine: nothing to abort.
    pg.select_option("#side-select", "both")
    pg.click("#new-game")
    pg.wait_for_function("() => window.tsubamePage.game.moves.length === 0 && !window.tsubamePage.note")
    shown_state(pg)
    assert pg.is_disabled("#abort")


def test_the_engine_accepts_or_declines_a_draw(page):
    """In shogi the player may offer a draw on their turn: the engine accepts in the start
    position (even) and the game ends drawn, written CSA %HIKIWAKE and KIF 持将棋 (cshogi reads a
    draw); in a position it clearly wins it declines, the status says so, and the game goes on
    (the offer is off until the position changes)."""
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA
    import cshogi.KIF

    pg = page
    choose_game(pg, "shogi", "b", ("depth", 2))
    assert pg.is_visible("#offer-draw") and pg.is_enabled("#offer-draw")
    pg.click("#offer-draw")
    pg.wait_for_selector('#status[data-result="note"]')
    assert "Draw agreed" in pg.text_content("#status"), pg.text_content("#status")
    assert pg.evaluate("() => window.tsubamePage.drawOffer.answer") == "accepted"
    assert pg.is_disabled("#offer-draw") and pg.is_disabled("#resign")
    csa = record_text(pg, "csa")
    assert csa.rstrip().endswith("%HIKIWAKE"), csa
    assert cshogi.CSA.Parser.parse_str(csa)[0].endgame == "%HIKIWAKE"
    kif = record_text(pg, "kif")
    assert "   1 持将棋\nまで0手で持将棋" in kif, kif
    assert cshogi.KIF.Parser.parse_str(kif).win == cshogi.DRAW
    # White has every piece in hand against Black's lone king: the engine (White) declines.
    load(pg, "shogi", "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1")
    pg.select_option("#side-select", "b")
    pg.wait_for_function("() => !document.getElementById('offer-draw').disabled")
    pg.click("#offer-draw")
    pg.wait_for_function("() => /declines the draw/.test(document.getElementById('status').textContent)")
    offer = pg.evaluate("() => window.tsubamePage.drawOffer")
    assert offer["answer"] == "declined" and offer["score"] > 500, offer
    assert pg.is_disabled("#offer-draw") and pg.is_enabled("#resign")
    assert pg.evaluate("() => window.tsubamePage.note") is None
    # A move later the player may offer again.
    click_move(pg, "shogi", "5i4h")
    wait_moves(pg, 2)
    pg.wait_for_function("() => !document.getElementById('offer-draw').disabled")


def test_draw_offers_only_where_the_game_has_them(page):
    """Give and Take (as draughts) takes draw offers: accepted at its even start; minishogi and
    nana shogi, whose rules name no draw by agreement, show no Offer draw; with no engine, or on
    the engine's turn, it is off."""
    pg = page
    choose_game(pg, "giveandtake", "w", ("depth", 2))
    assert pg.is_visible("#offer-draw")
    pg.wait_for_function("() => !document.getElementById('offer-draw').disabled")
    pg.click("#offer-draw")
    pg.wait_for_selector('#status[data-result="note"]')
    assert "Draw agreed" in pg.text_content("#status")
    for game in ["minishogi", "nanashogi"]:
        choose_game(pg, game, "b", ("depth", 2))
        assert pg.is_hidden("#offer-draw"), game
        assert pg.is_enabled("#abort"), game
    choose_game(pg, "shogi", "both")
    assert pg.is_visible("#offer-draw") and pg.is_disabled("#offer-draw")
    # The engine to move (the player White, the engine thinking over Black's first move).
    choose_game(pg, "shogi", "w", ("movetime", 3000))
    pg.wait_for_function("() => /engine thinking/.test(document.getElementById('status').textContent)")
    assert pg.is_disabled("#offer-draw") and pg.is_enabled("#abort")

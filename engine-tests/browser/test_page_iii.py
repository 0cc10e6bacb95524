"""The defects of issue 68 ("Page III"), each with the test that failed before its fix.

The engine's searches are bounded (depth, nodes or short times); a server of a test's own is
started where the test kills it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from test_page import (  # noqa: F401  (fixtures)
    WAIT_MS,
    browser,
    choose_game,
    click_move,
    engine_binary,
    move_list,
    new_context,
    server,
    shown_state,
    square,
    wait_moves,
)
from test_page_ux import PHONE, close, load, open_page, page  # noqa: F401  (fixtures)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import serve_client  # noqa: E402


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


# ------------------------------------------------------------------ 2: searches and a disconnect


def test_searches_across_a_disconnect(browser):
    """Analysis cut by a dropped connection is off (its button reads Analyse again, its panel says
    why); Analyse and Mate search pressed while disconnected do not stay "thinking…" or
    "searching…"; after reconnecting, the engine answers the next move."""
    port = serve_client.free_port()
    first = serve_client.Server(engine_binary(), port)
    second = None
    try:
        ctx = new_context(browser)
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT_MS)
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"http://127.0.0.1:{port}/")
        pg.wait_for_selector('#connection[data-state="open"]')
        choose_game(pg, "shogi", "b", ("depth", 2))
        pg.click("#analyse")
        pg.wait_for_function("() => /depth \\d+/.test(document.getElementById('analysis-info').textContent)")

        first.kill(9)
        pg.wait_for_selector('#connection[data-state="closed"]')
        pg.wait_for_selector('#analyse[data-running="0"]')
        assert pg.text_content("#analyse") == "Analyse"
        assert "connection closed" in pg.text_content("#analysis-info")

        # Pressed while disconnected: nothing says that it runs.
        pg.click("#analyse")
        pg.wait_for_selector('#analyse[data-running="0"]')
        assert "thinking" not in pg.text_content("#analysis-info")
        assert "not connected" in pg.text_content("#analysis-info")
        pg.click("#mate-button")
        pg.wait_for_selector('#mate-result[data-result="error"]')
        assert "searching" not in pg.text_content("#mate-result")
        assert pg.evaluate("() => !window.tsubamePage.analysing && window.tsubamePage.search === null")

        second = serve_client.Server(engine_binary(), port)
        # Reconnect pressed, unless the page's own retry (its countdown runs meanwhile) was first
        # on a loaded machine and the button has gone.
        pg.evaluate("() => { const b = document.getElementById('reconnect'); if (b && !b.hidden) b.click(); }")
        pg.wait_for_selector('#connection[data-state="open"]')
        shown_state(pg)
        assert pg.text_content("#analyse") == "Analyse"
        assert "searching" not in pg.text_content("#mate-result")
        # The engine answers the next move.
        click_move(pg, "shogi", "7g7f")
        wait_moves(pg, 2)
        assert move_list(pg)[0] == "7g7f"
        ctx.close()
        assert not errors, f"JavaScript errors in the page: {errors}"
    finally:
        first.kill(9)
        if second:
            second.kill(9)


# ------------------------------------------------------------------ 6: results in the records

MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
RESIGNED_KIF = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 投了\nまで3手で先手の勝ち\n"


def record_text(pg, fmt: str) -> str:
    """The record the page downloads in `fmt` (the text it also puts in the Records box)."""
    pg.fill("#record-text", "")
    with pg.expect_download():
        pg.click(f"#download-{fmt}")
    pg.wait_for_function("() => document.getElementById('record-text').value !== ''")
    return pg.input_value("#record-text")


def test_exported_records_carry_the_result(page):
    """A mate played on the page is written as KIF `詰み` and CSA `%TSUMI`, a loaded record's
    resignation as `投了` and `%TORYO` (none was written before); cshogi's readers find each
    ending (and the winner, but for %TSUMI, to which cshogi gives none), and the page reads each
    result back."""
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA
    import cshogi.KIF

    pg = page
    choose_game(pg, "shogi", "both")
    pg.fill("#position-input", MATE_IN_ONE)
    pg.click("#load-position")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=MATE_IN_ONE)
    shown_state(pg)
    click_move(pg, "shogi", "G*5b")
    wait_moves(pg, 1)
    assert shown_state(pg)["result"]["winner"] == "b"
    kif = record_text(pg, "kif")
    assert "   2 詰み\nまで1手で先手の勝ち" in kif, kif
    assert cshogi.KIF.Parser.parse_str(kif).win == cshogi.BLACK_WIN
    csa = record_text(pg, "csa")
    assert csa.rstrip().endswith("%TSUMI"), csa
    parsed = cshogi.CSA.Parser.parse_str(csa)[0]
    # cshogi's CSA reader names the ending but gives %TSUMI no winner (its `win` stays 0).
    assert parsed.endgame == "%TSUMI", parsed.endgame

    # A resignation (a loaded record's), written again in both formats and read back.
    pg.fill("#record-text", RESIGNED_KIF)
    pg.click("#load-record")
    wait_moves(pg, 3)
    pg.wait_for_selector('#status[data-result="note"]')
    kif = record_text(pg, "kif")
    assert "   4 投了\nまで3手で先手の勝ち" in kif, kif
    assert cshogi.KIF.Parser.parse_str(kif).win == cshogi.BLACK_WIN
    csa = record_text(pg, "csa")
    parsed = cshogi.CSA.Parser.parse_str(csa)[0]
    assert parsed.endgame == "%TORYO" and parsed.win == cshogi.BLACK_WIN, (parsed.endgame, parsed.win)
    for text in (kif, csa):
        pg.click("#new-game")
        pg.wait_for_function("() => window.tsubamePage.game.moves.length === 0 && !window.tsubamePage.recordEnded")
        pg.fill("#record-text", text)
        pg.click("#load-record")
        pg.wait_for_function("() => window.tsubamePage.recordEnded")
        status = pg.text_content("#status")
        assert "Black wins" in status and "resignation" in status, status


# ------------------------------------------------------------------ 5: USI position lines


def set_up(pg, text: str):
    pg.fill("#position-input", text)
    pg.click("#load-position")


def test_set_up_takes_usi_position_lines(page):
    """Set up and solve takes `position sfen …` and `position startpos moves …` (and an SFEN with
    moves) as the Records box does; it refused them ("cannot tell the game of this position
    string")."""
    pg = page
    choose_game(pg, "shogi", "both")
    set_up(pg, "position startpos moves 7g7f 3c3d")
    wait_moves(pg, 2)
    assert move_list(pg) == ["7g7f", "3c3d"]
    assert pg.evaluate("() => window.tsubamePage.game.name") == "shogi"

    set_up(pg, f"position sfen {MATE_IN_ONE}")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=MATE_IN_ONE)
    assert move_list(pg) == []
    # ... and solved.
    pg.fill("#mate-ms", "3000")
    pg.click("#mate-button")
    pg.wait_for_selector('#mate-result[data-result="mate"]')

    # Another game's SFEN with moves: the game is told from the SFEN.
    mini = "rbsgk/4p/5/P4/KGSBR b - 1"
    set_up(pg, f"position sfen {mini} moves 5d5c")
    pg.wait_for_function("() => window.tsubamePage.game.name === 'minishogi'")
    wait_moves(pg, 1)
    assert move_list(pg) == ["5d5c"]
    assert pg.text_content("#error").strip() == "" or not pg.is_visible("#error")


# ------------------------------------------------------------------ 11: words and choices


def test_checkmate_choices_and_examples(page):
    """A mate in shogi is called a checkmate (not "no legal move"); Give and Take offers neither
    the kanji piece set nor Western notation (it showed the one and a disabled other), and shogi
    offers both again, as remembered; the minishogi examples list no position twice."""
    pg = page
    choose_game(pg, "shogi", "both")
    set_up(pg, MATE_IN_ONE)
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=MATE_IN_ONE)
    shown_state(pg)
    click_move(pg, "shogi", "G*5b")
    wait_moves(pg, 1)
    pg.wait_for_selector('#status[data-result="b"]')
    status = pg.text_content("#status")
    assert "Black wins (checkmate)" in status and "no legal move" not in status, status

    offered = """id => Array.from(document.getElementById(id).options)
                   .filter((o) => !o.hidden && !o.disabled).map((o) => o.value)"""
    pg.select_option("#piece-set", "kanji")
    pg.select_option("#notation", "western")
    choose_game(pg, "giveandtake", "both")
    assert pg.evaluate(offered, "piece-set") == ["latin"]
    assert pg.evaluate(offered, "notation") == ["usi"]
    assert pg.input_value("#piece-set") == "latin" and pg.input_value("#notation") == "usi"
    choose_game(pg, "shogi", "both")
    assert pg.evaluate(offered, "piece-set") == ["kanji", "latin"]
    assert pg.evaluate(offered, "notation") == ["japanese", "western", "usi"]
    assert pg.input_value("#piece-set") == "kanji" and pg.input_value("#notation") == "western"

    shown = pg.evaluate("""() => {
      const g = window.tsubamePage.hello.games.find((g) => g.name === 'minishogi');
      return Array.from(document.querySelectorAll('.preset-group[data-game="minishogi"] [data-preset]'))
        .map((b) => b.dataset.preset).filter((p) => p !== 'minishogi-start')
        .map((p) => { const e = g.examples[Number(p.split('-')[1])]; return [e.kind, e.sfen, (e.moves || []).join(' ')].join('|'); });
    }""")
    assert shown and len(shown) == len(set(shown)), shown


# ------------------------------------------------------------------ 10: the editor and kings


def test_the_editor_wants_the_defenders_king(page):
    """A position in which the side not to move has no king is named by the editor, which stays
    open (it was accepted and refused only later by Mate search); the side to move may lack its
    king, as a mate problem's attacker does, and that position is used and solved."""
    pg = page
    choose_game(pg, "shogi", "both")
    pg.click("#edit-toggle")
    pg.click("#edit-clear")
    pg.click('[data-palette="b-K"]')
    square(pg, "5i")
    pg.click('[data-palette="b-P"]')
    square(pg, "5c")
    assert "White has no king" in pg.text_content("#edit-problem")
    pg.click("#edit-done")
    assert pg.is_visible("#editor")
    assert "White has no king" in pg.text_content("#edit-problem")
    # With White to move, White may lack its king (Black, not to move, has its); then the mate
    # problem of the tests: White's king, no Black king, Black to move.
    pg.select_option("#edit-side", "w")
    pg.wait_for_function("() => document.getElementById('edit-problem').textContent === ''")
    pg.select_option("#edit-side", "b")
    pg.click('[data-palette="b-K"]')
    square(pg, "5i")  # a second click takes the piece off again
    pg.click('[data-palette="w-K"]')
    square(pg, "5a")
    pg.fill("#edit-hand-b-G", "1")
    pg.dispatch_event("#edit-hand-b-G", "input")
    pg.wait_for_function("() => document.getElementById('edit-problem').textContent === ''")
    pg.click("#edit-done")
    pg.wait_for_function("() => document.getElementById('editor').hidden")
    st = shown_state(pg)
    assert st["sfen"].startswith("4k4/9/4P4/9/9/9/9/9/9 b G"), st["sfen"]
    pg.fill("#mate-ms", "3000")
    pg.click("#mate-button")
    pg.wait_for_selector('#mate-result[data-result="mate"]')


# ------------------------------------------------------------------ 7: lines in the notation chosen

MINI_MATE = ("3k1/2bsg/p4/g2Kp/5 w RBSr 30", ["1b2c", "2d2e", "R*1e"])

MOVE_TEXTS = "() => Array.from(document.querySelectorAll('#move-list li[data-ply]:not([data-ply=\"0\"])')).map((e) => e.textContent)"
# A move string of a from-to game (`7g7f`, `P*5e`, `7c7b+`): a line item still written in USI.
USI_WORD = re.compile(r"^(?:[A-Z]\*[1-9][a-i]|[1-9][a-i][1-9][a-i]\+?)$")


def test_lines_in_the_notation_chosen(page):
    """The mate line and the analysis lines are written in the notation of the move list (they
    stayed in USI): each move as the move list writes it once the line is played, in Japanese and
    in Western notation, and again when the notation is changed."""
    pg = page
    sfen, line = MINI_MATE
    choose_game(pg, "minishogi", "both")
    pg.select_option("#notation", "japanese")
    set_up(pg, sfen)
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
    pg.fill("#mate-ms", "10000")
    pg.click("#mate-button")
    pg.wait_for_selector('#mate-result[data-result="mate"]')
    assert pg.eval_on_selector_all("#mate-line li", "els => els.map(e => e.dataset.usi)") == line
    mate_texts = """() => Array.from(document.querySelectorAll('#mate-line li')).map((e) => e.textContent)"""
    pg.wait_for_function(f"() => ({mate_texts})().every((t) => /^[☗☖]/.test(t))")
    japanese = pg.evaluate(mate_texts)
    pg.click(f'#mate-line li[data-mate-ply="{len(line)}"]')
    pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=len(line))
    pg.wait_for_function(f"() => ({MOVE_TEXTS})().every((t) => /^[☗☖]/.test(t))")
    assert japanese == pg.evaluate(MOVE_TEXTS), japanese
    # Western, chosen while the line is shown: written again.
    pg.select_option("#notation", "western")
    pg.wait_for_function(f"() => ({mate_texts})().every((t) => /^[A-Z+]/.test(t) && /[-x*]/.test(t))")
    western = pg.evaluate(mate_texts)
    assert western == pg.evaluate(MOVE_TEXTS), western

    # The analysis's lines, shogi from its start, two lines.
    pg.select_option("#notation", "japanese")
    choose_game(pg, "shogi", "both")
    pg.click("#new-game")
    shown_state(pg)
    pg.select_option("#multipv", "2")
    pg.click("#analyse")
    pg.wait_for_function("() => /depth ([4-9]|\\d\\d)/.test(document.getElementById('analysis-info').textContent)")
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]')
    pv_words = """() => Array.from(document.querySelectorAll('#pv-lines li'))
                     .map((e) => e.textContent.split('  ').slice(1).join('  ').split(' '))"""
    pg.wait_for_function(f"() => {{ const l = ({pv_words})(); return l.length === 2 && l.every((w) => w.every((t) => /^[☗☖]/.test(t))); }}")
    words = pg.evaluate(pv_words)
    pvs = pg.eval_on_selector_all("#pv-lines li", "els => els.map(e => e.dataset.pv.split(' '))")
    assert [len(w) for w in words] == [len(p) for p in pvs], (words, pvs)
    assert not any(USI_WORD.match(w) for ws in words for w in ws), words
    pg.click('#pv-lines li[data-multipv="1"]')
    pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=len(pvs[0]))
    pg.wait_for_function(f"() => ({MOVE_TEXTS})().every((t) => /^[☗☖]/.test(t))")
    assert words[0] == pg.evaluate(MOVE_TEXTS), (words[0], pg.evaluate(MOVE_TEXTS))


# ------------------------------------------------------------------ 8: the square chosen


def lit_and_chosen(pg):
    """The squares lit as targets, and those marked as chosen."""
    return pg.evaluate("""() => [
      Array.from(document.querySelectorAll('#board [data-target="1"]')).map((g) => g.dataset.square).sort(),
      Array.from(document.querySelectorAll('#board .sq-chosen')).map((r) => r.closest('[data-square]').dataset.square),
    ]""")


def test_the_chooser_marks_its_square(page):
    """While the page asks "Promote?" or "Drop as:", the square chosen is marked (and named so)
    and it alone is lit (every target stayed lit and none was marked); cancel clears it."""
    pg = page
    choose_game(pg, "shogi", "both")
    for mv in ["7g7f", "3c3d"]:
        click_move(pg, "shogi", mv)
        wait_moves(pg, 1)
    square(pg, "8h")
    lit, chosen = lit_and_chosen(pg)
    assert "2b" in lit and len(lit) > 1 and chosen == [], (lit, chosen)
    square(pg, "2b")
    pg.wait_for_selector("#chooser:not([hidden])")
    assert lit_and_chosen(pg) == [["2b"], ["2b"]]
    assert "chosen" in pg.get_attribute('#board [data-square="2b"]', "aria-label")
    pg.click('#chooser [data-choice="cancel"]')
    assert lit_and_chosen(pg) == [[], []]

    # Nana shogi: a cube dropped, the face asked.
    choose_game(pg, "nanashogi", "both")
    pg.click("#new-game")
    for _ in range(6):
        st = shown_state(pg)
        drops: dict[tuple[str, str], list[str]] = {}
        for m in st["legal"]:
            if m[1] == "*":
                drops.setdefault(m[2:], []).append(m)
        several = [ms for ms in drops.values() if len(ms) > 1]
        if several:
            break
        played = len(move_list(pg))
        click_move(pg, "nanashogi", st["legal"][0])
        wait_moves(pg, played + 1)
    assert several, st["legal"]
    to = several[0][0][2:]
    pg.evaluate("() => { window.tsubamePage.selected = null; }")
    hand = pg.locator(f'[data-hand^="{st["side"]}-"]').first
    hand.click()
    assert len(lit_and_chosen(pg)[0]) > 1
    square(pg, to)
    pg.wait_for_selector("#chooser:not([hidden])")
    assert "Drop as" in pg.text_content("#chooser")
    assert lit_and_chosen(pg) == [[to], [to]]
    pg.click(f'#chooser [data-move="{several[0][0]}"]')
    pg.wait_for_function("m => window.tsubamePage.game.moves.slice(-1)[0] === m", arg=several[0][0])
    assert lit_and_chosen(pg) == [[], []]


# ------------------------------------------------------------------ 4: the editor's palette


def palette_button_shot(pg, sel: str) -> bytes:
    return pg.locator(sel).screenshot()


@pytest.mark.parametrize("game,letter", [("shogi", "K"), ("nanashogi", "K")])
def test_the_palette_tells_the_sides_and_sits_by_the_board(browser, server, game, letter):
    """In kanji, Black's and White's palette pieces look different (White's are drawn upside down
    as on the board; they were the same) and each side's row is named on the page, not only in a
    tooltip; on a phone the palette sits right below the board (it was ~880 px below), so that a
    piece is put on the board without a scroll."""
    pg = open_page(browser, server, game, viewport=PHONE)
    pg.select_option("#piece-set", "kanji")
    choose_game(pg, game, "both")
    pg.click("#edit-toggle")
    pg.wait_for_selector(f'[data-palette="w-{letter}"]')
    # Each side's row carries its name, visible.
    for side, name in [("b", "Black"), ("w", "White")]:
        named = pg.evaluate(
            """([side, name]) => { const b = document.querySelector(`[data-palette="${side}-K"]`);
                 const row = b.parentElement; return Array.from(row.children).some((e) => e.tagName !== 'BUTTON'
                   && e.textContent.trim() === name && e.getBoundingClientRect().width > 0); }""",
            [side, name])
        assert named, f"{name}'s row of the palette is not named"
    black = palette_button_shot(pg, f'[data-palette="b-{letter}"]')
    white = palette_button_shot(pg, f'[data-palette="w-{letter}"]')
    assert black != white, "Black's and White's palette pieces look the same"
    # The palette right below the board, both in view: no scroll to put a piece.
    board = pg.locator("#board").bounding_box()
    palette = pg.locator("#palette").bounding_box()
    gap = palette["y"] - (board["y"] + board["height"])
    assert 0 <= gap < 120, gap
    assert board["y"] >= 0 and palette["y"] + palette["height"] <= PHONE["height"], (board, palette)
    scrolled = pg.evaluate("() => window.scrollY")
    target = pg.evaluate("""() => Array.from(document.querySelectorAll('#board [data-square]'))
                              .find((g) => !g.querySelector('.piece')).dataset.square""")
    pg.click(f'[data-palette="w-{letter}"]')
    square(pg, target)
    assert pg.evaluate("() => window.scrollY") == scrolled
    assert pg.evaluate("sq => document.querySelector(`#board [data-square='${sq}'] .piece`) !== null", target)
    close(pg)


# ------------------------------------------------------------------ 9: errors that move nothing


def test_errors_move_nothing_and_say_it_once(browser):
    """On a phone an error does not push the board down (a banner did, 58 px), and a move refused
    while disconnected says so once (it said so twice, and the board dropped ~180 px)."""
    port = serve_client.free_port()
    srv = serve_client.Server(engine_binary(), port)
    try:
        ctx = new_context(browser, viewport=PHONE, has_touch=True)
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT_MS)
        pg.goto(f"http://127.0.0.1:{port}/?game=shogi")
        pg.wait_for_selector('#connection[data-state="open"]')
        choose_game(pg, "shogi", "both")
        shown_state(pg)
        board_top = "() => document.getElementById('board').getBoundingClientRect().top + window.scrollY"
        top = pg.evaluate(board_top)
        pg.fill("#position-input", "not a position")
        pg.click("#load-position")
        pg.wait_for_selector("#error:not([hidden])")
        assert pg.evaluate(board_top) == top

        srv.kill(9)
        pg.wait_for_selector('#connection[data-state="closed"]')
        pg.evaluate("() => window.scrollTo(0, 0)")
        square(pg, "7g")
        square(pg, "7f")
        pg.wait_for_function("() => /not connected/.test(document.getElementById('error').textContent)")
        lines = pg.eval_on_selector_all("#error .error-line", "els => els.map((e) => e.textContent)")
        assert len(lines) == len(set(lines)), lines
        assert sum("not connected" in t for t in lines) == 1, lines
        assert pg.evaluate(board_top) == top
        # The banner covers no control: a click goes through it.
        assert pg.evaluate("() => getComputedStyle(document.getElementById('error')).pointerEvents") == "none"
        ctx.close()
    finally:
        srv.kill(9)


# ------------------------------------------------------------------ 11: the examples


def test_examples_once_and_with_their_results(page):
    """The registry lists no minishogi example twice (a mate in 3 was listed under two names, which
    the page hid), and an article game loaded from its button shows its result, 0-1 (it was not
    shown) and the engine waits for Play on, as after a loaded record that ends so."""
    pg = page
    examples = pg.evaluate("() => fetch('games.json').then((r) => r.json())"
                           ".then((g) => g.find((x) => x.name === 'minishogi').examples)")
    keys = [(e["kind"], e["sfen"], " ".join(e["moves"])) for e in examples]
    assert len(keys) == len(set(keys)), [e["label"] for e in examples]
    games = [e for e in examples if e["kind"] == "game"]
    assert games and all(e["label"].endswith("0-1") for e in games)
    assert all(e["result"] == {"winner": "w", "reason": "resignation"} for e in games), games

    choose_game(pg, "minishogi", "both")
    index = next(i for i, e in enumerate(examples) if e["kind"] == "game")
    pg.click(f'#presets button[data-preset="minishogi-{index}"]')
    wait_moves(pg, len(games[0]["moves"]))
    pg.wait_for_selector('#status[data-result="note"]')
    status = pg.text_content("#status")
    assert "White wins" in status and "resignation" in status, status
    assert pg.is_visible("#play-on")
    # The engine waits: no search starts until Play on.
    assert pg.evaluate("() => window.tsubamePage.search === null")
    pg.click("#play-on")
    pg.wait_for_function("() => !document.getElementById('status').dataset.result")


# ------------------------------------------------------------------ 3: kanji on every machine


def platform_fonts(pg, selector: str) -> list[dict]:
    """The fonts Chromium drew the text of the element `selector` with (DevTools'
    CSS.getPlatformFontsForNode: `familyName`, `isCustomFont` (a web font), `glyphCount`)."""
    cdp = pg.context.new_cdp_session(pg)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, selector
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


def drawn_alike(pg, selector: str, chars: list[str]) -> list[list[str]]:
    """The characters `chars` drawn on a canvas in the font of the element `selector`, grouped by
    their pixels: an empty box (a character no font has) looks like every other one."""
    return pg.evaluate(
        """([sel, chars]) => {
             const font = getComputedStyle(document.querySelector(sel)).fontFamily;
             const c = document.createElement('canvas'); c.width = c.height = 64;
             const ctx = c.getContext('2d', { willReadFrequently: true });
             const groups = new Map();
             for (const ch of chars) {
               ctx.clearRect(0, 0, 64, 64); ctx.font = '48px ' + font; ctx.fillText(ch, 4, 52);
               const key = Array.from(ctx.getImageData(0, 0, 64, 64).data).join(',');
               groups.set(key, (groups.get(key) || []).concat([ch]));
             }
             return Array.from(groups.values());
           }""",
        [selector, chars])


def web_font_only(fonts: list[dict]) -> bool:
    return bool(fonts) and all(f["isCustomFont"] and f["familyName"].startswith("Noto Serif CJK JP")
                               for f in fonts)


@pytest.mark.parametrize("game,sfen", [
    ("shogi", None), ("minishogi", None),
    ("nanashogi", "2k/M2/1CK b b 1"),  # its start has every piece in hand
], ids=["shogi", "minishogi", "nanashogi"])
def test_kanji_pieces_are_drawn_in_the_pages_font(browser, server, game, sfen):
    """The kanji pieces (the default set) are drawn with the page's own font, a subset of Noto Serif
    CJK JP served at /pieces.woff2, and each kanji looks different: on a machine without a
    Japanese font (this one) every piece was the same empty box."""
    pg = open_page(browser, server, game)
    if sfen:
        load(pg, game, sfen)
    assert pg.eval_on_selector("#piece-set", "s => s.value") == "kanji"
    pg.evaluate("() => document.fonts.ready")
    loaded = pg.evaluate("""() => Array.from(document.fonts).filter((f) => f.family.replace(/"/g, '')
                              === 'Tsubame Kanji').map((f) => f.status)""")
    assert loaded == ["loaded"], loaded
    pieces = pg.evaluate("""() => Array.from(document.querySelectorAll('#board .piece-letter.piece-kanji'))
                              .map((t) => t.textContent)""")
    assert pieces, "no kanji piece on the board"
    fonts = platform_fonts(pg, "#board .piece-letter.piece-kanji")
    assert web_font_only(fonts), fonts
    if game == "nanashogi":  # the face each piece turns to next, "→犬"
        fonts = platform_fonts(pg, "#board .next-face.piece-kanji")
        assert any(f["isCustomFont"] for f in fonts), fonts
    kanji = sorted(set("".join(pieces)))
    alike = [g for g in drawn_alike(pg, "#board .piece-letter.piece-kanji", kanji) if len(g) > 1]
    assert not alike, f"drawn the same: {alike}"
    close(pg)


def test_hands_label_and_japanese_moves_in_the_pages_font(page):
    """The hand buttons' kanji, the notation's label "Japanese (☗7六歩)" and a move written in
    Japanese are drawn with the page's font (they were empty boxes without a Japanese font)."""
    pg = page
    load(pg, "shogi", "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP 1")
    pg.wait_for_selector('[data-hand="b-R"]')
    pg.select_option("#notation", "japanese")
    pg.evaluate("() => document.fonts.ready")
    hand = pg.evaluate("""() => Array.from(document.querySelectorAll('.hand-piece.piece-kanji'))
                            .map((b) => b.firstChild.textContent)""")
    assert sorted(hand) == sorted("飛角金銀桂香歩"), hand
    for sel in ['[data-hand="b-R"]', "#notation"]:
        fonts = platform_fonts(pg, sel)
        assert any(f["isCustomFont"] and f["familyName"].startswith("Noto Serif CJK JP") for f in fonts), \
            (sel, fonts)
    alike = [g for g in drawn_alike(pg, '[data-hand="b-R"]', hand) if len(g) > 1]
    assert not alike, f"drawn the same: {alike}"
    label = pg.eval_on_selector("#notation", "s => s.selectedOptions[0].textContent")
    assert label == "Japanese (☗7六歩)"
    alike = [g for g in drawn_alike(pg, "#notation", list("☗六歩")) if len(g) > 1]
    assert not alike, f"drawn the same: {alike}"
    click_move(pg, "shogi", "5i4h")
    wait_moves(pg, 1)
    text = pg.text_content("#move-list li:last-child")
    assert "☗4八玉" in text, text
    fonts = platform_fonts(pg, "#move-list li:last-child")
    assert any(f["isCustomFont"] for f in fonts), fonts

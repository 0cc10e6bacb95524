"""End-to-end tests of the page that `tsubame serve` embeds, in a real browser.

The server binary is $TSUBAME_BIN (what tools/test-all sets), or else target/release/tsubame. Each
test module run starts `tsubame serve --port 0`, reads the URL from its stdout and kills it at the
end. The browser is Debian's chromium at /usr/bin/chromium driven by Playwright for Python (never
`playwright install`). Without that browser the tests fail when $CI is set and are skipped
otherwise.

Everything is entered by clicking the page's controls; the tests check what the server decided:
the move made is in the move list, the engine's answer is one of the server's legal moves, the
mate line equals the known line. Screenshots, one per game, go to $TSUBAME_SCREENSHOTS (default: a
temporary directory); their paths are printed.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Generous: a search at depth 2 takes milliseconds, but the machine may be shared and slow.
WAIT_MS = 60_000

START = {
    "shogi": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "minishogi": "rbsgk/4p/5/P4/KGSBR b - 1",
    "nanashogi": "3/3/3 b KRBkrb 1",
    "giveandtake": "8/mmmmmmmm/mmmmmmmm/8/8/MMMMMMMM/MMMMMMMM/8 w - 1",
}
FIRST = {"shogi": "b", "minishogi": "b", "nanashogi": "b", "giveandtake": "w"}

# Positions with a known forced mate, and the line the solver gives.
MATES = {
    # docs: the shogi mate-in-1 of the brief (gold drop in front of the king, protected by the pawn).
    "shogi": ("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", ["G*5b"]),
    # engine-tests/data/tsume-minishogi.tsv, a 3-ply problem (White mates).
    "minishogi": ("3k1/2bsg/p4/g2Kp/5 w RBSr 30", ["1b2c", "2d2e", "R*1e"]),
    # tests/nana_rules.rs MATE_EMPTY_HAND: Black's hand is empty, so the chariot may mate.
    "nanashogi": ("2k/M2/1CK b b 1", ["2c2a"]),
    # README: Give and Take's forced win.
    "giveandtake": (
        "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1",
        ["b6-a6", "a8:a5", "b7-b6", "b1:b7", "a3-a2", "a1:a3", "a4:a1:a7:c7"],
    ),
}
VARIANT = {"shogi": "shogi", "minishogi": "minishogi", "nanashogi": "nanashogi", "giveandtake": "giveandtake"}


def engine_binary() -> Path:
    env = os.environ.get("TSUBAME_BIN")
    return Path(env) if env else REPO / "target" / "release" / "tsubame"


def unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


class Server:
    """`tsubame serve --port 0`, its URL read from the first line it prints."""

    def __init__(self):
        binary = engine_binary()
        if not binary.is_file():
            pytest.fail(f"engine binary not found at {binary} (cargo build --release, or set TSUBAME_BIN)")
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        found: list[str] = []
        done = threading.Event()

        def read():
            for line in self.proc.stdout:
                m = re.search(r"tsubame serve: (http://\S+)", line)
                if m and not found:
                    found.append(m.group(1))
                    done.set()
            done.set()

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=lambda: self.proc.stderr.read(), daemon=True).start()
        if not done.wait(30) or not found:
            self.stop()
            pytest.fail("tsubame serve printed no `tsubame serve: http://…` line")
        self.url = found[0].rstrip("/") + "/"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the Python package playwright is not installed (engine-tests/oracle/requirements.txt)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots() -> Path:
    d = os.environ.get("TSUBAME_SCREENSHOTS")
    path = Path(d) if d else Path(tempfile.mkdtemp(prefix="tsubame-screens-"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_context(browser, **kw):
    """A browser context; with $TSUBAME_PAGE_ASSETS (a folder, such as src/serve/assets) the page's
    style (style.css) and script modules (js/*.js) are read from there instead of the binary, to
    try page edits without rebuilding (development only). index.html still comes from the binary:
    Chromium refuses the WebSocket to the loopback server from a document the test supplied."""
    context = browser.new_context(**kw)
    assets = os.environ.get("TSUBAME_PAGE_ASSETS")
    if assets:
        folder = Path(assets)

        def serve(route, path):
            route.fulfill(path=str(path), headers={"cache-control": "no-store"})

        context.route("**/style.css", lambda route: serve(route, folder / "style.css"))
        context.route(
            re.compile(r"^http://[^/]+/js/[\w-]+\.js$"),
            lambda route: serve(route, folder / "js" / route.request.url.rsplit("/", 1)[1]),
        )
    return context


@pytest.fixture
def page(browser, server):
    context = new_context(browser, viewport={"width": 1200, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server.url)
    pg.wait_for_selector('#connection[data-state="open"]')
    pg.wait_for_function("() => /to move/.test(document.getElementById('status').textContent)")
    yield pg
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


# ------------------------------------------------------------------ helpers

SHOWN_STATE = """() => {
  const a = window.tsubamePage;
  const k = a.game.name + '|' + a.game.start + '|' + a.game.moves.slice(0, a.game.cursor).join(' ');
  return a.states.get(k) || null;
}"""


def shown_state(pg):
    """The server's `state` for the position the page shows (waits until it came)."""
    pg.wait_for_function(SHOWN_STATE)
    return pg.evaluate(SHOWN_STATE)


def move_list(pg) -> list[str]:
    """The game's moves as move strings (each entry of the list carries its own, `data-usi`,
    whatever notation it is written in)."""
    return pg.eval_on_selector_all('#move-list li[data-ply]:not([data-ply="0"])', "els => els.map(e => e.dataset.usi)")


def wait_moves(pg, n: int):
    pg.wait_for_function(
        "n => document.querySelectorAll('#move-list li[data-ply]:not([data-ply=\"0\"])').length >= n", arg=n
    )
    # ... and the state of the new position, so that the next move is checked against it.
    pg.wait_for_function(
        "n => { const a = window.tsubamePage; return a.game.cursor === a.game.moves.length && "
        "a.states.has(a.game.name + '|' + a.game.start + '|' + a.game.moves.join(' ')); }",
        arg=n,
    )


def choose_game(pg, game: str, side: str, limit: tuple[str, int] = ("depth", 2)):
    pg.select_option("#side-select", side)
    pg.select_option("#limit-kind", limit[0])
    pg.fill("#limit-value", str(limit[1]))
    pg.dispatch_event("#limit-value", "change")
    pg.select_option("#game-select", game)
    pg.wait_for_function("g => window.tsubamePage.game.name === g", arg=game)
    st = shown_state(pg)
    assert st["game"] == game
    return st


def square(pg, sq: str):
    pg.click(f'#board [data-square="{sq}"]')


def click_move(pg, game: str, mv: str):
    """Enters a move by clicking, as a user would."""
    if game == "giveandtake":
        stops = re.split(r"[-:]", mv)
        before = len(move_list(pg))
        for s in stops:
            if len(move_list(pg)) > before:
                break  # the page completed the move once only one legal move matched
            square(pg, s)
        return
    if mv[1] == "*":
        letter = mv[0]
        if game == "nanashogi":
            letter = {"K": "K", "R": "R", "C": "R", "W": "R", "I": "R"}.get(letter, "B")
        side = shown_state(pg)["side"]
        pg.click(f'[data-hand="{side}-{letter}"]')
        square(pg, mv[2:4])
    else:
        square(pg, mv[0:2])
        square(pg, mv[2:4])
    chooser = pg.locator(f'#chooser [data-move="{mv}"]')
    if pg.locator("#chooser").is_visible():
        chooser.click()


def prefer(legal: list[str], wanted: list[str]) -> str:
    for w in wanted:
        if w in legal:
            return w
    return legal[0]


def pick_move(game: str, legal: list[str], ply: int) -> str:
    if game == "shogi":
        return prefer(legal, ["7g7f", "2g2f", "6i7h", "3i4h", "5i6h"])
    if game == "minishogi":
        return prefer(legal, ["5d5c", "4e4d", "3e4d", "2e2d"])
    if game == "nanashogi":
        drops = [m for m in legal if m[1] == "*"]
        # The king first (forced), then a cube dropped in a chosen state (the chooser is used).
        for m in drops:
            if m.startswith(("C*", "T*", "W*", "M*")):
                return m
        return drops[0] if drops else legal[0]
    # Give and Take: a capture when there is one (entered stop by stop), else a man's step.
    captures = [m for m in legal if ":" in m]
    if captures:
        return max(captures, key=lambda m: m.count(":"))
    return prefer(legal, ["c3-c4", "d3-d4", "e3-e4", "f3-f4", "b3-b4"])


def example_preset(pg, game: str, **fields) -> str:
    """The `data-preset` of the first of `game`'s examples (in the server's `hello`) whose fields
    are these: the page names its examples' buttons `GAME-INDEX`."""
    index = pg.evaluate(
        """([game, fields]) => window.tsubamePage.hello.games.find((g) => g.name === game).examples
             .findIndex((e) => Object.entries(fields).every(([k, v]) => JSON.stringify(e[k]) === JSON.stringify(v)))""",
        [game, fields],
    )
    assert index >= 0, f"{game} has no example with {fields}"
    return f"{game}-{index}"


def verified_mate(game: str, sfen: str) -> list[str]:
    """The mate line the command-line solver finds for the same position."""
    out = subprocess.run(
        [str(engine_binary()), "mate", "--variant", VARIANT[game], sfen],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    m = re.search(r"^checkmate (.*)$", out, re.M)
    assert m, out
    return m.group(1).split()


# ------------------------------------------------------------------ the four games


@pytest.mark.parametrize("game", ["shogi", "minishogi", "nanashogi", "giveandtake"])
def test_play_takeback_mate(page, shots, game):
    pg = page
    human = FIRST[game]
    st = choose_game(pg, game, human, ("depth", 2))
    assert st["sfen"] == START[game]
    assert len(st["legal"]) > 0 and st["result"] is None

    history = []  # sfen before each of the human's moves
    for i in range(3):
        wait_moves(pg, 2 * i)
        st = shown_state(pg)
        assert st["side"] == human
        mv = pick_move(game, st["legal"], 2 * i)
        history.append(st["sfen"])
        click_move(pg, game, mv)
        wait_moves(pg, 2 * i + 1)
        moves = move_list(pg)
        assert moves[2 * i] == mv, f"the move clicked ({mv}) is not in the move list {moves}"
        # The engine answers with one of the server's legal moves.
        wait_moves(pg, 2 * i + 2)
        moves = move_list(pg)
        answered = moves[2 * i + 1]
        legal_after = pg.evaluate(
            "ms => { const a = window.tsubamePage; const s = a.states.get(a.game.name + '|' + a.game.start + '|' + ms.join(' ')); return s ? s.legal : null; }",
            moves[: 2 * i + 1],
        )
        assert legal_after is not None
        assert answered in legal_after, f"engine move {answered} not legal: {legal_after}"

    # Take back: the engine's answer and the human's move go; the position is the one before.
    pg.click("#takeback")
    pg.wait_for_function("() => window.tsubamePage.game.moves.length === 4")
    st = shown_state(pg)
    assert st["sfen"] == history[2]
    assert st["side"] == human
    assert len(move_list(pg)) == 4

    # Keyboard: the left arrow steps back through the game, the right arrow forward.
    pg.click("#status")
    pg.keyboard.press("ArrowLeft")
    pg.wait_for_selector('#move-list li.current[data-ply="3"]')
    pg.keyboard.press("ArrowRight")
    pg.wait_for_selector('#move-list li.current[data-ply="4"]')

    # Screenshot of the game in progress.
    path = shots / f"{game}-play.png"
    pg.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")

    # Set up and solve: paste the position, ask for a mate, compare the line.
    sfen, line = MATES[game]
    assert verified_mate(game, sfen) == line
    pg.select_option("#side-select", "both")
    pg.fill("#position-input", sfen)
    pg.click("#load-position")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
    st = shown_state(pg)
    assert st["result"] is None
    pg.fill("#mate-ms", "30000")
    pg.click("#mate-button")
    pg.wait_for_selector('#mate-result[data-result="mate"]')
    # Each move of the line carries its move string (`data-usi`), whatever notation it is written in.
    shown = pg.eval_on_selector_all("#mate-line li", "els => els.map(e => e.dataset.usi)")
    assert shown == line
    # Clicking the last move of the line plays the line: the side that mated has won.
    pg.click(f'#mate-line li[data-mate-ply="{len(line)}"]')
    pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=len(line))
    assert move_list(pg) == line
    st = shown_state(pg)
    assert st["result"] is not None
    assert st["result"]["winner"] == sfen.split()[1]
    pg.wait_for_selector("#status[data-result]")
    # No legal move in check is named a checkmate in the games with a king (issue 68).
    reason = st["result"]["reason"]
    if reason == "no legal move" and st["check"] and game != "giveandtake":
        reason = "checkmate"
    assert reason in pg.text_content("#status")
    if len(line) > 1:
        # Step back to the first move of the line by clicking it.
        pg.click('#mate-line li[data-mate-ply="1"]')
        pg.wait_for_function("() => window.tsubamePage.game.cursor === 1")
        assert shown_state(pg)["result"] is None

    path = shots / f"{game}-mate.png"
    pg.click(f'#mate-line li[data-mate-ply="{len(line)}"]')
    pg.wait_for_selector("#status[data-result]")
    pg.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def test_promotion_choice(page):
    """A move that may promote or not asks; the answer chosen is the move played."""
    pg = page
    choose_game(pg, "shogi", "both")
    sfen = "4k4/9/9/4P4/9/9/9/9/4K4 b - 1"  # the pawn on 5d may step to 5c promoting or not
    pg.fill("#position-input", sfen)
    pg.click("#load-position")
    # The page switches once the server has accepted the position.
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
    st = shown_state(pg)
    assert "5d5c" in st["legal"] and "5d5c+" in st["legal"]
    square(pg, "5d")
    assert pg.get_attribute('#board [data-square="5c"]', "data-target") == "1"
    square(pg, "5c")
    pg.wait_for_selector("#chooser:not([hidden])")
    pg.click('#chooser [data-choice="promote"]')
    wait_moves(pg, 1)
    assert move_list(pg) == ["5d5c+"]
    assert "+P" in shown_state(pg)["sfen"]


def test_nana_cube_faces(page):
    """A cube shows its face and, small, the face it turns to next."""
    pg = page
    pg.select_option("#piece-set", "latin")
    choose_game(pg, "nanashogi", "both")
    pg.fill("#position-input", "2k/M2/1CK b b 1")
    pg.click("#load-position")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg="2k/M2/1CK b b 1")
    shown_state(pg)
    pg.wait_for_selector('#board [data-square="2c"] [data-next="W"]')
    assert pg.text_content('#board [data-square="2c"] .piece-letter') == "C"
    assert pg.text_content('#board [data-square="3b"] .piece-letter') == "M"
    assert pg.get_attribute('#board [data-square="3b"] .next-face', "data-next") == "D"


def test_analysis_multipv_and_eval_graph(page, shots):
    pg = page
    choose_game(pg, "minishogi", "both")
    pg.select_option("#multipv", "2")
    pg.click("#analyse")
    pg.wait_for_selector('#pv-lines li[data-multipv="2"]')
    pg.wait_for_function("() => /depth \\d+/.test(document.getElementById('analysis-info').textContent)")
    pg.wait_for_function("() => Number(document.getElementById('eval-graph').dataset.points) >= 1")
    legal = shown_state(pg)["legal"]
    pg.click("#analyse")  # stop
    pg.wait_for_selector('#analyse[data-running="0"]')
    line = pg.get_attribute('#pv-lines li[data-multipv="1"]', "data-pv").split()
    assert line and line[0] in legal
    pg.click('#pv-lines li[data-multipv="1"]')
    wait_moves(pg, len(line))
    assert move_list(pg) == line
    path = shots / "analysis-minishogi.png"
    pg.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def test_usi_record_round_trip(page, browser, server):
    pg = page
    choose_game(pg, "giveandtake", "both")
    for mv in ["c3-c4", "c6-c5"]:
        n = len(move_list(pg))
        click_move(pg, "giveandtake", mv)
        wait_moves(pg, n + 1)
    # c4:c6 is the capture that must go on: the page keeps asking for stops until it is complete.
    legal = shown_state(pg)["legal"]
    assert all(":" in m for m in legal)
    capture = max(legal, key=lambda m: m.count(":"))
    click_move(pg, "giveandtake", capture)
    wait_moves(pg, 3)
    assert move_list(pg) == ["c3-c4", "c6-c5", capture]
    with pg.expect_download() as d:
        pg.click("#download-usi")
    text = Path(d.value.path()).read_text()
    assert f"position sfen {START['giveandtake']} moves c3-c4 c6-c5 {capture}" in text

    # Load it back into a fresh page.
    other = new_context(browser).new_page()
    other.set_default_timeout(WAIT_MS)
    other.goto(server.url)
    other.wait_for_selector('#connection[data-state="open"]')
    other.select_option("#side-select", "both")
    other.fill("#record-text", text)
    other.click("#load-record")
    wait_moves(other, 3)
    assert move_list(other) == ["c3-c4", "c6-c5", capture]
    assert shown_state(other)["sfen"] == shown_state(pg)["sfen"]
    other.context.close()


def test_kif_record_round_trip(page, browser, server):
    pg = page
    choose_game(pg, "shogi", "both")
    for mv in ["7g7f", "3c3d"]:
        n = len(move_list(pg))
        click_move(pg, "shogi", mv)
        wait_moves(pg, n + 1)
    played = move_list(pg)
    assert len(played) == 2
    with pg.expect_download() as d:
        pg.click("#download-kif")
    assert d.value.suggested_filename == "shogi.kifu"
    kif = Path(d.value.path()).read_text(encoding="utf-8")
    assert "手合割：平手" in kif
    assert "   1 ７六歩(77)" in kif and "   2 ３四歩(33)" in kif, kif

    # Load the file back into a fresh page that shows another game, where KIF is not offered.
    other = new_context(browser).new_page()
    other.set_default_timeout(WAIT_MS)
    other.goto(server.url + "?game=minishogi")
    other.wait_for_selector('#connection[data-state="open"]')
    other.wait_for_function("() => window.tsubamePage.game.name === 'minishogi'")
    assert other.is_hidden("#download-kif") and other.is_hidden("#download-csa")
    other.select_option("#side-select", "both")
    other.set_input_files("#record-file", d.value.path())
    wait_moves(other, 2)
    assert move_list(other) == played
    assert shown_state(other)["sfen"] == shown_state(pg)["sfen"]
    assert other.is_visible("#download-kif") and other.is_visible("#download-csa")
    other.context.close()


def article_games() -> list[tuple[str, str, list[str], str]]:
    """The rows of engine-tests/data/minishogi-games.tsv: game, start, moves, final position."""
    rows = (REPO / "engine-tests" / "data" / "minishogi-games.tsv").read_text().splitlines()[1:]
    return [(r[0], r[1], r[2].split(), r[3]) for r in (line.split("\t") for line in rows if line.strip())]


def test_article_game_is_one_click_away(page):
    pg = page
    pg.select_option("#side-select", "both")
    title, start, moves, final = article_games()[0]
    button = pg.locator(f'#presets button[data-preset="{example_preset(pg, "minishogi", kind="game")}"]')
    button.wait_for()
    assert title in button.text_content()
    button.click()
    wait_moves(pg, len(moves))
    assert move_list(pg) == moves
    assert pg.evaluate("() => window.tsubamePage.game.start") == start
    assert shown_state(pg)["sfen"] == final
    # The move list steps through it with the arrow keys.
    pg.focus("#move-list")
    pg.keyboard.press("Home")
    pg.wait_for_selector('#move-list li.current[data-ply="0"]')
    pg.keyboard.press("ArrowRight")
    pg.wait_for_selector('#move-list li.current[data-ply="1"]')


def test_giveandtake_examples_are_one_click_away(page):
    pg = page
    pg.select_option("#side-select", "both")
    routes = example_preset(pg, "giveandtake", sfen="8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1")
    pg.click(f'#presets button[data-preset="{routes}"]')
    assert pg.input_value("#position-input") == "8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1"
    st = shown_state(pg)
    assert st["sfen"] == "8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1"
    assert "e5:e8:e2:a2:h2" in st["legal"] and "e5:e1:e8" in st["legal"]
    # The README's session: after c3-c4 c6-c5 the capture c4:c6:c8 is the only move.
    forced = example_preset(pg, "giveandtake", moves=["c3-c4", "c6-c5"])
    pg.click(f'#presets button[data-preset="{forced}"]')
    wait_moves(pg, 2)
    assert move_list(pg) == ["c3-c4", "c6-c5"]
    assert shown_state(pg)["legal"] == ["c4:c6:c8"]


def test_nana_solved_start_without_a_table_explains(page):
    pg = page
    assert pg.evaluate("() => window.tsubamePage.hello.games.some((g) => g.exact && g.exact.loaded)") is False
    pg.click(f'#presets button[data-preset="{example_preset(pg, "nanashogi", exact=True)}"]')
    pg.wait_for_function(
        "() => document.getElementById('mate-result').textContent.includes('--nana-tablebase FILE')"
    )
    assert "tsubame solve nanashogi" in pg.text_content("#mate-result")


def test_server_error_is_shown(page):
    pg = page
    pg.select_option("#side-select", "both")
    pg.fill("#position-input", "4k4/9/9/9/9/9/9/9/4Q4 b - 1")
    pg.click("#load-position")
    pg.wait_for_selector("#error:not([hidden])")
    assert pg.text_content("#error").strip()


# The page closed, with Reconnect offered (its text is the predicate's value): checked at one
# instant, since an automatic retry briefly shows "connecting".
CLOSED_NOW = (
    "() => { const c = document.getElementById('connection');"
    " return c.dataset.state === 'closed' && !document.getElementById('reconnect').hidden"
    " && c.textContent; }"
)


def test_closed_socket_shows_reconnect(browser):
    s = Server()
    try:
        pg = new_context(browser).new_page()
        pg.set_default_timeout(WAIT_MS)
        pg.goto(s.url)
        pg.wait_for_selector('#connection[data-state="open"]')
        s.stop()
        pg.wait_for_function(CLOSED_NOW)
        pg.context.close()
    finally:
        s.stop()

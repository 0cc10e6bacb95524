"""tsubame's Windows build under Wine: it answers as the Linux build does.

The Windows binaries (tsubame.exe, tsubame-match.exe, built with `--target
x86_64-pc-windows-gnu`) are in $TSUBAME_WIN_DIR, with the test-only stand-in bcryptprimitives.dll
beside them (engine-tests/windows/bcryptprimitives.c: Wine 8.0 lacks the ProcessPrng that Rust's
standard library imports; Windows has it). `tools/test-all` builds them and sets the variable when
the machine has Wine and mingw-w64 (`.ci/run` installs both); without it every test here is
skipped, saying why. The Linux binary they are compared with is $TSUBAME_BIN (or the release
build).

Checked: a USI conversation in each game (usi, options, isready, position, go depth / movetime /
infinite with stop, go mate, quit), `go perft` counts and the best move at a fixed depth equal to
the Linux build's, input lines ending in CR LF, option values that are Windows paths with
backslashes and non-ASCII characters, a 10-game match between two Windows engines run by the
Windows match runner, and the page server answering on loopback.
"""

import os
import re
import shutil
import subprocess
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = ["shogi", "minishogi", "nanashogi", "giveandtake"]
# perft depths cheap enough under Wine, and positions searched to a fixed depth, per game.
PERFT_DEPTH = {"shogi": 4, "minishogi": 4, "nanashogi": 5, "giveandtake": 4}


def unavailable(reason: str):
    """Skips the test by hand; fails it in CI, which installs what it needs."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def wine_missing():
    """Why the Windows build cannot be run here, or None when it can."""
    # tools/windows-prereqs names each missing piece with the command that adds it.
    r = subprocess.run([str(REPO / "tools" / "windows-prereqs")], capture_output=True, text=True)
    if r.returncode != 0:
        return "missing: " + "; ".join(r.stdout.split("\n")).strip("; ")
    if not os.environ.get("TSUBAME_WIN_DIR"):
        return ("TSUBAME_WIN_DIR is not set: run these tests through tools/test-all, which builds "
                "the Windows binaries into target/windows-test and sets it")
    return None


def win_dir() -> Path:
    reason = wine_missing()
    if reason:
        unavailable(reason)
    return Path(os.environ["TSUBAME_WIN_DIR"])


def linux_bin() -> Path:
    env = os.environ.get("TSUBAME_BIN")
    return Path(env) if env else REPO / "target" / "release" / "tsubame"


def wine_env() -> dict:
    env = dict(os.environ)
    env.setdefault("WINEDEBUG", "-all")
    env.setdefault("WINEPREFIX", str(Path(os.environ.get("TMPDIR", "/tmp")) / "tsubame-wineprefix"))
    return env


@pytest.fixture(scope="module", autouse=True)
def one_wineserver():
    """One persistent wineserver, with the prefix made, for all the tests of this module.

    Without it every `wine` run starts a wineserver when none is running, the first one also
    makes the prefix, and the server exits 3 s after its last program: a run could start while
    the previous run's server was going away. Nothing is done where the tests would skip.
    """
    if wine_missing():
        yield
        return
    env = wine_env()
    subprocess.run(["wineserver", "-p"], env=env, timeout=60)
    subprocess.run(["wine", "wineboot", "--init"], env=env, capture_output=True, timeout=300)
    yield
    subprocess.run(["wineserver", "-k"], env=env, timeout=60)


def run_script(cmd: list, lines: list, timeout: float = 120, crlf: bool = False) -> str:
    """Feeds `lines` to a process and returns everything it printed (standard output).

    A Wine run that printed nothing at all on standard output, and did not panic, is run once
    more, with a warning giving its exit status and standard error: every script here makes a
    running engine print something, so such a run is Wine failing to start the program or to
    hand it its input (seen once in CI), not an answer of the engine's. A second empty run fails
    the test where it asserts.
    """
    end = "\r\n" if crlf else "\n"
    text = "".join(line + end for line in lines).encode()
    run = lambda: subprocess.run(cmd, input=text, capture_output=True, timeout=timeout,
                                 env=wine_env(), cwd=cmd_dir(cmd))
    r = run()
    stderr = r.stderr.decode("utf-8", "replace")
    if cmd[0] == "wine" and not r.stdout.strip() and "panicked" not in stderr:
        warnings.warn(f"{cmd} printed nothing (exit status {r.returncode}; standard error "
                      f"{stderr[-2000:]!r}); running it once more")
        r = run()
    return r.stdout.decode("utf-8", "replace").replace("\r\n", "\n")


def cmd_dir(cmd: list):
    return str(Path(cmd[-1]).parent) if cmd[0] == "wine" else None


def windows(lines, **kw) -> str:
    return run_script(["wine", str(win_dir() / "tsubame.exe")], lines, **kw)


def linux(lines, **kw) -> str:
    return run_script([str(linux_bin())], lines, **kw)


def bestmoves(text: str) -> list:
    return re.findall(r"^bestmove (\S+)", text, re.M)


@pytest.mark.parametrize("game", GAMES)
def test_a_conversation_in_each_game(game):
    out = windows([
        "usi",
        "isready",
        f"setoption name USI_Variant value {game}",
        "setoption name USI_Hash value 16",
        "usinewgame",
        "position startpos",
        "go depth 3",
        "isready",
        "go movetime 200",
        "isready",
        "go infinite",
        "stop",
        "isready",
        "quit",
    ])
    assert "id name tsubame" in out
    assert "option name USI_Variant type combo" in out
    assert out.count("usiok") == 1 and out.count("readyok") == 4, out
    assert len(bestmoves(out)) == 3, out
    assert "info string error" not in out, out


@pytest.mark.parametrize("game", GAMES)
def test_perft_and_the_fixed_depth_search_agree_with_linux(game):
    depth = PERFT_DEPTH[game]
    script = [f"setoption name USI_Variant value {game}", "position startpos", f"go perft {depth}"]
    count = lambda text: re.search(r"^Nodes searched: (\d+)$", text, re.M).group(1)
    assert count(windows(script)) == count(linux(script))
    search = [f"setoption name USI_Variant value {game}", "position startpos", "go depth 6"]
    assert bestmoves(windows(search)) == bestmoves(linux(search))


def test_mate_searches_agree_with_linux():
    for game, sfen in [
        ("shogi", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"),
        ("minishogi", "3k1/2bsg/p4/g2Kp/5 w RBSr 30"),
    ]:
        script = [f"setoption name USI_Variant value {game}", f"position sfen {sfen}", "go mate 10000"]
        line = lambda text: re.search(r"^checkmate .*$", text, re.M).group(0)
        assert line(windows(script)) == line(linux(script))


def test_input_lines_may_end_in_cr_lf():
    out = windows(["usi", "isready", "position startpos moves 7g7f", "go depth 2"], crlf=True)
    assert "usiok" in out and "readyok" in out and bestmoves(out), out
    assert "info string error" not in out, out


def to_windows_path(path: Path) -> str:
    r = subprocess.run(["winepath", "-w", str(path)], capture_output=True, env=wine_env(), timeout=60)
    return r.stdout.decode("utf-8").strip()


def test_file_options_take_windows_paths_with_backslashes_and_non_ascii(tmp_path):
    folder = tmp_path / "ネットワーク files"
    folder.mkdir()
    net = folder / "評価関数.nnue"
    shutil.copy(REPO / "src" / "games" / "shogi" / "shogi.nnue", net)
    not_a_table = folder / "表.tb"
    not_a_table.write_bytes(b"not a table")
    out = windows([
        f"setoption name EvalFile value {to_windows_path(net)}",
        "setoption name USI_Variant value nanashogi",
        f"setoption name NanaTablebase value {to_windows_path(not_a_table)}",
        "isready",
        "position startpos",
        "go depth 2",
    ])
    assert "info string loaded shogi network" in out, out
    assert re.search(r"info string error: NanaTablebase .*refused", out), out
    assert "readyok" in out and len(bestmoves(out)) == 1, out


def test_a_match_between_two_windows_engines(tmp_path):
    d = win_dir()
    out_dir = tmp_path / "match"
    r = subprocess.run(
        ["wine", str(d / "tsubame-match.exe"), "--game", "minishogi",
         "--engine", "cmd=tsubame.exe", "name=A", "--engine", "cmd=tsubame.exe", "name=B",
         "--each", "option.USI_Hash=8", "--nodes", "2000", "--games", "10", "-c", "2",
         "--out", to_windows_path(out_dir), "--quiet"],
        capture_output=True, timeout=600, env=wine_env(), cwd=str(d))
    text = r.stdout.decode("utf-8", "replace") + r.stderr.decode("utf-8", "replace")
    assert r.returncode == 0, text
    rows = (out_dir / "results.tsv").read_text().strip().splitlines()[1:]
    assert len(rows) == 10, text
    assert all(row.split("\t")[4] in ("1-0", "0-1", "1/2-1/2") for row in rows), rows


def test_the_page_server_answers_on_loopback():
    d = win_dir()
    server = subprocess.Popen(["wine", str(d / "tsubame.exe"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=wine_env(),
                              cwd=str(d))
    try:
        url = None
        deadline = time.time() + 60
        while time.time() < deadline and url is None:
            line = server.stdout.readline().decode("utf-8", "replace")
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            url = m.group(1) if m else None
        assert url, "the server printed no URL"
        with urllib.request.urlopen(url + "health", timeout=30) as r:
            assert r.status == 200 and b'"sessions":0' in r.read()
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200 and b"<html" in r.read()
    finally:
        server.kill()
        server.wait(timeout=30)

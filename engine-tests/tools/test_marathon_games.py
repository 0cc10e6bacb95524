"""tools/marathon-games, the short version of the 10,000-game marathon (issue 47): one batch in
each game at fast clocks and mixed settings, every game replayed by the oracles; then the same
command again, which finds every batch done and plays nothing; and Ctrl-C pressed again and again
stops it cleanly."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "marathon-games"
TSUBAME = Path(os.environ.get("TSUBAME_BIN", REPO / "target" / "release" / "tsubame"))
# The runner beside the engine (a release build of the workspace), else the one tools/test-all's
# Rust tests built (target/fast-test).
MATCH = next(
    (p for p in [TSUBAME.with_name("tsubame-match"),
                 Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "fast-test" / "tsubame-match"]
     if p.exists()),
    TSUBAME.with_name("tsubame-match"),
)


def command(out):
    return [sys.executable, str(TOOL), "--games", "8", "--batch", "2", "--quick", "--oracle-every",
            "1", "--engine", str(TSUBAME), "--match", str(MATCH), "--out", str(out)]


def run(out):
    return subprocess.run(command(out), capture_output=True, text=True, timeout=600)


def test_short_marathon_plays_refereed_games_and_resumes(tmp_path):
    out = tmp_path / "marathon"
    first = run(out)
    assert first.returncode == 0, first.stdout + first.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["failures"] == []
    games = summary["games"]
    assert sorted(games) == ["giveandtake", "minishogi", "nanashogi", "shogi"]
    for name, g in games.items():
        assert g["games"] == 2, (name, g)
        assert g["tsubame faults"] == {}, (name, g)
        assert g["referee disagreements"] == 0, (name, g)
        assert sum(g["reasons"].values()) == 2
        assert g["oracle checked"] == 2, (name, g)
        assert g["oracle moves"] > 0
    # Run again: every batch is done, nothing is played, the totals are the same.
    second = run(out)
    assert second.returncode == 0, second.stdout + second.stderr
    assert json.loads((out / "summary.json").read_text())["games"] == games
    assert len(list(out.glob("batch-*/done.json"))) == 4


def test_ctrl_c_again_and_again_stops_without_a_traceback_and_leaves_the_batch_undone(tmp_path):
    # Ctrl-C in a terminal signals the whole process group (the tool, the runner, its engines);
    # a second press while the tool is stopping once broke it with a KeyboardInterrupt traceback.
    out = tmp_path / "marathon"
    tool = subprocess.Popen(command(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.time() + 60
    while not (out / "batch-00000").exists() and tool.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    assert tool.poll() is None, "the marathon ended before the first batch began"
    # Press again and again (every 2 ms) until the tool is gone, so that presses land while it
    # stops the runner and writes the summary.
    while tool.poll() is None and time.time() < deadline + 60:
        try:
            os.killpg(tool.pid, signal.SIGINT)
        except ProcessLookupError:
            break
        time.sleep(0.002)
    stdout, stderr = tool.communicate(timeout=120)
    assert tool.returncode == 130, stdout + stderr
    assert "interrupted in batch" in stdout, stdout + stderr
    assert "Traceback" not in stderr, stderr
    assert (out / "summary.json").exists()
    assert len(list(out.glob("batch-*/done.json"))) < 4

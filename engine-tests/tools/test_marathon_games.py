"""tools/marathon-games, the short version of the 10,000-game marathon (issue 47): one batch in
each game at fast clocks and mixed settings, every game replayed by the oracles; then the same
command again, which finds every batch done and plays nothing."""

import json
import os
import subprocess
import sys
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


def run(out):
    return subprocess.run(
        [sys.executable, str(TOOL), "--games", "8", "--batch", "2", "--quick", "--oracle-every",
         "1", "--engine", str(TSUBAME), "--match", str(MATCH), "--out", str(out)],
        capture_output=True, text=True, timeout=600,
    )


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

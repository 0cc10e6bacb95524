"""tools/serve-restart: the page server killed (SIGKILL) mid-game and started again on the same
port; the client sees its connection end, is refused while the server is down, and goes on with
the same game on the new server. For each game: the protocol keeps no game on the server."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "serve-restart"
TSUBAME = Path(os.environ.get("TSUBAME_BIN", REPO / "target" / "release" / "tsubame"))


@pytest.mark.parametrize("game", ["shogi", "giveandtake"])
def test_killed_and_restarted_mid_game(tmp_path, game):
    report = tmp_path / "restart.json"
    r = subprocess.run(
        [sys.executable, str(TOOL), "--engine", str(TSUBAME), "--game", game, "--json",
         str(report)],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    rec = json.loads(report.read_text())
    assert rec["ok"]
    assert rec["exit_status"] == -9
    # No close frame and no answer to the search: the stream just ends.
    assert not rec["close_frame"]
    assert rec["client_saw"] in ("end of stream",) or rec["client_saw"].startswith("connection error")
    assert "bestmove" not in rec["messages_before_drop"]
    assert rec["reconnect_while_down"].startswith("ConnectionRefusedError")
    assert rec["hello_after_restart"] == "hello"
    assert rec["state_after_equal"]
    assert rec["moves_after"][:4] == rec["moves_before"] and len(rec["moves_after"]) == 6
    assert rec["sessions_after"] == 0

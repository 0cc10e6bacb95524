"""tools/serve-soak, short: 60 s of four tabs playing, analysing, solving and reloading in the four
games, sampled every 5 s.

The memory check is the tool's own, with one change for a run this short: its levels are medians
of the samples of 20 s windows (4 samples) instead of 60 s, and the end level may be 15 % above
the reference instead of 10 %. Under load the server's resident memory swings by several per cent
from sample to sample (80.2 to 88.2 MiB in a 60 s trial, with the reference at 81.9 MiB): each
tab's mate search swaps its 16 MiB search table for a 16 MiB mate table and back, freeing one and
faulting in the other, and a 4-sample median does not smooth that out as a 6-sample one over a
30-minute run does. 15 % still fails a session's engine left behind (its table alone is about
20 % of the level), and the check after the tabs (back to idle + 10 % + 8 MiB) is unchanged."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "serve-soak"
TSUBAME = Path(os.environ.get("TSUBAME_BIN", REPO / "target" / "release" / "tsubame"))
GAMES = ["shogi", "minishogi", "nanashogi", "giveandtake"]


def test_a_minute_of_four_tabs(tmp_path):
    r = subprocess.run(
        [sys.executable, str(TOOL), "--engine", str(TSUBAME), "--duration", "60", "--interval",
         "5", "--warmup", "20", "--window", "20", "--rss-tolerance", "15", "--reload-every",
         "20", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=400,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["ok"] and summary["tabs"] == 4
    checks = {c["check"]: c for c in summary["checks"]}
    for name in ["server alive", "no session errors", "no hangs", "sessions end", "RSS",
                 "threads bounded", "fds bounded", "RSS back near idle", "threads back to idle",
                 "fds back to idle"]:
        assert checks[name]["held"] and checks[name]["binding"], checks[name]
    counts = summary["counts"]
    for g in GAMES:
        assert counts[g]["moves"] > 0 and counts[g]["searches"] > 0, (g, counts[g])
    total = counts["all"]
    assert total["analyses"] > 0 and total["mates"] > 0 and total["records"] > 0, total
    assert total["reloads"] > 0, total
    assert not summary["problems"]
    with open(tmp_path / "samples.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    assert all(int(row["sessions"]) == 4 or int(row["reloads"]) > 0 for row in rows)
    assert all(int(row["rss_kib"]) > 0 and int(row["threads"]) > 0 for row in rows)
    assert (tmp_path / "summary.txt").read_text().rstrip().endswith("serve-soak: ok")


def test_a_server_that_dies_fails_the_soak(tmp_path):
    sys.path.insert(0, str(REPO / "tools"))
    import serve_client

    server = serve_client.Server(TSUBAME, 0)
    try:
        soak = subprocess.Popen(
            [sys.executable, str(TOOL), "--url", f"http://127.0.0.1:{server.port}/", "--duration",
             "60", "--interval", "2", "--deadline", "10", "--out", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        lines = []
        for line in soak.stdout:
            lines.append(line)
            if line.startswith("["):
                break
        server.kill()
        rest, _ = soak.communicate(timeout=120)
        out = "".join(lines) + rest
        assert soak.returncode == 1, out
        summary = json.loads((tmp_path / "summary.json").read_text())
        checks = {c["check"]: c for c in summary["checks"]}
        assert not summary["ok"] and not checks["server alive"]["held"], out
        assert "serve-soak: FAIL" in out
    finally:
        server.kill()

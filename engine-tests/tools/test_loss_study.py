"""tools/loss-study finds the move after which tsubame's own score fell most in a lost game, and
groups it by what came next (here: a mate against it found within its next moves)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "loss-study"

# A lost game as tsubame (Black) saw it: +40, +10, -50, then mated.
MOVES = ["7g7f", "3c3d", "2g2f", "8c8d", "2h2g", "8d8e", "5i5h", "8e8f"]
SCORES = [(0, "cp 40"), (2, "cp 10"), (4, "cp -50"), (6, "mate -9")]


def write_match(tmp_path, result):
    log = []
    t = 0.0
    log.append(f"{t:10.3f} e1.w1 < id name tsubame 0.2.0")
    log.append(f"{t:10.3f} e2.w1 < id name other 1.0")
    for ply, score in SCORES:
        t += 1
        moves = " ".join(MOVES[:ply])
        log.append(f"{t:10.3f} e1.w1 > position startpos" + (f" moves {moves}" if moves else ""))
        log.append(f"{t:10.3f} e1.w1 > go btime 0 wtime 0 byoyomi 1000")
        log.append(f"{t:10.3f} e1.w1 < info depth 9 seldepth 12 score {score} nodes 10 pv x")
        log.append(f"{t:10.3f} e1.w1 < bestmove {MOVES[ply]}")
    (tmp_path / "usi.log").write_text("\n".join(log) + "\n")
    header = "game\topening\tblack\twhite\tresult\treason\tplies\tdetail\tposition\n"
    row = f"1\t1\ttsubame\tother\t{result}\tcheckmate\t{len(MOVES)}\t\tposition startpos moves {' '.join(MOVES)}\n"
    (tmp_path / "results.tsv").write_text(header + row)


def run(tmp_path):
    return subprocess.run(
        [sys.executable, str(TOOL), "--log", str(tmp_path / "usi.log"), "--results",
         str(tmp_path / "results.tsv"), "--out", str(tmp_path / "drops.tsv")],
        capture_output=True, text=True, timeout=60, check=True).stdout


def test_the_turning_point_of_a_lost_game_is_the_largest_fall_and_grouped_as_mate(tmp_path):
    write_match(tmp_path, "0-1")
    out = run(tmp_path)
    assert "1 games, 1 lost on the board, 1 turning points" in out, out
    # Falls: 40 -> 10 (30 cp), 10 -> -50 (60 cp), -50 -> mated: the last, from a score still
    # open (above -300), so the move played at -50, 2h2g at ply 5, is the turning point.
    rows = (tmp_path / "drops.tsv").read_text().splitlines()
    head = rows[0].split("\t")
    row = dict(zip(head, rows[1].split("\t")))
    assert (row["ply"], row["played"], row["group"]) == ("5", "2h2g", "mate"), row
    assert row["position"] == "position startpos moves " + " ".join(MOVES[:4])


def test_a_game_lost_on_time_is_left_out(tmp_path):
    write_match(tmp_path, "0-1")
    results = tmp_path / "results.tsv"
    results.write_text(results.read_text().replace("checkmate", "time forfeit"))
    out = run(tmp_path)
    assert "1 games, 0 lost on the board, 0 turning points (1 more lost on time, left out)" in out, out


def test_a_won_game_has_no_turning_point(tmp_path):
    write_match(tmp_path, "1-0")
    out = run(tmp_path)
    assert "1 games, 0 lost on the board, 0 turning points" in out, out
    assert not (tmp_path / "drops.tsv").exists()

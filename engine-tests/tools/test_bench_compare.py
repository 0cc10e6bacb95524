"""tools/bench-compare: runs every binary each round, pairs the speeds by round, and says whether
the bench node counts agree (checked with stand-in binaries whose speed is known)."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "bench-compare"


def fake(tmp_path, name, nodes, nps):
    """A stand-in for `tsubame bench` that prints a fixed bench line and counts its runs."""
    path = tmp_path / name
    path.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"open({str(tmp_path / (name + '.count'))!r}, 'a').write('x')\n"
        "assert sys.argv[1:] == ['bench']\n"
        f"print('Nodes searched: {nodes}')\n"
        f"print('bench: {nodes} nodes {nps} nps (1000 ms, 1 thread)')\n"
    )
    path.chmod(0o755)
    return path


def test_ratios_rounds_and_node_counts(tmp_path):
    base = fake(tmp_path, "base", 1000, 800)
    same = fake(tmp_path, "same", 1000, 760)
    other = fake(tmp_path, "other", 999, 1000)
    log = tmp_path / "log.txt"
    out = subprocess.run(
        [sys.executable, str(TOOL), "--rounds", "3", "--log", str(log), str(base), str(same),
         str(other)],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout
    for name in ["base", "same", "other"]:
        assert (tmp_path / (name + ".count")).read_text() == "xxx"
    assert len(log.read_text().splitlines()) == 9
    assert re.search(r"same against \S*base: 0\.950 ± 0\.000 .*same bench nodes", out), out
    assert re.search(r"other against \S*base: 1\.250 ± 0\.000 .*bench nodes differ", out), out
    # The order rotates: each binary runs first in one of the three rounds.
    firsts = [line.split()[1] for line in log.read_text().splitlines()[::3]]
    assert sorted(Path(f).name for f in firsts) == ["base", "other", "same"]


def test_a_binary_without_a_bench_line_is_reported(tmp_path):
    silent = tmp_path / "silent"
    silent.write_text(f"#!{sys.executable}\nprint('nothing')\n")
    silent.chmod(0o755)
    base = fake(tmp_path, "base", 1000, 800)
    done = subprocess.run(
        [sys.executable, str(TOOL), "--rounds", "1", str(base), str(silent)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0 and "no 'bench: N nodes M nps' line" in done.stderr

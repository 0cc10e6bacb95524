"""The Give and Take oracle itself: the article's checks of RULES.md section 4 hold in it (the
engine's perft table engine-tests/data/perft-giveandtake.tsv comes from it, so it must be right
first), and the table's rows are what it counts now."""

import csv
import os

import giveandtake as gt

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "perft-giveandtake.tsv")


def test_the_article_checks_hold():
    assert gt.selftest() == 0


def test_the_perft_table_is_the_oracles_own_count():
    with open(DATA, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 91
    # Every row to depth 3 (the depth-7 start row alone takes the oracle about 20 s).
    for row in rows:
        if int(row["depth"]) <= 3:
            pos = gt.parse_position(row["position"])
            assert gt.perft(pos, int(row["depth"])) == int(row["nodes"]), row

"""Helpers shared by the oracle tests: seed positions, position keys, and the
comparison loop that checks tsubame's legal moves against a reference library.

Nothing here tests anything by itself; the test_*.py files do.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from usi_engine import EngineError, UsiEngine

# engine-tests/data holds copies of the shared reference TSV files.
DATA_DIR = Path(__file__).resolve().parents[1] / "data"

# How many mismatching positions a failure message shows in full.
REPORT_LIMIT = 10
# How many moves of each set difference are printed per position.
MOVES_SHOWN = 20


def load_sfens(tsv_name: str, column: str = "sfen") -> list[str]:
    """Distinct SFENs of one column of a TSV in engine-tests/data, in file order."""
    path = DATA_DIR / tsv_name
    with path.open(newline="", encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        sfens = [row[column].strip() for row in rows]
    return list(dict.fromkeys(s for s in sfens if s))


def position_key(sfen: str) -> str:
    """An SFEN without its move number: two positions with equal keys are the same."""
    return " ".join(sfen.split()[:3])


@dataclass
class Mismatch:
    """One position where the engine and the oracle disagree."""

    sfen: str
    only_oracle: set[str] = field(default_factory=set)  # legal per oracle, missing in engine
    only_engine: set[str] = field(default_factory=set)  # listed by engine, illegal per oracle
    error: str | None = None  # engine rejected the position or broke the protocol

    def describe(self) -> str:
        if self.error:
            return f"  {self.sfen}\n    engine error: {self.error}"
        return (
            f"  {self.sfen}\n"
            f"    missing in engine ({len(self.only_oracle)}): {_fmt(self.only_oracle)}\n"
            f"    extra in engine   ({len(self.only_engine)}): {_fmt(self.only_engine)}"
        )


def _fmt(moves: set[str]) -> str:
    shown = sorted(moves)[:MOVES_SHOWN]
    more = len(moves) - len(shown)
    return " ".join(shown) + (f" ... (+{more})" if more > 0 else "") if moves else "-"


def compare_with_engine(
    engine: UsiEngine,
    positions: Iterable[tuple[str, set[str]]],
    variant: str,
) -> tuple[int, list[Mismatch]]:
    """Ask the engine about every (sfen, oracle_moves) pair; return (count, mismatches).

    A position the engine rejects with `info string error`, or whose `Nodes searched`
    total differs from the number of listed moves, counts as a mismatch too.
    """
    mismatches: list[Mismatch] = []
    count = 0
    for sfen, oracle_moves in positions:
        count += 1
        result = engine.perft1(sfen, variant)
        if result.errors:
            mismatches.append(Mismatch(sfen, error=result.errors[0]))
            continue
        engine_moves = result.move_set
        if len(result.moves) != len(engine_moves):
            dupes = sorted({m for m in result.moves if result.moves.count(m) > 1})
            mismatches.append(Mismatch(sfen, error=f"duplicate moves listed: {dupes}"))
            continue
        if result.nodes != len(engine_moves):
            mismatches.append(
                Mismatch(sfen, error=f"Nodes searched {result.nodes} != {len(engine_moves)} moves listed")
            )
            continue
        if engine_moves != oracle_moves:
            mismatches.append(Mismatch(sfen, oracle_moves - engine_moves, engine_moves - oracle_moves))
    return count, mismatches


def failure_report(oracle: str, count: int, mismatches: list[Mismatch]) -> str:
    """A readable failure message listing the first REPORT_LIMIT mismatches."""
    lines = [
        f"tsubame disagrees with {oracle} on {len(mismatches)} of {count} positions "
        f"(first {min(len(mismatches), REPORT_LIMIT)} shown):"
    ]
    lines += [m.describe() for m in mismatches[:REPORT_LIMIT]]
    return "\n".join(lines)


def open_engine(variant: str) -> UsiEngine:
    """Start the engine and select the variant (may raise VariantUnsupported)."""
    engine = UsiEngine()
    try:
        engine.set_variant(variant)
    except EngineError:
        engine.close()
        raise
    return engine


def check_against_oracle(
    engine: UsiEngine,
    oracle: str,
    variant: str,
    positions: Iterable[tuple[str, set[str]]],
    minimum: int,
) -> int:
    """Compare all positions, assert at least `minimum` were checked and none differ."""
    count, mismatches = compare_with_engine(engine, positions, variant)
    assert count >= minimum, f"only {count} positions generated, expected at least {minimum}"
    assert not mismatches, failure_report(oracle, count, mismatches)
    return count


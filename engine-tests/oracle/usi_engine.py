"""The oracle tests' USI client, which asks tsubame for legal moves: the tools' one USI client
(tools/tsubame_tools.py's UsiEngine) with the game's selection and `go perft 1`.

It starts the engine binary once, keeps the conversation open, and answers
`legal_moves(sfen, variant)` by sending `position sfen <sfen>` and `go perft 1`
and collecting the `<move>: 1` lines up to `Nodes searched: <N>`.

Every read has a timeout (a reader thread feeds a queue), so a hung or crashed
engine makes the test fail with a clear message instead of hanging pytest.

The binary is taken from the environment variable TSUBAME_BIN, or else from
`<repo>/target/release/tsubame`, where <repo> is found relative to this file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# engine-tests/oracle/usi_engine.py -> the repository root is two levels up.
REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import tsubame_tools  # noqa: E402  (the tools' one USI client)
from tsubame_tools import EngineError  # noqa: E402,F401  (re-exported for the tests)

DEFAULT_BINARY = REPO_ROOT / "target" / "release" / "tsubame"

# Seconds to wait for any single line of output before declaring the engine hung.
DEFAULT_TIMEOUT = 20.0

_PERFT_LINE = re.compile(r"^(\S+): (\d+)$")
_NODES_LINE = re.compile(r"^Nodes searched: (\d+)$")


class VariantUnsupported(EngineError):
    """The engine refused `setoption name USI_Variant` with an `info string error`."""


class PerftResult:
    """Moves reported by one `go perft 1`, plus any `info string error` lines seen."""

    def __init__(self, moves: list[str], nodes: int, errors: list[str]):
        self.moves = moves
        self.nodes = nodes
        self.errors = errors

    @property
    def move_set(self) -> set[str]:
        return set(self.moves)


def engine_binary() -> Path:
    """Path of the engine to test: $TSUBAME_BIN or the release build in this repo."""
    return tsubame_tools.engine_binary()


class UsiEngine(tsubame_tools.UsiEngine):
    """One running engine process driven over USI on its stdin/stdout (tools/tsubame_tools.py's
    client, with the oracle tests' game selection and `go perft 1`)."""

    def __init__(self, binary: Path | None = None, timeout: float = DEFAULT_TIMEOUT):
        super().__init__(binary, timeout=timeout)
        # The engine's default game, which needs no USI_Variant.
        self.variant = "shogi"

    # -- high level ----------------------------------------------------------------

    def set_variant(self, variant: str) -> None:
        """Select the game; raise VariantUnsupported if the engine answers with an error."""
        if variant == self.variant:
            return
        self.set_option("USI_Variant", variant)
        lines = self.isready()
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise VariantUnsupported(f"engine refused variant {variant!r}: {errors[0]}")
        self.variant = variant

    def perft1(self, sfen: str, variant: str = "shogi") -> PerftResult:
        """Run `go perft 1` on the position and return what the engine listed."""
        self.set_variant(variant)
        self.position(f"sfen {sfen}")
        self.send("go perft 1")
        moves: list[str] = []
        errors: list[str] = []
        while True:
            line = self.read_line()
            nodes = _NODES_LINE.match(line)
            if nodes:
                return PerftResult(moves, int(nodes.group(1)), errors)
            if line.startswith("info string error"):
                errors.append(line)
                continue
            entry = _PERFT_LINE.match(line)
            if entry:
                if entry.group(2) != "1":
                    raise EngineError(f"perft 1 printed a count other than 1: {line!r}")
                moves.append(entry.group(1))
            # Anything else (other info lines) is ignored.

    def legal_moves(self, sfen: str, variant: str = "shogi") -> set[str]:
        """The engine's legal moves in USI notation; EngineError if it rejected the position."""
        result = self.perft1(sfen, variant)
        if result.errors:
            raise EngineError(f"engine rejected {sfen!r}: {result.errors[0]}")
        return result.move_set

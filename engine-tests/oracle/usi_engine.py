"""A minimal USI client used by the oracle tests to ask tsubame for legal moves.

It starts the engine binary once, keeps the conversation open, and answers
`legal_moves(sfen, variant)` by sending `position sfen <sfen>` and `go perft 1`
and collecting the `<move>: 1` lines up to `Nodes searched: <N>`.

Every read has a timeout (a reader thread feeds a queue), so a hung or crashed
engine makes the test fail with a clear message instead of hanging pytest.

The binary is taken from the environment variable TSUBAME_BIN, or else from
`<repo>/target/release/tsubame`, where <repo> is found relative to this file.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import threading
from pathlib import Path

# engine-tests/oracle/usi_engine.py -> the repository root is two levels up.
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = REPO_ROOT / "target" / "release" / "tsubame"

# Seconds to wait for any single line of output before declaring the engine hung.
DEFAULT_TIMEOUT = 20.0

_PERFT_LINE = re.compile(r"^(\S+): (\d+)$")
_NODES_LINE = re.compile(r"^Nodes searched: (\d+)$")


class EngineError(RuntimeError):
    """The engine died, hung, or broke the protocol."""


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
    env = os.environ.get("TSUBAME_BIN")
    return Path(env) if env else DEFAULT_BINARY


class UsiEngine:
    """One running engine process driven over USI on its stdin/stdout."""

    def __init__(self, binary: Path | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.binary = Path(binary) if binary else engine_binary()
        self.timeout = timeout
        if not self.binary.is_file():
            raise EngineError(
                f"engine binary not found at {self.binary} "
                "(build it with `cargo build --release` or set TSUBAME_BIN)"
            )
        self.proc = subprocess.Popen(
            [str(self.binary)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,  # line buffered
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self.variant = "shogi"
        try:
            self.send("usi")
            self.wait_for(lambda line: line == "usiok")
            self.isready()
        except EngineError:
            self.close()
            raise

    # -- low level -----------------------------------------------------------------

    def _read_stdout(self) -> None:
        """Reader thread: push every output line to the queue, then None at EOF."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def send(self, command: str) -> None:
        """Write one command line to the engine."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise EngineError(f"engine exited (code {self.proc.poll()}) before {command!r}") from exc

    def read_line(self) -> str:
        """Next output line; raises EngineError on timeout or end of output."""
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineError(f"engine gave no output for {self.timeout} s (hung?)") from None
        if line is None:
            raise EngineError(f"engine exited unexpectedly (code {self.proc.wait()})")
        return line

    def wait_for(self, done) -> list[str]:
        """Read lines until `done(line)` is true; return all lines read, that one included."""
        lines = []
        while True:
            line = self.read_line()
            lines.append(line)
            if done(line):
                return lines

    def isready(self) -> list[str]:
        """Send `isready` and return the lines printed before `readyok`."""
        self.send("isready")
        return self.wait_for(lambda line: line == "readyok")[:-1]

    # -- high level ----------------------------------------------------------------

    def set_variant(self, variant: str) -> None:
        """Select the game; raise VariantUnsupported if the engine answers with an error."""
        if variant == self.variant:
            return
        self.send(f"setoption name USI_Variant value {variant}")
        lines = self.isready()
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise VariantUnsupported(f"engine refused variant {variant!r}: {errors[0]}")
        self.variant = variant

    def perft1(self, sfen: str, variant: str = "shogi") -> PerftResult:
        """Run `go perft 1` on the position and return what the engine listed."""
        self.set_variant(variant)
        self.send(f"position sfen {sfen}")
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

    def close(self) -> None:
        """Ask the engine to quit; kill it if it does not within a few seconds."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (EngineError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "UsiEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

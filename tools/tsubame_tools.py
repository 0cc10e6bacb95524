"""What the scripts of tools/ share (Python 3 standard library only): the games as the engine lists
them, and one USI client.

- `games(binary)`: the games of the registry and their settings, read from `tsubame games --json`
  (once per binary). No script keeps a list of the games or a per-game setting of its own: a game
  added to the registry (src/games/) reaches every tool through this. `game(name, binary)` finds
  one by name or alias, `default_game(binary)` is the one every program plays unless told
  otherwise.
- `UsiEngine`: a USI engine process (tsubame or any other) driven over stdin/stdout, every read
  with a timeout (a reader thread feeds a queue): `send`, `read_line`, `wait_for`,
  `wait_prefix`, the `usi` and `isready` handshakes, `set_option`, `new_game`, `position`, `go`
  (its info lines and bestmove) and `close`. engine-tests/oracle/usi_engine.py builds the oracle
  tests' client on it. `usi_info(path)` asks an engine once for its id name and options.

tools/check-layers fails a script that names two or more games or talks USI by itself instead of
importing this module. Import it from a script beside it:

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tsubame_tools as tt  # noqa: E402
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = REPO / "target" / "release" / "tsubame"


def engine_binary(given: str | os.PathLike | None = None) -> Path:
    """The engine: `given`, else $TSUBAME_BIN, else the release build of this repository."""
    if given:
        return Path(given)
    env = os.environ.get("TSUBAME_BIN")
    return Path(env) if env else DEFAULT_BINARY


# --- the games ---------------------------------------------------------------------------------

_GAMES: dict[tuple, dict] = {}


def games_document(binary: str | os.PathLike | None = None) -> dict:
    """The whole document of `BINARY games --json` (`{"default": NAME, "games": [...]}`), read once
    per binary (and again when the file changed). `binary`: as `engine_binary` takes it."""
    path = engine_binary(binary)
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = (str(path), None, None)
    if key not in _GAMES:
        try:
            out = subprocess.run([str(path), "games", "--json"], capture_output=True, text=True,
                                 timeout=60)
        except OSError as err:
            raise RuntimeError(f"cannot run {path} games --json: {err} (build it with "
                               "`cargo build --release`, or name the binary)") from None
        if out.returncode != 0:
            raise RuntimeError(f"{path} games --json failed (exit {out.returncode}): "
                               f"{out.stderr.strip()[-300:]}")
        _GAMES[key] = json.loads(out.stdout)
    return _GAMES[key]


def games(binary: str | os.PathLike | None = None) -> list[dict]:
    """Every game of the registry, in its order: each a dict of `tsubame games --json` (`name`,
    `aliases`, `title`, `startpos`, `first` ("b" or "w"), `files`, `ranks`, `records`
    ([{name, extension}]), `network`, `datagen`, `exact_table`, `rule_options`, `param_options`,
    `learning`, `weights`, `tools` ({random_plies, marathon_max_plies, soak_max_plies, ...}))."""
    return games_document(binary)["games"]


def game_names(binary: str | os.PathLike | None = None) -> list[str]:
    """The games' names, in the registry's order."""
    return [g["name"] for g in games(binary)]


def game(name: str, binary: str | os.PathLike | None = None) -> dict:
    """The game named `name` or one of its aliases (any case); ValueError naming the games when
    there is none."""
    for g in games(binary):
        if name.lower() in [n.lower() for n in [g["name"], *g["aliases"]]]:
            return g
    raise ValueError(f"unknown game '{name}' (the games: {', '.join(game_names(binary))})")


def default_game(binary: str | os.PathLike | None = None) -> dict:
    """The game every program plays unless told otherwise (the registry's first)."""
    doc = games_document(binary)
    return game(doc["default"], binary)


def first_and_second(game_info: dict, black: str, white: str) -> tuple[str, str]:
    """The players of a `tsubame-match` results.tsv row (its `black` and `white` columns) as (the
    one who moved first, the other): Black first unless the game starts with White to move. The
    row's result `1-0` is a win of the first."""
    return (white, black) if game_info["first"] == "w" else (black, white)


# --- the USI client ----------------------------------------------------------------------------

# Seconds to wait for a line of output by default (None: as long as it takes).
DEFAULT_TIMEOUT: float | None = 20.0
# A call's `timeout` when it is not given: the engine's own.
ENGINE_TIMEOUT = object()


class EngineError(RuntimeError):
    """The engine died, hung, or broke the protocol."""


class EngineTimeout(EngineError):
    """No line came in time; `lines` holds what was read before."""

    def __init__(self, message: str, lines: list[str] | None = None):
        super().__init__(message)
        self.lines = lines or []


class EngineExited(EngineError):
    """The engine's output ended; `lines` holds what was read before."""

    def __init__(self, message: str, lines: list[str] | None = None):
        super().__init__(message)
        self.lines = lines or []


@dataclass
class GoResult:
    """What a `go` answered: every line read (the `bestmove` line last), the `info` lines among
    them, the move and the ponder move."""

    lines: list[str] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)
    bestmove: str | None = None
    ponder: str | None = None

    @property
    def last_line(self) -> str | None:
        return self.lines[-1] if self.lines else None

    def last_score(self) -> tuple[str, int] | None:
        """The score of the last info line that has one: ("cp", N) or ("mate", N)."""
        for line in reversed(self.infos):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                if i + 2 < len(words):
                    try:
                        return words[i + 1], int(words[i + 2])
                    except ValueError:
                        return words[i + 1], 0
        return None


class UsiEngine:
    """One running USI engine process, driven over its stdin and stdout.

    `timeout`: seconds to wait for any line unless a call says otherwise (None: no limit).
    `handshake`: send `usi` and `isready` at start and wait for their answers (within
    `handshake_timeout`, default `timeout`). `stderr`: where the engine's standard error goes
    (subprocess's values; default: discarded). `log`: called with every line read (for a verbose
    mode)."""

    def __init__(self, binary: str | os.PathLike | None = None, *,
                 timeout: float | None = DEFAULT_TIMEOUT, args=(), cwd=None,
                 stderr=subprocess.DEVNULL, handshake: bool = True,
                 handshake_timeout: float | None = None, log=None):
        self.binary = engine_binary(binary)
        self.timeout = timeout
        self.log = log
        if not self.binary.is_file():
            raise EngineError(
                f"engine binary not found at {self.binary} "
                "(build it with `cargo build --release` or set TSUBAME_BIN)"
            )
        self.proc = subprocess.Popen(
            [str(self.binary), *[str(a) for a in args]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,  # line buffered
            cwd=cwd,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self.id_name: str | None = None
        self.options: list[str] = []
        if handshake:
            try:
                wait = handshake_timeout if handshake_timeout is not None else timeout
                self.usi(timeout=wait)
                self.isready(timeout=wait)
            except EngineError:
                self.close()
                raise

    # -- low level -----------------------------------------------------------------------------

    def _read_stdout(self) -> None:
        """Reader thread: push every output line to the queue, then None at EOF."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, command: str) -> None:
        """Write one command line to the engine."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise EngineError(f"engine exited (code {self.proc.poll()}) before {command!r}") from exc

    def read_line(self, timeout=ENGINE_TIMEOUT) -> str:
        """The next output line; EngineTimeout when none comes within `timeout` seconds (default:
        the engine's; None: no limit), EngineExited at the end of the output."""
        if timeout is ENGINE_TIMEOUT:
            timeout = self.timeout
        if self._ended:
            raise EngineExited(f"engine exited (code {self.proc.poll()})")
        try:
            line = self._lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            raise EngineTimeout(f"engine gave no output for {timeout} s (hung?)") from None
        if line is None:
            self._ended = True
            try:
                code = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
            raise EngineExited(f"engine exited unexpectedly (code {code})")
        if self.log:
            self.log(line)
        return line

    def wait_for(self, done, timeout=ENGINE_TIMEOUT,
                 deadline: float | None = None, each=None) -> list[str]:
        """Read lines until `done(line)` is true; return every line read, that one included.
        `timeout` bounds each line's wait (default: the engine's), `deadline` (a time.monotonic()
        value) the whole wait; `each(line)` is called on every line as it comes. On a timeout or
        the end of the output the error's `lines` holds the lines read."""
        lines: list[str] = []
        while True:
            wait = self.timeout if timeout is ENGINE_TIMEOUT else timeout
            if deadline is not None:
                left = deadline - time.monotonic()
                wait = left if wait is None else min(wait, left)
            try:
                line = self.read_line(wait)
            except EngineTimeout as exc:
                raise EngineTimeout(str(exc), lines) from None
            except EngineExited as exc:
                raise EngineExited(str(exc), lines) from None
            lines.append(line)
            if each:
                each(line)
            if done(line):
                return lines

    def wait_prefix(self, prefix: str, **kw) -> list[str]:
        """Read lines up to one whose first word is `prefix` (`readyok`, `bestmove`); return them
        all, that one last. Takes `wait_for`'s timeout, deadline and each."""
        return self.wait_for(lambda line: line.split()[:1] == [prefix], **kw)

    # -- the protocol --------------------------------------------------------------------------

    def usi(self, timeout=ENGINE_TIMEOUT, deadline: float | None = None) -> list[str]:
        """Send `usi`; read the engine's id and options up to `usiok` (kept in `id_name` and
        `options`); return the lines before `usiok`. Takes `wait_for`'s timeout and deadline."""
        self.send("usi")
        lines = self.wait_prefix("usiok", timeout=timeout, deadline=deadline)[:-1]
        for line in lines:
            if line.startswith("id name "):
                self.id_name = line[len("id name "):]
            elif line.startswith("option name "):
                self.options.append(line)
        return lines

    def isready(self, timeout=ENGINE_TIMEOUT, deadline: float | None = None) -> list[str]:
        """Send `isready` and return the lines printed before `readyok`. Takes `wait_for`'s
        timeout and deadline."""
        self.send("isready")
        return self.wait_prefix("readyok", timeout=timeout, deadline=deadline)[:-1]

    def set_option(self, name: str, value) -> None:
        """`setoption name NAME value VALUE`."""
        self.send(f"setoption name {name} value {value}")

    def new_game(self) -> None:
        """`usinewgame`."""
        self.send("usinewgame")

    def position(self, start: str = "startpos", moves=()) -> None:
        """`position START [moves ...]`: START is `startpos` or `sfen SFEN` (a bare SFEN gets
        the word `sfen`)."""
        if start != "startpos" and not start.startswith("sfen "):
            start = "sfen " + start
        moves = list(moves)
        self.send(f"position {start}" + (" moves " + " ".join(moves) if moves else ""))

    def go(self, limits: str = "", timeout=ENGINE_TIMEOUT,
           deadline: float | None = None, each=None) -> GoResult:
        """`go LIMITS`, then every line up to `bestmove`: the info lines, the move and the ponder
        move. Takes `wait_for`'s timeout, deadline and each."""
        self.send(f"go {limits}".rstrip())
        lines = self.wait_prefix("bestmove", timeout=timeout, deadline=deadline, each=each)
        words = lines[-1].split()
        return GoResult(
            lines=lines,
            infos=[line for line in lines if line.split()[:1] == ["info"]],
            bestmove=words[1] if len(words) > 1 else None,
            ponder=words[3] if len(words) > 3 and words[2] == "ponder" else None,
        )

    def close(self, timeout: float | None = 5) -> None:
        """Ask the engine to quit; kill it if it does not within `timeout` seconds."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=timeout)
            except (EngineError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        """End the process at once."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def __enter__(self) -> "UsiEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def usi_info(path: Path, timeout: float = 15) -> dict:
    """The id name and announced options of a USI engine, asked once (`usi`, then `quit`) in its
    own folder: {"id": NAME, "options": {lower-case name: (name, default)}, "lines": [the option
    lines]}; the id is "unknown (...)" when the engine did not answer."""
    try:
        r = subprocess.run(
            [str(path)],
            input="usi\nquit\n",
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=str(path.parent),
        )
        out = r.stdout
    except (OSError, subprocess.SubprocessError) as err:
        return {"id": f"unknown ({err})", "options": {}, "lines": []}
    ident, options, lines = "unknown (no id name)", {}, []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("id name "):
            ident = line[len("id name "):]
        elif line.startswith("option name "):
            lines.append(line)
            words = line.split()
            default = ""
            if "default" in words:
                i = words.index("default")
                # A string default may be empty or hold spaces; up to the next keyword.
                rest = []
                for w in words[i + 1:]:
                    if w in ("min", "max", "var"):
                        break
                    rest.append(w)
                default = " ".join(rest)
            options[words[2].lower()] = (words[2], default)
    return {"id": ident, "options": options, "lines": lines}

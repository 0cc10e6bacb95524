"""A WebSocket client for `tsubame serve`, written over plain sockets (Python 3 standard library
only), for tools/ws-fuzz, tools/serve-soak and tools/serve-restart.

It speaks RFC 6455 as the page's browser does (masked frames, the page's `Origin`), and can also
write any frame at all: wrong opcodes, reserved bits, unmasked or fragmented frames, lengths that
lie. Besides the client: starting `tsubame serve` on a free loopback port, `GET /health`, the games
a server serves (its `hello`), and the server process's resident memory, threads and open file
descriptors from /proc. The games and their settings as the binary lists them, and the engine's
path, are tools/tsubame_tools.py's.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import socket
import struct
import subprocess
import threading
import time
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tsubame_tools import DEFAULT_BINARY, REPO, engine_binary  # noqa: E402,F401

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Closed(Exception):
    """The connection ended (end of stream, reset, or a close frame)."""


class HandshakeRefused(Exception):
    """The server did not switch protocols; `status` is its HTTP status (0: no answer)."""

    def __init__(self, status: int, text: str):
        super().__init__(f"upgrade refused: HTTP {status}: {text[:200]!r}")
        self.status = status


# --- the server process -------------------------------------------------------------------------

class Server:
    """`tsubame serve --port PORT ARGS`, its URL read from the line it prints; its stderr kept
    (the last 200 lines)."""

    def __init__(self, binary, port: int = 0, args=(), start_timeout: float = 30.0,
                 env: dict | None = None):
        self.binary = str(binary)
        self.args = [str(a) for a in args]
        self.stderr_tail: deque[str] = deque(maxlen=200)
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", str(port), *self.args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, errors="replace", env={**os.environ, **(env or {})},
        )
        found: list[str] = []
        ready = threading.Event()

        def read_out():
            for line in self.proc.stdout:
                m = re.search(r"tsubame serve: http://([^/\s]+)/", line)
                if m and not found:
                    found.append(m.group(1))
                    ready.set()
            ready.set()

        def read_err():
            for line in self.proc.stderr:
                self.stderr_tail.append(line.rstrip("\n"))

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()
        if not ready.wait(start_timeout) or not found:
            self.kill()
            raise RuntimeError(
                f"tsubame serve printed no URL (exit {self.proc.poll()}): "
                + " | ".join(self.stderr_tail))
        self.hostport = found[0]
        self.port = int(self.hostport.rsplit(":", 1)[1])
        self.pid = self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self, sig: int = 9):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass

    stop = kill


def free_port() -> int:
    """A loopback port that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listener_pid(port: int) -> int | None:
    """The process listening on 127.0.0.1:`port` (or any address), found through /proc: the
    inode of the listening socket in /proc/net/tcp*, then the process holding it."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if len(f) > 9 and f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f[9])
    if not inodes:
        return None
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return int(pid)
        except OSError:
            continue
    return None


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists and has not ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def proc_stats(pid: int) -> dict:
    """The process's resident memory (VmRSS, KiB), threads and open file descriptors."""
    rss = threads = None
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return {"rss_kib": rss, "threads": threads, "fds": fds}


# --- HTTP ---------------------------------------------------------------------------------------

def http_get(port: int, path: str, host: str | None = None, timeout: float = 10.0,
             extra: str = "") -> tuple[int, bytes]:
    """A plain HTTP/1.1 GET (Connection: close): the status and the body."""
    host = host or f"127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
                  .encode())
        raw = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    return (int(m.group(1)) if m else 0), body


def health(port: int, timeout: float = 10.0) -> int:
    """The live sessions, from `GET /health`."""
    status, body = http_get(port, "/health", timeout=timeout)
    if status != 200:
        raise RuntimeError(f"/health answered HTTP {status}")
    return int(json.loads(body)["sessions"])


def wait_sessions(port: int, n: int, timeout: float) -> tuple[bool, int, float]:
    """Waits until the server counts `n` live sessions: (reached, last count, seconds waited)."""
    start = time.monotonic()
    last = -1
    while True:
        try:
            last = health(port, timeout=max(1.0, timeout))
        except (OSError, RuntimeError, ValueError):
            last = -1
        waited = time.monotonic() - start
        if last == n:
            return True, last, waited
        if waited > timeout:
            return False, last, waited
        time.sleep(0.02)


def wait_sessions_at_most(port: int, n: int, timeout: float) -> tuple[bool, int, float]:
    """Waits until the server counts at most `n` live sessions."""
    start = time.monotonic()
    while True:
        try:
            last = health(port, timeout=max(1.0, timeout))
        except (OSError, RuntimeError, ValueError):
            last = -1
        waited = time.monotonic() - start
        if 0 <= last <= n:
            return True, last, waited
        if waited > timeout:
            return False, last, waited
        time.sleep(0.02)


# --- frames -------------------------------------------------------------------------------------

def build_frame(opcode: int, payload: bytes = b"", fin: bool = True, rsv: int = 0,
                mask: bool = True, mask_key: bytes | None = None, length: int | None = None,
                length_form: int | None = None) -> bytes:
    """One frame. `length` writes another length than the payload's (a lie); `length_form`
    forces the 7-bit (0), 16-bit (126) or 64-bit (127) length encoding, minimal or not."""
    n = len(payload) if length is None else length
    b0 = (0x80 if fin else 0) | ((rsv & 7) << 4) | (opcode & 0x0F)
    form = length_form
    if form is None:
        form = 0 if n < 126 else 126 if n < 65536 else 127
    m = 0x80 if mask else 0
    if form == 0:
        head = struct.pack("!BB", b0, m | (n & 0x7F))
    elif form == 126:
        head = struct.pack("!BBH", b0, m | 126, n & 0xFFFF)
    else:
        head = struct.pack("!BBQ", b0, m | 127, n & 0xFFFF_FFFF_FFFF_FFFF)
    if not mask:
        return head + payload
    key = mask_key if mask_key is not None else os.urandom(4)
    return head + key + xor_mask(payload, key)


def xor_mask(payload: bytes, key: bytes) -> bytes:
    if not payload:
        return b""
    n = len(payload)
    k = int.from_bytes((key * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(payload, "big") ^ k).to_bytes(n, "big")


# --- the client ---------------------------------------------------------------------------------

class WS:
    """One WebSocket connection to `tsubame serve` (client side)."""

    def __init__(self, sock: socket.socket, buffered: bytes = b""):
        self.sock = sock
        self.buf = bytearray(buffered)
        self.closed = False
        self.close_frame: tuple[int | None, str] | None = None
        self.frames_sent = 0
        self.bytes_sent = 0

    # opening
    @staticmethod
    def handshake_request(port: int, host: str | None = None, origin: str | None = "same",
                          path: str = "/ws", extra: str = "", key: str | None = None) -> bytes:
        host = host or f"127.0.0.1:{port}"
        key = key or base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin == "same":
            lines.append(f"Origin: http://{host}")
        elif origin is not None:
            lines.append(f"Origin: {origin}")
        return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()

    @classmethod
    def connect(cls, port: int, timeout: float = 10.0, early: bytes = b"", host: str | None = None,
                origin: str | None = "same", extra: str = "", linger_rst: bool = False) -> "WS":
        """Opens `/ws` as the page does; `early` bytes (frames) go out in the same write as the
        upgrade request, before the server's answer. Raises HandshakeRefused or OSError."""
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if linger_rst:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        try:
            sock.sendall(cls.handshake_request(port, host, origin, extra=extra, key=key) + early)
            raw = b""
            deadline = time.monotonic() + timeout
            while b"\r\n\r\n" not in raw:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(4096)
                if not chunk:
                    raise HandshakeRefused(0, raw.decode("latin-1"))
                raw += chunk
            head, _, rest = raw.partition(b"\r\n\r\n")
            m = re.match(rb"HTTP/1\.1 (\d{3})", head)
            status = int(m.group(1)) if m else 0
            if status != 101:
                raise HandshakeRefused(status, raw.decode("latin-1"))
            accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
            if accept.encode() not in head:
                raise HandshakeRefused(status, "wrong Sec-WebSocket-Accept")
        except BaseException:
            sock.close()
            raise
        ws = cls(sock, rest)
        ws.bytes_sent += len(early)
        return ws

    # sending
    def send_raw(self, data: bytes):
        self.sock.sendall(data)
        self.bytes_sent += len(data)

    def send_frame(self, opcode: int, payload: bytes = b"", **kw):
        self.send_raw(build_frame(opcode, payload, **kw))
        self.frames_sent += 1

    def send_text(self, text: str):
        self.send_frame(OP_TEXT, text.encode("utf-8", "surrogatepass"))

    def send_json(self, obj):
        self.send_text(json.dumps(obj, ensure_ascii=False))

    # receiving
    def _fill(self, n: int, deadline: float):
        while len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame in time")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise TimeoutError("no frame in time") from None
            except OSError as e:
                self.closed = True
                raise Closed(f"connection error: {e}") from None
            if not chunk:
                self.closed = True
                raise Closed("end of stream")
            self.buf += chunk

    def recv_frame(self, timeout: float) -> tuple[bool, int, bytes]:
        """The next frame from the server: (fin, opcode, payload)."""
        deadline = time.monotonic() + timeout
        self._fill(2, deadline)
        b0, b1 = self.buf[0], self.buf[1]
        n = b1 & 0x7F
        at = 2
        if n == 126:
            self._fill(4, deadline)
            n = struct.unpack("!H", self.buf[2:4])[0]
            at = 4
        elif n == 127:
            self._fill(10, deadline)
            n = struct.unpack("!Q", self.buf[2:10])[0]
            at = 10
        if b1 & 0x80:
            at += 4  # a masked server frame (a protocol error, but read past it)
        if n > 64 * 1024 * 1024:
            raise Closed(f"server frame of {n} bytes")
        self._fill(at + n, deadline)
        payload = bytes(self.buf[at:at + n])
        del self.buf[:at + n]
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def recv_message(self, timeout: float, answer_pings: bool = True):
        """The next whole message: ("text", str), ("binary", bytes) or ("close", code, reason);
        answers pings, skips pongs. Raises Closed at the end of the stream, TimeoutError."""
        deadline = time.monotonic() + timeout
        parts: list[bytes] = []
        kind = None
        while True:
            fin, op, payload = self.recv_frame(max(0.0, deadline - time.monotonic()))
            if op == OP_PING:
                if answer_pings and not self.closed:
                    try:
                        self.send_frame(OP_PONG, payload)
                    except OSError:
                        pass
                continue
            if op == OP_PONG:
                continue
            if op == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.close_frame = (code, payload[2:].decode("utf-8", "replace"))
                return ("close", code, self.close_frame[1])
            if op in (OP_TEXT, OP_BINARY):
                kind = op
                parts = [payload]
            elif op == OP_CONT:
                parts.append(payload)
            if fin and kind is not None:
                data = b"".join(parts)
                if kind == OP_TEXT:
                    return ("text", data.decode("utf-8"))
                return ("binary", data)

    def recv_json(self, timeout: float):
        """The next text message as JSON; None when the server sent a close frame."""
        m = self.recv_message(timeout)
        if m[0] == "close":
            return None
        if m[0] != "text":
            raise ValueError(f"unexpected {m[0]} message")
        return json.loads(m[1])

    def wait_for(self, pred, timeout: float, seen: list | None = None):
        """Reads messages until one satisfies `pred`; the others go to `seen`. Raises
        TimeoutError, Closed (also for a close frame)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv_json(max(0.0, deadline - time.monotonic()))
            if msg is None:
                raise Closed(f"close frame {self.close_frame}")
            if pred(msg):
                return msg
            if seen is not None:
                seen.append(msg)

    def drain(self, seconds: float) -> list:
        """Every message that comes within `seconds` (stops early at the end of the stream)."""
        got = []
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return got
            try:
                got.append(self.recv_message(left))
            except (TimeoutError, Closed, ValueError, UnicodeDecodeError):
                return got

    # ending
    def close(self, how: str = "frame"):
        """Ends the connection: `frame` (a close frame, then the socket), `fin` (the socket, no
        frame), `rst` (a reset: SO_LINGER 0), `shut_wr` (half-close: no more writes; the socket
        stays open for reading until close() again)."""
        if self.closed and how != "fin":
            how = "fin"
        try:
            if how == "frame":
                self.send_frame(OP_CLOSE, struct.pack("!H", 1000))
            elif how == "rst":
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            elif how == "shut_wr":
                self.sock.shutdown(socket.SHUT_WR)
                return
        except OSError:
            pass
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


def server_games(port: int, timeout: float = 15.0) -> list[str]:
    """The names of the games the server serves, in its order (the registry's), from the `hello`
    of a connection opened and closed for it."""
    ws = WS.connect(port, timeout=timeout)
    try:
        hello = ws.recv_json(timeout)
    finally:
        ws.close("frame")
    if not hello or hello.get("op") != "hello":
        raise RuntimeError(f"no hello from 127.0.0.1:{port}: {hello}")
    return [g["name"] for g in hello["games"]]


def play_session(port: int, game: str, timeout: float = 15.0, nodes: int = 2000):
    """A well-behaved client: hello, the start's `state`, a short search. Returns (ok, why)."""
    ws = None
    try:
        ws = WS.connect(port, timeout=timeout)
        hello = ws.recv_json(timeout)
        if not hello or hello.get("op") != "hello":
            return False, f"no hello: {hello}"
        ws.send_json({"op": "state", "id": 1, "game": game, "sfen": "startpos", "moves": []})
        st = ws.wait_for(lambda m: m.get("id") == 1, timeout)
        if st.get("op") != "state" or not st.get("legal"):
            return False, f"state: {st}"
        ws.send_json({"op": "go", "id": 2, "game": game, "sfen": "startpos", "moves": [],
                      "limits": {"nodes": nodes}})
        bm = ws.wait_for(lambda m: m.get("id") == 2 and m.get("op") != "info", timeout)
        if bm.get("op") != "bestmove" or bm.get("move") not in st["legal"]:
            return False, f"go: {bm}"
        return True, "ok"
    except (OSError, TimeoutError, Closed, HandshakeRefused, ValueError) as e:
        return False, f"{type(e).__name__}: {e}"
    finally:
        if ws:
            ws.close("frame")

"""tools/ws-fuzz, short: every kind of step twice against the real server (about 60 s), and a
server that dies under it is caught and its step written down."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "ws-fuzz"
TSUBAME = Path(os.environ.get("TSUBAME_BIN", REPO / "target" / "release" / "tsubame"))
sys.path.insert(0, str(REPO / "tools"))
import serve_client  # noqa: E402


def kinds() -> list[str]:
    out = subprocess.run([sys.executable, str(TOOL), "--list-kinds"], capture_output=True,
                         text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines()]


def test_every_kind_finds_nothing(tmp_path):
    n = len(kinds())
    r = subprocess.run(
        [sys.executable, str(TOOL), "--engine", str(TSUBAME), "--round-robin", "--count",
         str(2 * n), "--seed", "1", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "ws-fuzz: ok" in out
    assert f"{2 * n} steps" in out
    per_kind = dict(re.findall(r"(\S+) (\d+)", re.search(r"steps per kind: (.*)", out).group(1)))
    assert sorted(per_kind) == sorted(kinds()) and set(per_kind.values()) == {"2"}, per_kind
    # The end: threads and fds exactly back to idle, memory within its bound (checked by the tool,
    # read back here).
    m = re.search(r"server idle: RSS ([\d.]+) MiB, (\d+) threads, (\d+) fds; peak: .*; "
                  r"end \(after settling\): RSS ([\d.]+) MiB, (\d+) threads, (\d+) fds", out)
    assert m, out
    idle_rss, idle_threads, idle_fds, end_rss, end_threads, end_fds = m.groups()
    assert (end_threads, end_fds) == (idle_threads, idle_fds)
    assert float(end_rss) <= float(idle_rss) * 1.1 + 8
    probes = re.search(r"probes: (\d+) after steps", out)
    assert probes and int(probes.group(1)) == 2 * n
    assert not list(tmp_path.glob("fail-*.json"))


def test_a_server_that_dies_is_caught(tmp_path):
    server = serve_client.Server(TSUBAME, 0)
    try:
        fuzz = subprocess.Popen(
            [sys.executable, str(TOOL), "--url", f"http://127.0.0.1:{server.port}/", "--duration",
             "120", "--settle", "1", "--deadline", "5", "--seed", "3", "--out", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        lines = []
        for line in fuzz.stdout:
            lines.append(line)
            if line.startswith("step"):
                break
        server.kill(signal.SIGKILL)
        rest, _ = fuzz.communicate(timeout=120)
        out = "".join(lines) + rest
        assert fuzz.returncode == 1, out
        assert "server-died" in out or "not-served" in out, out
        files = list(tmp_path.glob("fail-3-*.json"))
        assert len(files) == 1, out
        saved = json.loads(files[0].read_text())
        assert saved["seed"] == 3 and saved["actions"] and saved["replay"].startswith("tools/ws-fuzz")
    finally:
        server.kill(signal.SIGKILL)

"""tools/windows-prereqs names each missing piece of the Windows build with the command that adds
it (what tools/test-all prints when it skips the Windows tests), and tools/release checks those
pieces before any build, so a missing one is said at once."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PREREQS = REPO / "tools" / "windows-prereqs"


def fake_path(tmp_path, *, target: bool, mingw: bool, wine: bool) -> str:
    """A PATH whose rustc knows the Windows target or not, with stand-ins for mingw-w64 and Wine
    where asked, and the system's folders after it for bash and the rest (a system mingw or Wine
    is hidden by the stand-ins' absence only where the system has none: the tests below ask
    only what a stand-in decides)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    libdir = tmp_path / "libdir"
    libdir.mkdir()
    rustc = bin_dir / "rustc"
    rustc.write_text("#!/bin/sh\n" + (f"echo {libdir}\n" if target else "exit 1\n"))
    names = (["x86_64-w64-mingw32-gcc"] if mingw else []) + (["wine"] if wine else [])
    for name in names + ["rustc"]:
        f = bin_dir / name
        if not f.exists():
            f.write_text("#!/bin/sh\nexit 0\n")
        f.chmod(0o755)
    return f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"


def run(args, path):
    return subprocess.run([str(PREREQS), *args], capture_output=True, text=True,
                          env=dict(os.environ, PATH=path), timeout=60)


def test_nothing_missing_says_nothing(tmp_path):
    r = run([], fake_path(tmp_path, target=True, mingw=True, wine=True))
    assert (r.returncode, r.stdout) == (0, ""), r.stdout + r.stderr


def test_only_the_rust_target_missing_is_named_alone_with_its_command(tmp_path):
    r = run([], fake_path(tmp_path, target=False, mingw=True, wine=True))
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "the Rust target x86_64-pc-windows-gnu: rustup target add x86_64-pc-windows-gnu"
    ], r.stdout


def test_build_only_never_asks_for_wine(tmp_path):
    path = fake_path(tmp_path, target=True, mingw=True, wine=False)
    r = run(["--build-only"], path)
    assert (r.returncode, r.stdout) == (0, ""), r.stdout
    # Without --build-only Wine is needed; the line names it unless the system has one.
    r = run([], path)
    has_wine = subprocess.run(["sh", "-c", "command -v wine"], capture_output=True,
                              env=dict(os.environ, PATH=path)).returncode == 0
    assert ("apt-get install wine64" in r.stdout) == (not has_wine), r.stdout


def test_release_refuses_before_building_when_the_target_is_missing(tmp_path):
    out = tmp_path / "dist"
    path = fake_path(tmp_path, target=False, mingw=True, wine=True)
    r = subprocess.run([sys.executable, str(REPO / "tools" / "release"), "--out", str(out)],
                       capture_output=True, text=True, env=dict(os.environ, PATH=path),
                       timeout=60)
    assert r.returncode != 0
    assert "rustup target add x86_64-pc-windows-gnu" in r.stderr, r.stderr
    assert "--skip-windows" in r.stderr, r.stderr
    assert "==> cargo build" not in r.stdout, "a build started before the check"
    assert not out.exists() or not any(out.iterdir())


def test_release_help_explains_its_switches():
    r = subprocess.run([sys.executable, str(REPO / "tools" / "release"), "--help"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "--skip-windows build the Linux archive alone" in text, text
    assert "--no-check skip the checks after the build" in text, text

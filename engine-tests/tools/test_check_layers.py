"""tools/check-layers: the repository keeps docs/architecture.md's promises (no program names a
game, no folder imports one above it), and the checker catches a line that breaks each of them."""

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "check-layers"


def check(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TOOL), str(repo)], capture_output=True, text=True, timeout=60
    )


def copy_sources(tmp_path: Path) -> Path:
    """The parts of the repository the checker reads, copied."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("*.nnue"))
    for tool in (REPO / "tools").iterdir():
        if (tool / "src").is_dir():
            shutil.copytree(tool / "src", root / "tools" / tool.name / "src")
    return root


def test_the_repository_keeps_its_layers():
    r = check(REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no program names a game" in r.stdout


def test_a_program_that_names_a_game_is_caught(tmp_path):
    root = copy_sources(tmp_path)
    assert check(root).returncode == 0
    engine = root / "src" / "engine" / "mod.rs"
    text = engine.read_text()
    engine.write_text(text.replace(
        "pub const ENGINE_NAME",
        "pub const FAVOURITE: GameId = GameId::Minishogi;\n"
        'pub const GREETING: &str = "play nanashogi";\n'
        "pub const ENGINE_NAME",
        1,
    ))
    r = check(root)
    assert r.returncode == 1
    assert "names a game's variant" in r.stdout and "GameId::Minishogi" in r.stdout
    assert "a game's name in a string" in r.stdout and "play nanashogi" in r.stdout


def test_an_import_from_above_is_caught(tmp_path):
    root = copy_sources(tmp_path)
    search = root / "src" / "search" / "mod.rs"
    search.write_text("use crate::engine::Engine;\n" + search.read_text())
    r = check(root)
    assert r.returncode == 1
    assert "search (layer 3) imports engine (layer 4)" in r.stdout

"""tools/check-layers: the repository keeps docs/architecture.md's promises (no program names a
game, no folder imports one above it, no script of tools/ lists the games or talks USI by itself),
and the checker catches a line that breaks each of them."""

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
    """The parts of the repository the checker reads, copied: src/, the tools' Rust sources and
    the scripts of tools/."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("*.nnue"))
    (root / "tools").mkdir()
    for tool in (REPO / "tools").iterdir():
        if (tool / "src").is_dir():
            shutil.copytree(tool / "src", root / "tools" / tool.name / "src")
        elif tool.is_file():
            shutil.copy2(tool, root / "tools" / tool.name)
    return root


def add_script(root: Path, name: str, body: str) -> Path:
    """A Python script of tools/ (a file without extension whose first line names python)."""
    path = root / "tools" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/usr/bin/env python3\n" + body)
    path.chmod(0o755)
    return path


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


def test_the_scripts_are_checked():
    r = check(REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "scripts of tools/" in r.stdout and "no script talks USI" in r.stdout


def test_a_script_with_a_list_of_the_games_is_caught(tmp_path):
    root = copy_sources(tmp_path)
    assert check(root).returncode == 0
    add_script(root, "fake-tour", (
        'GAMES = ["shogi", "Minishogi"]\n'
        'MAX_PLIES = {"nana": 40}\n'
        'print("a tour of shogi and minishogi")  # prose names no list\n'
    ))
    r = check(root)
    assert r.returncode == 1, r.stdout
    assert 'tools/fake-tour:2: a list of the games (minishogi, nanashogi, shogi' in r.stdout
    assert "tools/fake-tour:3:" in r.stdout and "tools/fake-tour:4" not in r.stdout


def test_a_script_with_a_special_case_of_a_game_is_caught(tmp_path):
    root = copy_sources(tmp_path)
    add_script(root, "fake-first", (
        'def first(game):\n'
        '    return "w" if game == "giveandtake" else "b"\n'
    ))
    r = check(root)
    assert r.returncode == 1
    assert "tools/fake-first:3: a special case of a game" in r.stdout


def test_a_script_with_its_own_usi_client_is_caught(tmp_path):
    root = copy_sources(tmp_path)
    add_script(root, "fake-client", (
        "import subprocess\n"
        "p = subprocess.Popen(['tsubame'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
        "p.stdin.write('usi\\n')\n"
        "p.stdin.write('isready\\n')\n"
        "while p.stdout.readline().strip() != 'readyok':\n"
        "    pass\n"
        'subprocess.run(["tsubame"], input="usi\\nusinewgame\\nquit\\n", text=True)\n'
        'FUZZ_OPS = ["state", "isready"]  # strings to send elsewhere are no client\n'
    ))
    # A helper script in a tool's folder (not its Rust sources or tests) is a script too.
    (root / "tools" / "spsa").mkdir(exist_ok=True)
    (root / "tools" / "spsa" / "helper.py").write_text(
        "def ready(engine):\n    engine.send(f\"usinewgame\")\n")
    r = check(root)
    assert r.returncode == 1, r.stdout
    for line in (5, 6, 8):
        assert f"tools/fake-client:{line}: talks USI itself" in r.stdout, r.stdout
    assert "tools/fake-client:4:" not in r.stdout and "tools/fake-client:9:" not in r.stdout
    assert "tools/spsa/helper.py:2: talks USI itself" in r.stdout
    # The shared client is the one place that may.
    shared = root / "tools" / "tsubame_tools.py"
    assert "isready" in shared.read_text()
    assert "tools/tsubame_tools.py" not in r.stdout.replace("use tools/tsubame_tools.py", "")


def test_data_about_other_engines_may_name_games_and_is_listed(tmp_path):
    root = copy_sources(tmp_path)
    add_script(root, "fake-opponents", (
        "# check-layers: other engines (the games each opponent plays)\n"
        'OPPONENTS = {"shogi": "yaneuraou", "minishogi": "fairy-stockfish"}\n'
        "# check-layers: end\n"
        'DEFAULT = "shogi"\n'
    ))
    r = check(root)
    assert r.returncode == 0, r.stdout
    assert "not checked for game names: tools/fake-opponents lines 2-4" in r.stdout

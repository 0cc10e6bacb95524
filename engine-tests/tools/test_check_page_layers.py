"""tools/check-page-layers: the page's modules (src/serve/assets/js) keep the layers of
docs/serve.md ("The page's modules"): no import cycle, no import of a higher layer, every module in
the table; and the checker catches an import that breaks each."""

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "check-page-layers"
SCRIPTS = Path("src/serve/assets/js")


def check(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TOOL), *args, str(repo)], capture_output=True, text=True, timeout=60
    )


def copy_scripts(tmp_path: Path) -> Path:
    """The page's modules, copied into a repository of their own."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / SCRIPTS, root / SCRIPTS)
    return root


def prepend(root: Path, module: str, line: str):
    path = root / SCRIPTS / module
    path.write_text(line + "\n" + path.read_text())


def test_the_page_keeps_its_layers():
    r = check(REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "none upwards, no cycle" in r.stdout
    assert "main.js" in check(REPO, "--map").stdout


def test_a_copy_passes_until_a_cycle_is_injected(tmp_path):
    root = copy_scripts(tmp_path)
    assert check(root).returncode == 0
    # connection.js imports dom.js alone, which imports no module of the page; dom.js importing
    # connection.js closes a cycle of two inside one layer (no import runs upwards), over several
    # lines as main.js writes its long imports.
    prepend(root, "dom.js", "import {\n  send,\n} from './connection.js';")
    r = check(root)
    assert r.returncode == 1, r.stdout
    assert "an import cycle: 2 module(s) import each other (connection.js, dom.js)" in r.stdout
    assert "higher layer" not in r.stdout


def test_a_longer_cycle_is_named_with_a_way_round(tmp_path):
    root = copy_scripts(tmp_path)
    # Three modules of the base layer that import nothing of the page, made to import each other
    # in a ring: dom.js -> settings.js -> state.js -> dom.js.
    prepend(root, "dom.js", "import { settings } from './settings.js';")
    prepend(root, "settings.js", "import { app } from './state.js';")
    prepend(root, "state.js", "import { $ } from './dom.js';")
    r = check(root)
    assert r.returncode == 1
    assert "3 module(s) import each other (dom.js, settings.js, state.js)" in r.stdout
    assert "for one: dom.js -> settings.js -> state.js -> dom.js" in r.stdout
    assert "higher layer" not in r.stdout


def test_an_import_of_a_higher_layer_is_caught(tmp_path):
    root = copy_scripts(tmp_path)
    # dom.js (base) importing sound.js (views), which imports no module that imports dom.js: an
    # upward import without a cycle.
    prepend(root, "dom.js", "import { playSound } from './sound.js';")
    r = check(root)
    assert r.returncode == 1
    assert "dom.js (base, layer 1) imports sound.js (views, layer 3): an import of a higher layer" in r.stdout
    assert "cycle" not in r.stdout


def test_a_commented_import_is_not_read(tmp_path):
    root = copy_scripts(tmp_path)
    prepend(root, "dom.js", "// import { playSound } from './sound.js';\n/*\nimport './view.js';\n*/")
    assert check(root).returncode == 0


def test_a_module_missing_from_the_table_and_a_missing_module_are_caught(tmp_path):
    root = copy_scripts(tmp_path)
    (root / SCRIPTS / "extra.js").write_text("export const x = 1;\n")
    prepend(root, "main.js", "import './extra.js';\nimport { y } from './nowhere.js';")
    (root / SCRIPTS / "sound.js").unlink()
    r = check(root)
    assert r.returncode == 1
    assert "extra.js: not in the table LAYERS" in r.stdout
    assert "imports './nowhere.js', which is not a module of the page" in r.stdout
    assert "the table LAYERS names sound.js, which is not a module" in r.stdout
    assert "imports './sound.js', which is not a module of the page" in r.stdout

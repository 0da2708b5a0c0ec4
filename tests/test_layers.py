"""The layers point one way: engine <- service <- workers. The service imports nothing
from the workers (the process wiring that needs both, the `turnpost` command and the
WSGI application, is in workers/: workers/cli.py, workers/wsgi.py, workers/wiring.py),
and shared code, templates and scripts name no game: a game's presentation lives in its
own files (templates/games/<id>/, service/static/games/<id>/, its engine package)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module a file imports, by an import statement or by name through
    importlib.import_module / __import__."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def _workers_imports(source: str) -> list[str]:
    return [f"line {line}: {module}" for line, module in _imported_modules(ast.parse(source))
            if module == "workers" or module.startswith("workers.")]


def test_the_service_imports_nothing_from_the_workers():
    offenders = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        if found := _workers_imports(path.read_text()):
            offenders[str(path.relative_to(ROOT))] = found
    assert offenders == {}


@pytest.mark.parametrize("source", [
    "from workers.compose import preferences_token",
    "import workers.dispatch",
    "def f():\n    from workers import delivery",
    "import importlib\nimportlib.import_module('workers.picture_cache')",
])
def test_the_import_walk_sees_every_way_of_importing(source):
    assert _workers_imports(source)


def _game_words() -> list[str]:
    """Every game's id and the name of its engine package."""
    words = set(engine.game_ids())
    for game_id in engine.game_ids():
        words.add(type(engine.get_game(game_id)).__module__.split(".")[1])
    return sorted(words)


def _shared_files() -> list[Path]:
    static = ROOT / "service" / "static"
    files = [*(ROOT / "service").rglob("*.py"), *(ROOT / "workers").rglob("*.py"),
             *(ROOT / "templates" / "pages").iterdir(), *(ROOT / "templates" / "email").iterdir(),
             *(path for path in static.rglob("*.js") if (static / "games") not in path.parents)]
    return sorted(path for path in files if path.is_file())


def _games_named(text: str, words: list[str]) -> list[str]:
    pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, words)) + r")(?![A-Za-z0-9])", re.I)
    return sorted({match.group(0) for match in pattern.finditer(text)})


def test_shared_code_templates_and_scripts_name_no_game():
    words = _game_words()
    assert len(words) >= len(engine.game_ids())
    named = {str(path.relative_to(ROOT)): found for path in _shared_files()
             if (found := _games_named(path.read_text(), words))}
    assert named == {}


def test_the_search_finds_a_game_named_in_any_case_but_not_inside_a_word():
    words = _game_words()
    assert _games_named('{% if game.game_type == "eden" %}', words) == ["eden"]
    assert _games_named("The Tigris table", words) == ["Tigris"]
    assert _games_named("static/civ_cards.js", words) == ["civ_cards"]
    assert _games_named("sweden, edenic", words) == []

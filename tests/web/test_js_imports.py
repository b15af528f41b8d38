"""The browser client's modules (``web/js/*.js``) import one another without a circle
(issue 26, item 6): a circle of ES modules runs one of them before the other has defined
what it exports, which works only by the luck of the order of first use."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

JS_DIR = Path(__file__).resolve().parents[2] / "src" / "raspisnoy" / "web" / "js"
#: A static ``import … from "./x.js"``, ``export … from "./x.js"`` or ``import "./x.js"``
#: (over several lines, too); a dynamic ``import("./x.js")`` waits for its module and
#: makes no circle at load.
_STATIC_IMPORT = re.compile(
    r"^\s*(?:import|export)\b(?:[^;\"'()]*?\bfrom)?\s*[\"']\./([\w./-]+\.js)[\"']", re.MULTILINE
)


def imports_of(source: str) -> set[str]:
    """The sibling modules ``source`` imports statically, by file name."""
    return set(_STATIC_IMPORT.findall(source))


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Every import circle of ``graph`` (module → modules it imports) that a depth-first
    walk finds, each as the modules along it, the first repeated at the end."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> None:
        if module in path:
            found.append([*path[path.index(module) :], module])
            return
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            walk(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])
    return found


def test_the_import_lines_are_read() -> None:
    source = (
        'import { a, b } from "./one.js";\nimport {\n  c,\n  d,\n} from "./two.js";\n'
        'export { e } from "./three.js";\nimport "./four.js";\n'
        'const later = await import("./five.js");\n// import { x } from "./six.js";\n'
    )
    assert imports_of(source) == {"one.js", "two.js", "three.js", "four.js"}


def test_a_circle_is_found() -> None:
    graph = {"lobby.js": {"leaderboard.js", "ui.js"}, "leaderboard.js": {"lobby.js"}}
    assert circles(graph) == [["leaderboard.js", "lobby.js", "leaderboard.js"]]
    assert circles({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": set()}) == []


def test_the_web_modules_have_no_import_circle() -> None:
    graph = {path.name: imports_of(path.read_text("utf-8")) for path in JS_DIR.glob("*.js")}
    assert len(graph) > 10 and graph["lobby.js"]  # the folder was found and read
    unknown = {name for imported in graph.values() for name in imported} - graph.keys()
    assert not unknown, f"imports of modules that are not there: {unknown}"
    assert circles(graph) == []

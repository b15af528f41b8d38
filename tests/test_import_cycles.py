"""No import circles inside ``raspisnoy``: no module imports, through any chain of
imports, a module that imports it back. A circle makes the order of imports matter and
ties the modules in it into one (the actor, the chat and the rematch were one such).

Imports are read from the source as the layer test reads them (``test_layers``): every
import statement, inside functions and under ``TYPE_CHECKING`` too, since a circle in
the types is one in the design.
"""

from __future__ import annotations

from test_layers import PACKAGE, imported_modules, module_name

#: A module → the modules of ``raspisnoy`` it imports.
Graph = dict[str, set[str]]


def import_graph() -> Graph:
    """Every module of the package and the package's modules it imports."""
    sources = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: Graph = {}
    for module, path in sources.items():
        named = imported_modules(path.read_text(), module, is_package=path.name == "__init__.py")
        graph[module] = {name for name in named if name in sources and name != module}
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import each other (strongly connected components of
    more than one module; Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            following = next(pending, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(sorted(graph[following]))))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_of_the_package_imports_itself_back() -> None:
    assert circles(import_graph()) == []

"""No import cycle among tablekit's modules, annotation-only imports included.

``lint-imports`` checks that tablekit's packages import each other in no cycle, but it skips
the imports under ``if TYPE_CHECKING:`` (``exclude_type_checking_imports``), and a cycle
behind them is still a cycle of the design: two modules that each need the other to be
understood. This test reads every module of tablekit with :mod:`ast` and follows every
``import`` and ``from ... import`` at the module's level, under ``if TYPE_CHECKING:`` and
under any other ``if``/``try`` there. Imports inside a function or a method (loaded only when
it runs, often to keep a heavy library out of the start) are not followed.

A name imported from a package is an edge to the submodule when one of that name exists,
else to the package's ``__init__``; importing ``a.b.c`` is not counted as importing ``a.b``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tablekit"

# Cycles known when this test was written, each to be broken, never added to: the modules of
# each, with why it is still there. None is left: the flow's (core's Flow and its stage
# handlers) was broken by the handlers naming the protocol flow/host.py's FlowState (#48).
KNOWN: dict[frozenset[str], str] = {}


def modules(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, by dotted name (a package by its own)."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when the module is imported, or that only the type checker reads:
    into ``if``, ``try`` and ``with`` blocks, not into functions or classes."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.With):
            yield from _top_level(node.body)
            yield from _top_level(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _top_level(block)
            for handler in node.handlers:
                yield from _top_level(handler.body)


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` (at ``path``) imports at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in _top_level(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known
                          else source)
    return {each for each in found if each in known and each != name}


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (see the module's docstring)."""
    found = modules(root, package)
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's, iterative).

    >>> sorted(sorted(each) for each in cycles({"a": {"b"}, "b": {"a", "c"}, "c": set()}))
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def one_cycle(graph: dict[str, set[str]], component: frozenset[str]) -> list[str]:
    """A shortest circle of imports through the component's first module, to name in a failure.

    >>> one_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}, frozenset("abc"))
    ['a', 'b', 'c', 'a']
    """
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & component):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"{sorted(component)} is no cycle")


def test_the_graph_sees_annotation_only_imports() -> None:
    graph = import_graph()
    assert "tablekit.flow.host" in graph["tablekit.flow.seats"]  # under `if TYPE_CHECKING:`
    assert "tablekit.flow.seats" in graph["tablekit.flow.core"]  # `from tablekit.flow import`
    assert "tablekit.rules.hand" in graph["tablekit.rules.scoring"]
    assert len(graph) > 100


def test_no_import_cycle_among_tablekits_modules() -> None:
    graph = import_graph()
    found = cycles(graph)
    new = [each for each in found if each not in KNOWN]
    assert not new, "import cycles (annotation-only imports included):\n" + "\n".join(
        " -> ".join(one_cycle(graph, each)) for each in new
    )


def test_the_known_cycles_are_still_there() -> None:
    """A known cycle that is broken leaves the list, so that the list only shrinks."""
    found = set(cycles(import_graph()))
    gone = [sorted(each) for each in KNOWN if each not in found]
    assert not gone, f"broken, take them out of KNOWN: {gone}"

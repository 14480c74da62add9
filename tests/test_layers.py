"""The package's layers: every import between packages runs downward, and nothing imports in a circle.

Run as a script (`python tests/test_layers.py`) it lists every import between packages, with the
modules behind it, then the upward imports and the circles it found (none, or it exits 1).
Imports inside functions count like the others: a lazy import is still a dependency.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "president"

#: Lowest first. A module may import from its own layer's package or from any lower one.
#: The root modules (errors, atomic, resources) are the bottom; __main__ sits with the CLI.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("president",),          # errors, atomic, resources, _version
    ("spec",),
    ("game",),
    ("ai",),
    ("protocol",),
    ("scenarios", "arena"),
    ("i18n",),
    ("conform",),
    ("project",),
    ("api",),                # president/__init__.py: the public names, re-exported from every layer
    ("cli",),
)
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    """The layer a module belongs to: its sub-package, `spec` for president.spec, else `president`."""
    parts = module.split(".")
    if len(parts) == 1:  # president/__init__.py, the public API: it re-exports, nothing imports it
        return "api"
    if parts[1] == "__main__":
        return "cli"
    if parts[1] == "spec":
        return "spec"
    if (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return "president"


def imports(path: Path) -> set[str]:
    """The president modules `path` imports (at any depth of the file)."""
    me = module_name(path)
    is_pkg = path.name == "__init__.py"
    base = me.split(".") if is_pkg else me.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "president")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                target = base[: len(base) - node.level + 1]
                mod = ".".join(target + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "president":
                continue
            # `from . import x` imports the submodule x when it is one
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                found.add(sub if _exists(sub) else mod)
    found.discard(me)
    return found


def _exists(module: str) -> bool:
    rel = Path(*module.split(".")[1:])
    return (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel / "__init__.py").is_file()


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def package_edges(g: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for mod, targets in g.items():
        for t in sorted(targets):
            a, b = package_of(mod), package_of(t)
            if a != b:
                edges[(a, b)].append(f"{mod} -> {t}")
    return dict(edges)


def upward(edges: dict[tuple[str, str], list[str]]) -> list[str]:
    return [line for (a, b), lines in edges.items() if RANK[b] > RANK[a] for line in lines]


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def package_cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    pg: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        pg[a].add(b)
        pg.setdefault(b, set())
    return cycles(dict(pg))


# --- tests -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_package_has_a_layer() -> None:
    assert {package_of(m) for m in graph()} <= set(RANK)


@pytest.mark.slow
def test_no_import_runs_upward() -> None:
    assert upward(package_edges(graph())) == []


@pytest.mark.slow
def test_no_circle_between_modules_or_packages() -> None:
    g = graph()
    assert cycles(g) == []
    assert package_cycles(package_edges(g)) == []


def test_the_checker_sees_an_upward_import_and_a_circle() -> None:
    g = {"president.game.engine": {"president.cli.main"}, "president.cli.main": {"president.game.engine"}}
    assert upward(package_edges(g)) == ["president.game.engine -> president.cli.main"]
    assert cycles(g) == [["president.cli.main", "president.game.engine"]]


def main() -> int:
    g = graph()
    edges = package_edges(g)
    print("imports between packages (importer -> imported: modules):")
    for (a, b) in sorted(edges, key=lambda e: (RANK[e[0]], e[0], RANK[e[1]], e[1])):
        lines = edges[(a, b)]
        print(f"  {a} -> {b}  ({len(lines)})")
        for line in lines:
            print(f"      {line}")
    up, circles, pcircles = upward(edges), cycles(g), package_cycles(edges)
    print(f"upward imports: {len(up)}")
    for line in up:
        print(f"  {line}")
    print(f"circles between modules: {len(circles)}; between packages: {len(pcircles)}")
    for c in circles + pcircles:
        print("  " + " <-> ".join(c))
    return 1 if up or circles or pcircles else 0


if __name__ == "__main__":
    sys.exit(main())

"""The package's layers (docs/architecture.md): imports go down, never up, and close no cycle.

A small walk over the syntax trees of ``crfdeid/`` finds every import of the package's own
modules, at module level and inside functions alike. A top-level unit is a module or
package directly under ``crfdeid/`` (``crf``, ``schema``...); the command entry shims
(``python -m crfdeid.tag``, ``python -m crfdeid.review``, ...) belong to the ``cli`` layer.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "crfdeid"

#: Lowest first. A unit may import units of its own layer or of a lower one; no cycles.
#: Reasons are in docs/architecture.md.
LAYERS = (
    ("errors", "registry", "version", "_data", "settings", "progress", "openfiles"),
    ("schema",),
    ("document",),
    ("labels", "text"),
    ("gazetteers",),
    ("features", "site"),
    ("io", "scoring"),
    ("resources",),
    ("deid", "recognizers"),
    ("config",),
    ("tagging",),
    ("crf",),
    ("neural",),
    ("routing",),
    ("synth", "experiments"),
    ("adapters",),
    ("review", "serve", "spark", "audit"),
    ("cli",),
    ("crfdeid",),  # crfdeid/__init__.py: the public face (load, Model, Document, Span)
)
#: Modules that only hand ``python -m ...`` to a command of crfdeid.cli.
ENTRY_SHIMS = {"crfdeid.tag", "crfdeid.spark.submit"}
#: At most this many imports of the package's own modules inside functions, each for an
#: optional extra (PyTorch, FastAPI, pyspark...) and saying so in a comment on its line.
MAX_FUNCTION_IMPORTS = 20


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _unit(module: str) -> str:
    if module in ENTRY_SHIMS or module.endswith(".__main__"):
        return "cli"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "crfdeid"


class _Import:
    def __init__(self, source: str, target: str, line: int, in_function: bool, text: str):
        self.source, self.target, self.line, self.in_function, self.text = source, target, line, in_function, text

    def __repr__(self) -> str:
        return f"{self.source}:{self.line} imports {self.target}"


def _targets(node, package: str) -> list[str]:
    """The modules an import statement names (``from crfdeid import schema``: crfdeid.schema)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = package.split(".")[:len(package.split(".")) - node.level + 1]
        parent = ".".join(base + ([node.module] if node.module else []))
    else:
        parent = node.module or ""
    return [f"{parent}.{a.name}" if _is_module(f"{parent}.{a.name}") else parent for a in node.names]


def _imports() -> list[_Import]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        todo = [(ast.parse(source), False)]
        while todo:
            node, in_function = todo.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    found += [_Import(module, target, child.lineno, in_function, lines[child.lineno - 1])
                              for target in _targets(child, package)
                              if target == "crfdeid" or target.startswith("crfdeid.")]
                inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                todo.append((child, inner))
    return found


IMPORTS = _imports()
LEVEL = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def test_the_walk_sees_the_package():
    assert len(IMPORTS) > 500
    assert {"crf", "io", "cli", "crfdeid"} <= {_unit(i.source) for i in IMPORTS}


def test_every_top_level_unit_has_a_layer():
    units = {_unit(_module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert units - set(LEVEL) == set(), "place the new unit in LAYERS and docs/architecture.md"


def test_no_import_goes_up_a_layer():
    up = [i for i in IMPORTS
          if LEVEL[_unit(i.target)] > LEVEL[_unit(i.source)]]
    assert up == []


def _cycles(edges: dict) -> list[list[str]]:
    """Strongly connected components of more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return out


def test_no_cycle_among_top_level_units():
    edges: dict[str, set] = defaultdict(set)
    for i in IMPORTS:
        a, b = _unit(i.source), _unit(i.target)
        if a != b:
            edges[a].add(b)
            edges[b]  # noqa: B018 - every unit is a node
    assert _cycles(edges) == []


@pytest.mark.parametrize("edges, cycles", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_the_cycle_finder_finds_cycles(edges, cycles):
    assert _cycles(defaultdict(set, edges)) == cycles


def test_function_level_imports_are_few_and_each_says_why():
    inner = list({(i.source, i.line): i for i in IMPORTS if i.in_function}.values())  # statements
    assert len(inner) <= MAX_FUNCTION_IMPORTS, inner
    assert [i for i in inner if "#" not in i.text] == []


def test_commands_live_in_cli():
    """No ``main`` or ``build_parser`` outside crfdeid/cli/: every command is a module there."""
    outside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        outside += [f"{module}.{node.name}" for node in tree.body
                    if isinstance(node, ast.FunctionDef) and node.name in ("main", "build_parser")]
    assert outside == []


def test_the_networks_share_the_tagging_layer_not_the_crf():
    """``neural`` gets the tagging model, decoding, model file and kinds from ``tagging``:
    beside the CRF, not on top of it."""
    assert [i for i in IMPORTS if _unit(i.source) == "neural" and _unit(i.target) == "crf"] == []
    assert any(_unit(i.source) == "neural" and _unit(i.target) == "tagging" for i in IMPORTS)


def test_at_most_fourteen_top_level_modules():
    """Issue 47's lean house: a new role goes into a package, not beside the others."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 14, modules


def test_the_list_builders_function_level_imports_say_why():
    """``gazetteers/*.py`` import a list's source package inside the function that builds that list (so that one
    list is rebuilt without installing every source); each such import says so on its line."""
    silent = []
    for path in sorted((PACKAGE.parent / "gazetteers").glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                silent += [f"{path.name}:{i.lineno}" for i in ast.walk(node)
                           if isinstance(i, (ast.Import, ast.ImportFrom)) and "#" not in lines[i.lineno - 1]]
    assert silent == []

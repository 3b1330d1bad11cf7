"""The README's front page runs as written: its Python example, the names it uses from
``import crfdeid``, and its "Two commands", in order, in a fresh folder. The blocks are read
from README.md itself, so a README that drifts from the code fails here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import python_examples

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def section(title: str) -> str:
    """The README's text under ``## title``, up to the next heading of that level."""
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, f"README.md has no '## {title}' section"
    return found.group(1)


def bash_commands(title: str) -> list[str]:
    """The commands of the ```bash block of a README section, continuation lines joined,
    comments (a shown output) left out."""
    [block] = re.findall(r"```bash\n(.*?)```", section(title), re.S)
    joined = block.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter (nothing of this test session imported), this checkout first."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_readme_python_example_runs_in_a_fresh_interpreter(tmp_path):
    [(code, _)] = python_examples(README)
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    # the spans of the example's own made-up sentence, half-open offsets
    assert [line.split()[:3] for line in done.stdout.splitlines()] == [["12", "15", "DOCTOR"], ["19", "28", "DATE"]]


def test_every_name_the_readme_uses_from_import_crfdeid_exists(tmp_path):
    names = sorted(set(re.findall(r"\bcrfdeid((?:\.[A-Za-z_]\w*)+)\(", section("In Python"))))
    assert {".io.read", ".io.write", ".scoring.evaluate", ".crf.train_model", ".load"} <= set(names)
    # after `import crfdeid` alone, as a user writes them: no other import may make them appear
    code = ("import functools, crfdeid\n"
            f"for name in {names!r}:\n"
            "    assert callable(functools.reduce(getattr, name[1:].split('.'), crfdeid)), name\n"
            "try:\n"
            "    crfdeid.no_such_name\n"
            "except AttributeError as exc:\n"
            "    print(exc)\n")
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "module 'crfdeid' has no attribute 'no_such_name'\n"


@pytest.mark.slow
def test_readme_two_commands_run_as_written_in_order(tmp_path):
    commands = bash_commands("Two commands")
    assert len(commands) == 3 and all(c.startswith("python -m crfdeid") for c in commands)
    notes = tmp_path / "notes"
    notes.mkdir()
    # made-up notes of two made-up patients, named as the command's --group-pattern expects
    (notes / "p1_n1.txt").write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    (notes / "p1_n2.txt").write_text("Pt seen by Dr. Lee again on 7/29/2098.\n", encoding="utf-8")
    (notes / "p2_n1.txt").write_text("Called Dr. Hartwell on 3/4/2101 about the rash.\n", encoding="utf-8")
    # `python` in the commands is this interpreter, called by its own path as an activated virtual
    # environment's `python` is: a link to it would lose the environment (Python finds its
    # pyvenv.cfg next to the name it was started by), so `make test` failed in a fresh venv
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    same = subprocess.run(["bash", "-c", "python -c 'import sys; print(sys.prefix)'"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert same.stdout.strip() == sys.prefix  # the environment (venv or not) the tests run in
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    outputs = sorted(p for p in tmp_path.rglob("*.txt") if notes not in p.parents)
    assert len(outputs) == 6  # three notes, each written by both commands, nothing replaced
    # the first command's output is the one the README shows under it
    [shown] = [line.lstrip("# ").rstrip() for line in section("Two commands").splitlines()
               if line.startswith("#   ")]
    redacted = [p for p in outputs if p.name == "p1_n1.txt" and p.read_text(encoding="utf-8") == shown + "\n"]
    assert len(redacted) == 1
    surrogate = [p for p in outputs if p.parent != redacted[0].parent]
    assert all("Lee" not in p.read_text(encoding="utf-8") and "[**" not in p.read_text(encoding="utf-8")
               for p in surrogate)


def test_readme_install_block_is_the_makefiles_set_up_then_its_tests():
    # .ci/run runs this block as written in a fresh environment; what its comments promise is
    # what the Makefile does
    commands = bash_commands("Install")
    assert [c.split("#")[0].split() for c in commands] == [["pip", "install", "."], ["make", "install"],
                                                          ["make", "test"]]
    promised = re.search(r"pip install -e '\.\[([\w,]+)\]'", commands[1]).group(1)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^install:\n\t(.*)$", makefile, re.M).group(1)
    assert recipe.endswith(f"-m pip install -e .[{promised}]")
    assert re.search(r"^test:\n\t\$\(PYTHON\) -m pytest$", makefile, re.M)

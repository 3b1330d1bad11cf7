"""The README's front page runs as written: its Python example, the names it uses from
``import crfdeid``, and its "Quick start", in order, in an empty folder. The blocks are read
from README.md itself, so a README that drifts from the code fails here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import python_examples
from crfdeid.io.runmanifest import notes_only

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
    record, spans = done.stdout.splitlines()
    # the record's line is the one the example shows in its comment
    shown = re.search(r"print\(rec\.id, rec\.text, rec\.error\)\s+# (.*)$", code, re.M).group(1)
    assert record == shown.strip() == "n1 Seen by Dr. [**DOCTOR**] on [**DATE**]. None"
    # the spans of the example's own made-up sentence, half-open offsets
    assert [s[:3] for s in eval(spans)] == [(12, 15, "DOCTOR"), (19, 28, "DATE")]


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


def _python_on_path(tmp_path: Path) -> dict:
    """An environment whose ``python`` is this interpreter and whose crfdeid is this checkout.

    ``python`` is called by its own path as an activated virtual environment's ``python`` is: a
    link to it would lose the environment (Python finds its pyvenv.cfg next to the name it was
    started by), so `make test` failed in a fresh venv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    same = subprocess.run(["bash", "-c", "python -c 'import sys; print(sys.prefix)'"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert same.stdout.strip() == sys.prefix  # the environment (venv or not) the tests run in
    return env


#: Made-up identifiers of the demo notes the shipped model finds (crfdeid/_data/samples).
DEMO_PHI = ("Harlan Quist", "Quist", "4410-2297", "617-555-0148", "03/14/2098", "Marchetti", "508-555-0172")


@pytest.mark.slow
def test_the_quick_start_runs_as_written_in_an_empty_folder(tmp_path):
    commands = bash_commands("Quick start")
    assert len(commands) == 3 and all(c.startswith("python -m crfdeid") for c in commands)
    env = _python_on_path(tmp_path)
    work = tmp_path / "empty"
    work.mkdir()
    outs = []
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        outs.append(done)
    assert sorted(p.name for p in (work / "notes").iterdir()) == ["p1_discharge.txt", "p1_nursing.txt",
                                                                 "p2_nursing.txt"]
    raw = "".join(p.read_text(encoding="utf-8") for p in (work / "notes").iterdir())
    assert all(phi in raw for phi in DEMO_PHI)
    redacted, surrogate = outs[1].stdout, outs[2].stdout
    # each note after its separator line, as the README's excerpt shows it
    assert [line for line in redacted.splitlines() if line.startswith("==> ")] == [
        "==> p1_discharge <==", "==> p1_nursing <==", "==> p2_nursing <=="]
    excerpt = re.search(r"```text\n(.*?)```", section("Quick start"), re.S).group(1)
    assert excerpt in redacted
    assert "[**PATIENT**]" in redacted and "[**DATE**]" in redacted
    for phi in DEMO_PHI:
        assert phi not in redacted and phi not in surrogate, phi
    # the first thing a new user sees is right (issue 53): the whole doctor's name, a plain word
    # left outside the placeholder of the place after it
    assert "Tell" not in redacted and "Imogen" not in redacted
    assert "arranged through [**HOSPITAL**]" in redacted
    assert "Bed 6B-12" in redacted  # a bed number is no date
    assert "by phone ([**PHONE**]);" in redacted  # the phrase's bracket stays outside the phone
    assert surrogate.count("==> ") == 3 and surrogate.count("[**") < redacted.count("[**")
    # the summary by category, on standard error, never a value
    assert re.search(r"^replaced: NAME \d+, .*DATE \d+", outs[1].stderr, re.M)
    assert not any(phi in outs[1].stderr + outs[2].stderr for phi in DEMO_PHI)


def test_readme_development_block_is_the_makefiles_set_up_then_its_tests():
    # .ci/run runs this block as written in a fresh environment; what its comments promise is
    # what the Makefile does
    assert '"^## Development\\n' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = bash_commands("Development")
    assert [c.split("#")[0].split() for c in commands] == [["pip", "install", "."], ["make", "install"],
                                                          ["make", "test"]]
    promised = re.search(r"pip install -e '\.\[([\w,]+)\]'", commands[1]).group(1)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^install:\n\t(.*)$", makefile, re.M).group(1)
    assert recipe.endswith(f"-m pip install -e .[{promised}]")
    assert re.search(r"^test:\n\t\$\(PYTHON\) -m pytest -n \$\(TEST_JOBS\) --dist loadgroup$", makefile, re.M)
    # the workers come from the dev extra that `make install` installs
    assert "pytest-xdist" in (ROOT / "setup.cfg").read_text(encoding="utf-8") and "dev" in promised.split(",")


def _blocks(title: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section(title), re.S)


@pytest.mark.slow
def test_the_site_example_runs_as_written_without_then_with_the_tables(tmp_path):
    """The "No annotation" path of the front page, in an empty folder with the demo's notes:
    first the command without the site's tables, then the tables the README shows and the
    command with them (issue 53: copied as written it failed on the missing files)."""
    env = _python_on_path(tmp_path)
    work = tmp_path / "empty"
    work.mkdir()
    blocks = _blocks("Three ways to use it", "bash")
    first, with_tables = [[line.strip() for line in b.replace("\\\n", " ").splitlines()
                           if line.strip() and not line.lstrip().startswith("#")] for b in blocks[:2]]
    [table] = _blocks("Three ways to use it", "csv")
    [roster] = _blocks("Three ways to use it", "text")
    assert "--site-table" not in " ".join(first) and "--site-table patients.csv" in " ".join(with_tables)
    commands = [bash_commands("Quick start")[0], *first]
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    (work / "patients.csv").write_text(table, encoding="utf-8")
    (work / "roster.txt").write_text(roster, encoding="utf-8")
    for command in with_tables:
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        assert "matched a note" in done.stderr  # the tables met the notes
    for out in ("out", "out2"):
        written = sorted(p.name for p in notes_only((work / out).iterdir()))
        assert written == ["p1_discharge.txt", "p1_nursing.txt", "p2_nursing.txt"]
        text = "".join(p.read_text(encoding="utf-8") for p in (work / out).iterdir())  # the run manifest too
        for phi in (*DEMO_PHI, "Imogen", "Tell", "Penhallow"):
            assert phi not in text, (out, phi)
    page = (work / "out-why.html").read_text(encoding="utf-8")
    assert "<mark" in page and "Harlan Quist" in page  # the page a person reads holds the notes
    assert (work / "out-why.html").stat().st_mode & 0o077 == 0

"""Every command the README and docs/ show runs as written (issue 36).

Each ``python -m crfdeid ...``, ``crfdeid ...`` and ``make ...`` line of a code block in
README.md and docs/*.md (docs/history/ is a record, not instructions) is parsed by that
command's own argparse parser, so an option that does not exist (a ``--mapping`` the
command lacks, a misspelt ``--output-dir``) fails here; so do the options named inline in
the prose and the examples of every ``--help``, and a repository config with the command's
``--set`` overrides must load. ``make TARGET`` must be a target, and the crfdeid commands of
its recipe parse too. The cheap commands (tag, key, synth, evaluate, corpus stats/convert/
surrogate on local inputs) then run end to end, in a temporary folder holding made-up notes
and a site's files under the names the docs use; a command that needs data a test cannot
have (the PhysioNet corpus, i2b2, a trained model, a Spark cluster, a server) is parsed only.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import warnings
from pathlib import Path

import pytest

from crfdeid import cli
from crfdeid.document import Document, make_span
from crfdeid.io import write

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_COMMAND = re.compile(r"^\s*(?:\$\s*)?(?:nice -n \d+ )?((?:python -m crfdeid\b|crfdeid |make )\S*.*)$")


#: A synopsis' placeholders that must be a value of its option's type.
PLACEHOLDERS = {"FORMAT": "i2b2", "T": "0.9", "N": "2"}


def documented() -> list[tuple[str, list[str]]]:
    """``(page: line, words)`` of every command in a shell code block of the pages; a ``...``
    stands for the arguments of the page's previous command of the same name, and a synopsis'
    ``[optional]`` brackets are dropped and its typed placeholders filled in."""
    found = []
    for page in PAGES:
        last: dict[str, list[str]] = {}
        text = page.read_text(encoding="utf-8")
        for block in re.finditer(r"```(\w*)\n(.*?)```", text, re.S):
            if block.group(1) not in ("", "sh", "bash", "console", "shell"):
                continue
            for line in block.group(2).replace("\\\n", " ").splitlines():
                m = _COMMAND.match(line)
                if not m:
                    continue
                words = shlex.split(m.group(1), comments=True)
                words = words[3:] if words[:3] == ["python", "-m", "crfdeid"] else words[1:] \
                    if words[0] == "crfdeid" else words
                if "..." in words and words[0] in last:  # `locked ... --model default`
                    i = words.index("...")
                    words = words[:i] + last[words[0]] + words[i + 1:]
                words = [PLACEHOLDERS.get(w, w) for w in map(_unbracket, words) if w and w != "..."]
                if "..." not in m.group(1):
                    last[words[0]] = words[1:]
                found.append((f"{page.relative_to(ROOT)}: {m.group(1).split('#')[0].strip()}", words))
    return found


def _unbracket(word: str) -> str:
    """A synopsis word without its ``[``/``]`` (``[--json]``), a value such as ``local[2]`` kept."""
    word = word[1:] if word.startswith("[") else word
    return word[:-1] if word.endswith("]") and "[" not in word else word


def inline() -> list[tuple[str, list[str]]]:
    """``(page: fragment, words)`` of every inline ``python -m crfdeid ...`` with an option in
    the pages' prose (a fragment: required arguments may be left out)."""
    found = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for m in re.finditer(r"`((?:python -m )?crfdeid ([a-z][^`]*))`", text):
            words = shlex.split(m.group(2))
            if any(w.startswith("-") for w in words):
                where = f"{page.relative_to(ROOT)}: {' '.join(m.group(1).split())}"
                found += [(where, alternative) for alternative in _synopsis(words)]
    return found


def _synopsis(words: list[str]) -> list[list[str]]:
    """A synopsis as command lines to parse: the words before the first ``[optional]`` group,
    with each group (each of its ``a | b`` alternatives) in turn; a value ``x|y`` is ``x``."""
    if not any(w.startswith("[") for w in words):
        return [words]
    start = next(i for i, w in enumerate(words) if w.startswith("["))
    lines, group = [], []
    for w in words[start:]:
        group.append(w)
        if w.endswith("]") and w.count("]") > w.count("[") - w.startswith("["):
            text = " ".join(group)[1:-1]
            for alternative in text.split(" | "):
                lines.append(words[:start] + [PLACEHOLDERS.get(v, v.split("|")[0]) for v in alternative.split()])
            group = []
    return lines


COMMANDS = documented()
FRAGMENTS = inline()


class _Parsed(Exception):
    """Raised by the patched ``parse_args``: the command line parsed; stop before running."""


def parses(words: list[str], monkeypatch, capsys) -> str | None:
    """None when the command's own parser takes ``words``, else argparse's message."""
    original = argparse.ArgumentParser.parse_args

    def parse_only(self, args=None, namespace=None):
        original(self, args, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_only)
    try:
        rc = cli.main(words)
    except _Parsed:
        return None
    except SystemExit as exc:  # argparse: exit 2 with usage and message, or 0 for --help
        return None if exc.code == 0 else capsys.readouterr().err.strip().splitlines()[-1]
    finally:
        monkeypatch.undo()
    return f"exit {rc} before its arguments were parsed: {capsys.readouterr().err.strip()}"


@pytest.mark.parametrize("where, words", FRAGMENTS, ids=[w for w, _ in FRAGMENTS])
def test_every_option_named_in_the_prose_exists(where, words, monkeypatch, capsys):
    problem = parses(words, monkeypatch, capsys)
    assert problem is None or "the following arguments are required" in problem \
        or "expected one argument" in problem and words[-1].startswith("-"), (where, problem)


def test_a_wrong_option_is_caught(monkeypatch, capsys):
    """The check itself: an option a command does not have, a subcommand's option given to
    another, a value of the wrong type are refused; a good line and ``--help`` pass."""
    assert "unrecognized arguments: --mappings" in parses(["tag", "--mappings", "m.csv"], monkeypatch, capsys)
    assert "unrecognized arguments" in parses(["key", "new", "k", "--seed", "1"], monkeypatch, capsys)
    assert "invalid" in parses(["synth", "--docs", "many"], monkeypatch, capsys)
    assert parses(["corpus", "stats", "synth:5,1", "--json"], monkeypatch, capsys) is None
    assert parses(["tag", "--help"], monkeypatch, capsys) is None


def _help_examples() -> list[tuple[str, list[str]]]:
    """``(command: example, words)`` of the examples under each command's ``--help``."""
    import contextlib
    import io
    found = []
    for name in cli.COMMANDS:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            cli.main([name, "--help"])
        epilog = re.search(r"^examples?:\n(.*?)(?:\n\n|\Z)", out.getvalue(), re.S | re.M)
        assert epilog, f"{name} --help shows no example"
        for line in epilog.group(1).replace("\\\n", " ").splitlines():
            m = re.search(r"python -m crfdeid (.*)", line)
            if m:
                found.append((f"{name} --help: {m.group(1)}", shlex.split(m.group(1), comments=True)))
    return found


HELP_EXAMPLES = _help_examples()


@pytest.mark.parametrize("where, words", HELP_EXAMPLES, ids=[w for w, _ in HELP_EXAMPLES])
def test_every_example_of_a_commands_help_parses(where, words, monkeypatch, capsys):
    assert parses(words, monkeypatch, capsys) is None, where


def make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))


def test_the_pages_show_commands():
    names = {words[0] for _, words in COMMANDS}
    assert len(COMMANDS) > 80 and {"tag", "key", "train", "evaluate", "corpus", "make"} <= names


@pytest.mark.parametrize("where, words", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_every_documented_command_parses(where, words, monkeypatch, capsys):
    if words[0] != "make":
        assert parses(words, monkeypatch, capsys) is None, where
        return
    targets = [w for w in words[1:] if not w.startswith("-")]
    assert targets and set(targets) <= make_targets(), where
    recipe = subprocess.run(["make", "-n", *targets], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert recipe.returncode == 0, recipe.stderr
    for line in recipe.stdout.replace("\\\n", " ").splitlines():
        m = _COMMAND.match(line)
        if m and m.group(1).startswith("python -m crfdeid"):
            assert parses(shlex.split(m.group(1))[3:], monkeypatch, capsys) is None, f"{where}: {line}"


CONFIGURED = [(where, words) for where, words in COMMANDS
              if "--config" in words and (ROOT / words[words.index("--config") + 1]).is_file()]


@pytest.mark.parametrize("where, words", CONFIGURED, ids=[w for w, _ in CONFIGURED])
def test_every_documented_config_and_override_loads(where, words):
    """A command that names a config of the repository with ``--set`` overrides: the config
    loads with them (an override that makes a section meaningless is dropped with a warning,
    never an error at the end of a long run)."""
    from crfdeid.cli.train import parse_overrides
    from crfdeid.config import load_config
    sets = [words[i + 1].replace("=MODEL", "=elman") for i, w in enumerate(words) if w == "--set"]
    from crfdeid.errors import ConfigError
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            cfg = load_config(ROOT / words[words.index("--config") + 1], parse_overrides(sets))
        except ConfigError as exc:  # a member of an extra not installed (CI runs it again with it)
            if "install the extra" not in str(exc):
                raise
            pytest.skip(str(exc))
        assert cfg, where


# -- the cheap ones, run ---------------------------------------------------------------------

NOTE = "Seen by Dr. Tamsin Quillon on 03/14/2098 for Zorbek Vexlan, MRN 4410-22.\n"


def _sandbox(folder: Path) -> None:
    """Made-up inputs under the names the docs use."""
    (folder / "notes").mkdir()
    for name in ("p1_a.txt", "p1_b.txt", "p2_a.txt"):
        (folder / "notes" / name).write_text(NOTE, encoding="utf-8")
    (folder / "patients.csv").write_text("patient,first_name,last_name,mrn\np1,Zorbek,Vexlan,4410-22\n")
    (folder / "roster.txt").write_text("Tamsin Quillon\n", encoding="utf-8")
    (folder / "site.yaml").write_text("tables: patients.csv\nstaff: roster.txt\n", encoding="utf-8")
    (folder / "notes.jsonl").write_text('{"id": "p1_c", "text": "Zorbek seen.", "meta": {"patient": "p1"}}\n')
    gold = [Document(f"{i}", NOTE, [make_span(NOTE.index("03/14/2098"), NOTE.index("03/14/2098") + 10,
                                              "DATE")]) for i in range(100, 103)]
    write(gold, "i2b2", folder / "in")
    write(gold, "i2b2", folder / "gold")
    for name in ("configs", "tests"):
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)


#: What runs: these commands, and only on inputs the sandbox has (no ../shared corpus, no
#: trained model file, no site's own folders).
RUNS = {"tag", "key", "synth", "evaluate", "corpus"}


def _runnable(words: list[str]) -> bool:
    if words[0] not in RUNS or (words[0] == "corpus" and words[1] == "stress"):
        return False
    text = " ".join(words)
    return not any(s in text for s in ("../shared", "/site/", "/work/", "build/", "my.model", "site.model",
                                       "FORMAT:", "synth:500", "fakerpii:", " M ", "/tmp/X", "release.jsonl"))


RUNNABLE = [(where, words) for where, words in COMMANDS if _runnable(words)]


@pytest.mark.slow
@pytest.mark.parametrize("where, words", RUNNABLE, ids=[w for w, _ in RUNNABLE])
def test_the_cheap_documented_commands_run(where, words, tmp_path, monkeypatch, capsys):
    _sandbox(tmp_path)
    monkeypatch.chdir(tmp_path)
    words = [w.replace("/tmp/", f"{tmp_path}/tmp/") for w in words]
    (tmp_path / "tmp").mkdir()
    if words[:2] != ["key", "new"]:
        assert cli.main(["key", "new", "secret.key"]) == 0
    if words[0] == "corpus" and any(w.startswith("i2b2:") and "tmp/" in w for w in words):
        assert cli.main(["synth", "--docs", "5", "--seed", "13", "--out", f"{tmp_path}/tmp/s200"]) == 0
        assert cli.main(["corpus", "convert", f"i2b2:{tmp_path}/tmp/s200", "--to", "i2b2", "--out",
                         f"{tmp_path}/tmp/pn", "-q"]) == 0
    rc = cli.main(words)
    err = capsys.readouterr().err
    assert rc == 0, f"{where}: exit {rc}: {err[-2000:]}"

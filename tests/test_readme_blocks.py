"""Every ```bash block of README.md, in order, top to bottom, in one empty folder: what a new
user does after the install (issue 61: copied in order, the later blocks failed).

How the test reads a block (the README is written so that a person and this test read it alike):

* continuation lines (``\\`` at the end) are joined; lines that are only a comment are left out;
* ``pip install .`` and ``pip install '.[EXTRA,...]'`` (run in the checkout, as the Install
  section says) are checked, not run: each extra must be one of setup.cfg's, and the test skips
  before running anything when one of its packages is not installed here (CI's step 3 installs
  every extra and runs it); installing would replace the environment under test;
* a command whose comment says ``serves http://HOST:PORT/`` starts a server: it must answer that
  address within :data:`SERVE_WAIT` seconds, then it is stopped with Ctrl-C (SIGINT) and must end
  within :data:`SERVE_WAIT` seconds;
* a command whose comment says ``exit N`` must end with exit code N (the README says why);
* every other command must exit 0 within :data:`TIMEOUT` seconds;
* the ```csv and ```text blocks of "Three ways to use it" are the files its next command names
  (``--site-table`` and ``--site-list``), written before that command;
* the Development block is left out: it installs the checkout and runs the whole suite (CI's
  step 2 runs it as written).

About 33 CPU-seconds (2026-11-25: 126 s wall at load 9 on 2 shared cores; most of it the site
model's training, 29 s wall, and the audit's four commands); ``-s`` prints the slowest commands.
"""

from __future__ import annotations

import configparser
import importlib.metadata
import json
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_readme import DEMO_PHI, _python_on_path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TIMEOUT = 300
SERVE_WAIT = 60
#: Wall seconds of each command run (printed with -s: where the test's time goes).
SECONDS: dict[str, float] = {}


def blocks() -> list[tuple[str, str, str]]:
    """``(section title, language, body)`` of every fenced block of README.md, in order."""
    out, title = [], ""
    for m in re.finditer(r"^## ([^\n]*)$|^```(\w+)\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S):
        if m.group(1) is not None:
            title = m.group(1).strip()
        else:
            out.append((title, m.group(2), m.group(3)))
    return out


def commands(body: str) -> list[str]:
    joined = body.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def extras_of(command: str) -> list[str] | None:
    """The extras a ``pip install .`` line installs (``[]`` for the package alone), None for another command."""
    m = re.fullmatch(r"pip install (?:\.|'\.\[([\w,-]+)\]')(?:\s+#.*)?", command)
    if m is None:
        return None
    return m.group(1).split(",") if m.group(1) else []


def _missing(extra: str) -> list[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    declared = cfg["options.extras_require"]
    assert extra in declared, f"README installs an extra setup.cfg does not declare: {extra}"
    missing = []
    for req in declared[extra].split("\n"):
        name = re.match(r"[A-Za-z0-9_.-]+", req.strip())
        if name is None or req.strip().startswith("#"):
            continue
        try:
            importlib.metadata.distribution(name.group(0))
        except importlib.metadata.PackageNotFoundError:
            missing.append(name.group(0))
    return missing


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except urllib.error.HTTPError:  # a login page or a refusal is an answer too
        return True
    except OSError:
        return False


def _serve(command: str, url: str, cwd: Path, env: dict) -> None:
    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + SERVE_WAIT
        while not _answers(url):
            assert proc.poll() is None, (command, proc.communicate()[1][-2000:])
            assert time.monotonic() < deadline, f"{command}: no answer at {url} within {SERVE_WAIT} s"
            time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=SERVE_WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode in (0, -signal.SIGINT, 130), (command, proc.returncode)


def run_block_commands(work: Path, env: dict) -> list[tuple[str, subprocess.CompletedProcess | None]]:
    """Run every block (as the module's docstring says); ``(command, result)`` in order."""
    done: list[tuple[str, subprocess.CompletedProcess | None]] = []
    files: list[tuple[str, str]] = []
    for title, lang, body in blocks():
        if title == "Development":
            continue
        if lang in ("csv", "text") and title == "Three ways to use it":
            files.append((lang, body))
            continue
        if lang != "bash":
            continue
        for command in commands(body):
            if extras_of(command) is not None:
                done.append((command, None))
                continue
            for lang_, text in files:  # the file blocks before this command, by the names it gives
                option = {"csv": r"--site-table (\S+)", "text": r"--site-list \w+=(\S+)"}[lang_]
                name = re.search(option, command)
                assert name, f"a ```{lang_} block of the README and no {option} in the next command"
                (work / name.group(1)).write_text(text, encoding="utf-8")
            files = []
            served = re.search(r"#\s*serves (http://\S+)", command)
            if served:
                _serve(command.split("#")[0], served.group(1), work, env)
                done.append((command, None))
                continue
            expected = re.search(r"#.*\bexit (\d+)", command)
            t0 = time.perf_counter()
            result = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                                    timeout=TIMEOUT)
            want = int(expected.group(1)) if expected else 0
            assert result.returncode == want, (command, result.returncode, result.stderr[-2000:])
            done.append((command, result))
            SECONDS[command] = time.perf_counter() - t0
    return done


@pytest.mark.slow
def test_every_readme_block_runs_in_order_in_an_empty_folder(tmp_path):
    all_commands = [c for title, lang, body in blocks() if lang == "bash" and title != "Development"
                    for c in commands(body)]
    missing = {extra: _missing(extra) for c in all_commands for extra in (extras_of(c) or [])}
    missing = {extra: names for extra, names in missing.items() if names}
    if missing:
        pytest.skip(f"extras the README installs are not installed here: {missing}")
    env = _python_on_path(tmp_path)
    work = tmp_path / "empty"
    work.mkdir()
    t0 = time.perf_counter()
    done = run_block_commands(work, env)
    ran = [c for c, r in done if r is not None]
    assert any("review serve" in c for c, _ in done) and any("audit report" in c for c in ran)
    # the export of a project no one reviewed says so by name and writes nothing
    [(export, result)] = [(c, r) for c, r in done if "review export" in c]
    assert result is not None and "none of the 3 note(s) of review project 'ward4' is reviewed yet" in result.stderr
    assert not (work / "reviewed").exists()
    # the site model the third way trains is read by tag, which replaces the demo's identifiers
    assert (work / "build" / "site" / "model").is_file()
    scores = json.loads((work / "build" / "site" / "scores.json").read_text(encoding="utf-8"))
    assert scores["pipeline"]["train_documents"] == 60
    out3 = "".join(p.read_text(encoding="utf-8") for p in (work / "out3").glob("*.txt"))
    assert len(list((work / "out3").glob("p*.txt"))) == 3
    assert "Harlan Quist" not in out3 and "[**" in out3
    # the audit: its sample, verified, and the report with its figure
    report = json.loads((work / "audit.json").read_text(encoding="utf-8"))
    assert report and (work / "audit.html").stat().st_size > 1000
    [evidence, signed] = [r for c, r in done if "audit verify" in c]
    assert evidence is not None and "verify: ok; the officer's signatures were NOT checked" in evidence.stderr
    # simulated reviewers: the report fails and nothing is signed, so verify with the key fails by name
    assert signed is not None and "no signed statement" in signed.stderr and "verify: FAILED" in signed.stderr
    assert (work / "plan.json").is_file() and not (work / "audit" / "statement.json").exists()
    for c, r in done:  # no identifier of the demo notes in any message
        assert r is None or not any(phi in r.stderr for phi in DEMO_PHI), c
    slowest = sorted(SECONDS.items(), key=lambda kv: -kv[1])[:4]
    print(f"README blocks: {len(done)} commands in {time.perf_counter() - t0:.0f} s; slowest: "
          + "; ".join(f"{s:.0f} s {c.split('#')[0].strip()}" for c, s in slowest))


def test_a_pipeline_that_fails_on_its_input_leaves_no_empty_folder(tmp_path, capsys):
    from crfdeid.cli import pipeline
    from crfdeid.io import write
    from crfdeid.synth import generate

    write(generate(3, seed=1), "brat", tmp_path / "test")
    (tmp_path / "reviewed").mkdir()  # an export that wrote nothing
    (tmp_path / "build").mkdir()
    code = pipeline.main(["--train", f"brat:{tmp_path / 'reviewed'}", "--test", f"brat:{tmp_path / 'test'}",
                          "--out", str(tmp_path / "build" / "site"), "--quiet"])
    assert code == 1 and "no *.txt files" in capsys.readouterr().err
    # the folder the user had stays; the ones this run made are gone: no empty predictions/
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "reviewed", "test"]
    assert list((tmp_path / "build").iterdir()) == []


def test_an_export_of_a_project_no_one_reviewed_says_so_and_writes_nothing(tmp_path, capsys):
    from crfdeid.cli.review import main as review

    assert review(["init", str(tmp_path / "empty")]) == 0
    assert review(["export", str(tmp_path / "empty"), "--to", "brat", "--out", str(tmp_path / "out0")]) == 1
    assert "holds no note to export" in capsys.readouterr().err
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n1.txt").write_text("Seen by Dr. Tamsin Orrell on 7/22/2098.\n", encoding="utf-8")
    assert review(["init", str(tmp_path / "ward4")]) == 0
    assert review(["import", str(tmp_path / "ward4"), f"text:{tmp_path / 'notes'}"]) == 0
    capsys.readouterr()
    assert review(["export", str(tmp_path / "ward4"), "--to", "brat", "--out", str(tmp_path / "reviewed")]) == 1
    out, err = capsys.readouterr()
    assert '"written": 0' in out and "none of the 1 note(s) of review project" in err and "--include-unreviewed" in err
    assert "Orrell" not in out + err
    assert not (tmp_path / "reviewed").exists() and not (tmp_path / "out0").exists()
    # the model's suggestions, when asked for by name
    assert review(["export", str(tmp_path / "ward4"), "--to", "brat", "--out", str(tmp_path / "reviewed"),
                   "--include-unreviewed"]) == 0
    assert sorted(p.name for p in (tmp_path / "reviewed").iterdir()) == ["n1.ann", "n1.txt"]

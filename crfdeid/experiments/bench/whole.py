"""Whole-process figures of the benchmark: start-up of ``tag`` on one short note, and
words per CPU-second of the tag command against deid.pl on the same notes.

Each run is a fresh interpreter (``sys.executable``, the repository as working folder and on
``PYTHONPATH``, as :func:`crfdeid.experiments.bench.child.run`), timed by the CPU seconds
(user + system) the child used, which a loaded machine disturbs less than the wall clock.

deid.pl (PhysioNet's de-identification software, GPL Perl) is not part of crfdeid and is
never fetched: the row is measured where ``$DEID_PL`` names its folder (the one holding
``deid.pl``, its dictionaries and ``deid-output.config``) and the corpus is PhysioNet's
``id.text``; otherwise it is skipped, saying why.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import child

#: A made-up one-line note (no real person): what the start-up figure tags.
NOTE = "Mr. John Smith was seen by Dr. Lee on 7/22/2098 at Mercy Hospital.\n"
#: The environment variable naming deid.pl's folder.
DEID_PL_ENV = "DEID_PL"
_CRFDEID_MODULE = re.compile(r"\|\s*crfdeid(\.|\s*$)")


def bytecode_env(pycache: Path | None = None) -> dict:
    """The children's environment: the repository on ``PYTHONPATH``; with ``pycache``, bytecode
    read from and written to that folder (``PYTHONPYCACHEPREFIX``), whatever
    ``PYTHONDONTWRITEBYTECODE`` says."""
    root = str(child.ROOT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH")))))
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def cpu_run(argv: list, cwd=None, timeout: float = 3600, env: dict | None = None) -> float:
    """CPU seconds (user + system) of the program ``argv`` run to its end (exit code 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, cwd=cwd or child.ROOT, env=env or bytecode_env(), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no message"]
        raise RuntimeError(f"{Path(str(argv[0])).name} exited {proc.returncode}: {tail[0]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def startup(model_path, work: Path, runs: int = 7) -> dict:
    """CPU seconds of ``python -m crfdeid.tag --quiet --output-format redacted NOTE`` (the
    lowest and the median of ``runs``), and how many crfdeid modules it imports.

    The modules' bytecode is cached, as in an installed package (pip compiles it when it
    installs): written by one untimed run to a folder of ``work``, whatever
    ``PYTHONDONTWRITEBYTECODE`` says. ``without_cache_cpu_seconds_min`` is the lowest of three
    runs without that folder and writing no bytecode (the figure of the rounds before
    2026-11-23 evening): bytecode only where the environment has it, so crfdeid's modules are
    compiled from their source in a checkout without ``__pycache__`` folders.
    """
    note = work / "startup-note.txt"
    note.write_text(NOTE, encoding="utf-8")
    argv = [sys.executable, "-m", "crfdeid.tag", "--quiet", "--output-format", "redacted",
            "--model", str(model_path), str(note)]
    cached = bytecode_env(work / "startup-pycache")
    cpu_run(argv, env=cached)  # writes the bytecode
    times = sorted(cpu_run(argv, env=cached) for _ in range(max(1, runs)))
    uncached = min(cpu_run(argv, env=dict(bytecode_env(), PYTHONDONTWRITEBYTECODE="1")) for _ in range(3))
    proc = subprocess.run([sys.executable, "-X", "importtime", *argv[1:]], cwd=child.ROOT, env=cached,
                          capture_output=True, text=True, timeout=600)
    modules = sum(1 for line in proc.stderr.splitlines() if _CRFDEID_MODULE.search(line))
    return {"command": "python -m crfdeid.tag --quiet --output-format redacted --model M note.txt",
            "runs": len(times), "bytecode": "cached (one untimed run first)", "cpu_seconds_min": round(times[0], 3),
            "cpu_seconds_median": round(times[len(times) // 2], 3),
            "without_cache_cpu_seconds_min": round(uncached, 3), "crfdeid_modules": modules}


def deid_pl_folder() -> Path | None:
    """deid.pl's folder from ``$DEID_PL`` (None when unset or when it holds no ``deid.pl``)."""
    where = os.environ.get(DEID_PL_ENV)
    return Path(where) if where and (Path(where) / "deid.pl").is_file() else None


def _deid_pl_missing() -> str:
    """Why the deid.pl row is skipped when deid.pl is not found, and how to measure it."""
    how = (f"set ${DEID_PL_ENV} to the folder holding deid.pl, its dictionaries and deid-output.config "
           "(PhysioNet's deid software, GPL; crfdeid never fetches it)")
    where = os.environ.get(DEID_PL_ENV)
    return (f"deid.pl not found: ${DEID_PL_ENV} ({where}) holds no deid.pl; {how}" if where else
            f"deid.pl not found: ${DEID_PL_ENV} is not set; {how}")


def words(path: Path) -> int:
    """White-space separated words of a PhysioNet ``id.text``, record markers left out."""
    text = path.read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"START_OF_RECORD=\S*|\|\|\|\|END_OF_RECORD", " ", text)
    return len(text.split())


def against_deid_pl(corpus: str, model_path, work: Path) -> dict:
    """Words per CPU-second of ``python -m crfdeid tag`` (redacted output, one process) on a
    PhysioNet ``id.text``, and of deid.pl on the same file where it can be run (else
    ``deid_pl_skipped`` says why); ``{"skipped": why}`` for a corpus of another format."""
    if not corpus.startswith("physionet:"):
        return {"skipped": "deid.pl reads PhysioNet's id.text: the corpus is not a physionet: one"}
    source = Path(corpus.split(":", 1)[1]) / "id.text"
    n_words = words(source)
    crfdeid_cpu = cpu_run([sys.executable, "-m", "crfdeid", "tag", "--quiet", "--model", str(model_path),
                           "--output-format", "redacted", corpus])
    out: dict = {"words": n_words, "crfdeid_cpu_seconds": round(crfdeid_cpu, 2),
                 "crfdeid_words_per_cpu_s": round(n_words / crfdeid_cpu) if crfdeid_cpu else None}
    folder, perl = deid_pl_folder(), shutil.which("perl")
    if folder is None or perl is None:
        out["deid_pl_skipped"] = "perl not found" if folder else _deid_pl_missing()
        return out
    with tempfile.TemporaryDirectory(prefix="crfdeid-bench-deidpl-", dir=work) as tmp:
        shutil.copyfile(source, Path(tmp) / "id.text")
        # deid.pl reads its dictionaries relative to its folder and writes id.res / id.phi beside id.text.
        deid_cpu = cpu_run([perl, str(folder / "deid.pl"), str(Path(tmp) / "id"),
                            str(folder / "deid-output.config")], cwd=folder)
    out.update(deid_pl_cpu_seconds=round(deid_cpu, 2),
               deid_pl_words_per_cpu_s=round(n_words / deid_cpu) if deid_cpu else None,
               ratio_crfdeid_vs_deid_pl=round(deid_cpu / crfdeid_cpu, 1) if crfdeid_cpu else None)
    return out


def jobs_speedup(jobs: dict) -> float | None:
    """Wall-clock speed-up of ``--jobs 2`` over ``--jobs 1`` (None unless both were run).

    >>> jobs_speedup({"1": {"seconds": 9.0}, "2": {"seconds": 5.0}})
    1.8
    """
    one, two = jobs.get("1"), jobs.get("2")
    if not one or not two or not two.get("seconds"):
        return None
    return round(one["seconds"] / two["seconds"], 2)

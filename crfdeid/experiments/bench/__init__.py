"""Speed and memory benchmark of training and tagging (``python -m crfdeid bench``).

Examples::

    python -m crfdeid bench --json build/bench.json          # full run (make bench)
    python -m crfdeid bench --quick                          # seconds-long smoke run
    python -m crfdeid bench --corpus synth:500,3 --model M --no-train

Corpus: ``--corpus FORMAT:PATH``; by default the PhysioNet dev corpus
(``../shared/corpora/physionet-dev`` next to the repository) when present, else a
synthetic corpus (``synth:1000,13``). Measures, each figure from its own run:

* tagging end to end in one process (read, route a routed model's notes, tokenize, featurize, CRF
  inference with ``--backend``, decode, rules, write i2b2 XML, one file per note,
  or ``--output-format``, to a temporary folder under ``--write-dir``: by default
  ``/dev/shm``, a RAM-backed file system, so that the figure is crfdeid's and not
  the disk's): tokens/s, notes/s and
  the share of each stage (:func:`crfdeid.experiments.bench.stages.tag_end_to_end`), and
  a routed model's: each member's notes, tokens, seconds and stages;
* CRFsuite alone on precomputed ``ItemSequence``\\ s for the same tokens and the
  same decoding (``set`` + Viterbi ``tag``, plus the marginals P(O) when the
  model decodes with ``o_threshold``), and the ratio end-to-end / CRFsuite-only;
* training time and peak RSS in a fresh process, on the corpus and on a
  synthetic corpus of about 1M tokens;
* the tag CLI with ``--jobs 1`` and ``--jobs 2`` (fresh process, start-up and
  model load included);
* the tag CLI's start-up: CPU seconds of a redacted ``tag`` of one short note (lowest of
  ``--startup-runs``, the bytecode cached as in an installed package; also the lowest of three
  runs without that cache) and the crfdeid modules it imports
  (:func:`crfdeid.experiments.bench.whole.startup`);
* whole-process words per CPU-second of ``tag`` against deid.pl on the same PhysioNet notes,
  where ``$DEID_PL`` names deid.pl's folder (skipped otherwise: deid.pl is not fetched);
* peak RSS of the tag CLI on N and 4N synthetic notes (streaming: should not grow);
* optionally (``--large-note-mb``) one single-line note of that size.
"""

from __future__ import annotations

import platform
import tempfile
import time
from pathlib import Path

from ...crf.model import Model
from ...routing import RoutedModel
from ...synth import generate
from . import child
from .report import ratios, targets
from .routed import decodes_with_marginals
from .stages import crfsuite_only, tag_end_to_end
from .whole import against_deid_pl, bytecode_env, jobs_speedup, startup

#: The folder holding the ``crfdeid`` package (a checkout's root, or site-packages).
ROOT = child.ROOT
#: The shared PhysioNet corpus beside a checkout (``../shared``, as the other benches).
PHYSIONET = ROOT.parent / "shared" / "corpora" / "physionet-dev"
#: RAM-backed folder for the end-to-end run's output (when it exists).
SHM = "/dev/shm"
SYNTH_CORPUS = "synth:1000,13"
#: About 1M tokens of synthetic notes (about 276 tokens per note).
SYNTH_1M = "synth:3600,13"


def machine_info() -> dict:
    """CPU model, cores, RAM, Python and CRFsuite versions."""
    import psutil
    import pycrfsuite
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        from importlib.metadata import version
        crf_version = version("python-crfsuite")
    except Exception:  # pragma: no cover - not installed as a distribution
        crf_version = getattr(pycrfsuite, "__version__", "unknown")
    return {"cpu": cpu, "cores": psutil.cpu_count(logical=True),
            "physical_cores": psutil.cpu_count(logical=False),
            "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
            "load_average": [round(x, 2) for x in psutil.getloadavg()],
            "python": platform.python_version(), "python_crfsuite": crf_version,
            "platform": platform.platform()}


def code_version() -> dict:
    """The commit measured, and the tracked files that differed from it (work in progress)."""
    import subprocess
    def git(*args):
        try:
            return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                                  text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": git("rev-parse", "--short", "HEAD"),
            "modified": git("diff", "--name-only", "HEAD").splitlines()}


def _fs_type(path) -> str:
    """The file system type of the mount holding ``path`` (``tmpfs``, ``ext4``; ``""`` if unknown)."""
    best, fs = "", ""
    try:
        real = str(Path(path).resolve())
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) > 2 and (real == parts[1] or real.startswith(parts[1].rstrip("/") + "/")) \
                    and len(parts[1]) > len(best):
                best, fs = parts[1], parts[2]
    except OSError:
        pass
    return fs


def _default_corpus(quick: bool, say) -> str:
    if quick:
        return "synth:30,5"
    if (PHYSIONET / "id.text").exists():
        return f"physionet:{PHYSIONET}"
    say(f"PhysioNet dev corpus not found at {PHYSIONET}; using the synthetic corpus {SYNTH_CORPUS}")
    return SYNTH_CORPUS


def _large_note(path: Path, megabytes: float) -> int:
    """Write one synthetic single-line note of about ``megabytes`` MB; return its size."""
    chunk = " ".join(d.text.replace("\n", " ").replace("\r", " ") for d in generate(50, 99))
    data = chunk.encode("utf-8")
    target = int(megabytes * 2**20)
    with path.open("wb") as fh:
        size = 0
        while size < target:
            fh.write(data[: target - size])
            size += min(len(data), target - size)
    return size


def _describe(model, path) -> dict:
    """The model measured: its file, backend, features, threshold and rules (a routed model's: each
    member's, beside ``routed: true``)."""
    def crf(m) -> dict:
        return {"features": m.config["features"]["name"], "o_threshold": m.config["decoding"]["o_threshold"],
                "rules": "rules.v1" in m.chain.names()}
    head = {"path": str(path), "backend": model.backend}
    if isinstance(model, RoutedModel):
        return dict(head, routed=True, members={name: dict(crf(m), prior=m.prior is not None)
                                                for name, m in model.members.items()})
    return dict(head, **crf(model))


def run(args, say) -> dict:
    """All measurements for parsed ``args``; returns the JSON-able result."""
    corpus = args.corpus or _default_corpus(args.quick, say)
    quick = args.quick
    res = {"corpus": corpus, "quick": quick, "machine": machine_info(), "code": code_version(),
           "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    tmp = tempfile.TemporaryDirectory(prefix="crfdeid-bench-")
    work = Path(tmp.name)
    try:
        # one CRF (configs/icu.yaml, the shipped ICU CRF's): a routed config trains none on a corpus
        config = "configs/physionet.yaml" if corpus.startswith("physionet:") else "configs/icu.yaml"
        if quick:
            config = "configs/synth-small.yaml"
        model_path = args.model
        if not args.no_train:
            say(f"training on {corpus} ({config})")
            res["train_corpus"] = dict(child.run("train", config, work / "corpus.model", corpus,
                                                 5 if quick else ""), config=config)
            model_path = model_path or str(work / "corpus.model")
            big = "synth:40,13" if quick else SYNTH_1M
            say(f"training on {big} (configs/icu.yaml)")
            res["train_synth_1m"] = dict(child.run("train", "configs/icu.yaml", work / "synth.model",
                                                   big, 5 if quick else ""),
                                         config="configs/icu.yaml", corpus=big)
        if model_path is None:
            raise SystemExit("error: --no-train needs --model")
        model = Model.load(model_path, backend=args.backend)
        res["model"] = _describe(model, model_path)
        runs = min(args.startup_runs, 2) if quick else args.startup_runs  # a smoke run: two
        say(f"start-up: tag of one short note, {runs} runs")
        res["startup"] = startup(model_path, work, runs)
        say("whole process against deid.pl")
        res["deid_pl"] = against_deid_pl(corpus, model_path, work)
        say("tagging end to end (one process)")
        write_dir = args.write_dir or (SHM if Path(SHM).is_dir() else None)
        with tempfile.TemporaryDirectory(prefix="crfdeid-bench-", dir=write_dir) as out:
            res["tag_end_to_end"] = dict(tag_end_to_end(model, corpus, args.output_format, out_dir=out),
                                         output_format=args.output_format,
                                         write_dir=str(Path(out).parent), write_fs=_fs_type(out))
        say("CRFsuite alone on precomputed features")
        res["crfsuite_only"] = crfsuite_only(model, corpus)
        res.update(ratios(res["tag_end_to_end"], res["crfsuite_only"], marginals=decodes_with_marginals(model)))
        tokens = res["tag_end_to_end"]["tokens"]
        # --jobs 1, 2, ... N, the whole round --jobs-runs times (a disturbance hits both counts
        # alike), bytecode cached as in an installed package (the start-up's folder); the
        # median run of each count is reported, with every run's seconds beside it.
        runs_of: dict[int, list[dict]] = {}
        cached = bytecode_env(work / "startup-pycache")
        reps = 1 if quick else max(1, args.jobs_runs)
        for rep in range(reps):
            for jobs in range(1, max(1, args.max_jobs) + 1):
                say(f"tag CLI --jobs {jobs} (run {rep + 1} of {reps})")
                with tempfile.TemporaryDirectory(prefix="crfdeid-bench-", dir=write_dir) as out:
                    runs_of.setdefault(jobs, []).append(
                        child.run("tag", model_path, corpus, Path(out) / f"jobs{jobs}", jobs, args.backend,
                                  env=cached))
        res["jobs"] = {}
        for jobs, runs_j in runs_of.items():
            r = dict(sorted(runs_j, key=lambda x: x["seconds"])[len(runs_j) // 2],
                     runs_seconds=[x["seconds"] for x in runs_j])
            r["tokens_per_s"] = round(tokens / r["seconds"]) if r["seconds"] else None
            res["jobs"][str(jobs)] = r
        res["jobs_speedup"] = jobs_speedup(res["jobs"])
        n = args.memory_notes or (10 if quick else 250)
        res["memory"] = {}
        for k in (n, 4 * n):
            say(f"tag CLI on {k} synthetic notes (peak RSS)")
            res["memory"][str(k)] = child.run("tag", model_path, f"synth:{k},21", work / f"mem{k}",
                                              1, args.backend)
        if args.large_note_mb:
            say(f"tag CLI on one {args.large_note_mb} MB single-line note")
            note = work / "large" / "large.txt"
            note.parent.mkdir()
            size = _large_note(note, args.large_note_mb)
            r = child.run("tag", model_path, f"text:{note}", work / "large-out", 1, args.backend)
            res["large_note"] = dict(r, bytes=size)
    finally:
        tmp.cleanup()
    res["targets"] = targets(res)
    return res

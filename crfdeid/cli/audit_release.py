"""The release an audit is of: the output folder ``tag`` wrote, held to its run manifest
(:mod:`crfdeid.io.runmanifest`) and made again.

``audit sample --release-output DIR`` records the output folder and the digest of its run
manifest (refused when another model wrote it). ``audit verify`` then names

- each output file that differs from, is missing from or was added to its run manifest (the
  release edited after it was written);
- each file the run's arguments named (model, site files, inputs) whose digest changed;
- each output file that differs when ``tag`` runs again with the run's own arguments (site mining
  over the same batch included) into a private temporary folder: an output written by another
  model or with other options than its manifest says. A run whose ``--key`` was withheld cannot
  be made again (named: use ``--key-file``).

The review suggestions of such an audit are what the release's run removed, not the model
alone (:func:`release_spans`): the run's spans made again with its own arguments (site files,
site mining over the same batch, threshold), plus each note's repeats of its PHI strings where
its output replaces them (redacted, masked, surrogate, FHIR, HL7), as its writer adds them.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from ..deid.spans import propagate
from ..document import Document, Span
from ..errors import ConfigError, CrfdeidError
from ..io import read, runmanifest
from ..tagging.model import TaggingModel
from ..tagging.session import REPEATING
from . import tag  # the command itself, so that the output is made again exactly as `tag` makes it

#: Options of the run left out when it is made again (with their value, if they take one).
_DROP_VALUE = ("--output-dir", "--log", "--site-mining-save", "--jobs", "--mapping")
_DROP_FLAG = ("--overwrite", "--quiet")
#: Options that shape only the text written, not the spans (left out when the spans are made again).
_WRITER_VALUE = ("--output-format", "--option", "-o", "--seed", "--key", "--key-file", "--fhir-policy", "--explain")
#: Output formats whose writer also replaces each note's repeats of its PHI strings.
_REPEATS = REPEATING | {"fhir", "hl7"}


def record(folder, model_sha256: str) -> dict:
    """What ``audit.json`` records of the release's output folder (see the module docstring)."""
    folder = Path(folder).resolve()
    run = runmanifest.read(folder)
    if run.get("model_sha256") != model_sha256:
        raise ConfigError("the output was written by another model than the audit's (--model): audit the model "
                          "that wrote it", path=folder)
    return {"folder": str(folder), "manifest_sha256": runmanifest.sha256_file(folder / runmanifest.RUN_MANIFEST),
            "output_format": run.get("output_format"), "model_sha256": run["model_sha256"],
            "files": len(run.get("files", {}))}


def _without(argv: list[str], drops) -> list[str]:
    """``argv`` without the options ``drops(option, value)`` names: ``"value"`` (left out with its
    value, the next word unless written ``--opt=value``), ``"flag"`` (left out alone) or None (kept)."""
    res: list[str] = []
    skip = False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        name, eq, inline = a.partition("=")
        following = argv[i + 1] if i + 1 < len(argv) else None
        what = drops(name, inline) if eq and name.startswith("--") else drops(a, following)
        if what == "value":
            skip = not eq and following is not None
        elif what is None:
            res.append(a)
    return res


def again(argv: list[str], out: Path) -> list[str]:
    """The run's arguments to make its output again into ``out`` (quiet, nothing else written).

    >>> again(["--output-dir", "o", "--overwrite", "-o", "mapping=m.csv", "n.txt"], Path("t"))
    ['n.txt', '--output-dir', 't', '--quiet']
    """
    def drops(option, value):
        if option in _DROP_VALUE or (option in ("-o", "--option") and str(value).startswith("mapping=")):
            return "value"
        return "flag" if option in _DROP_FLAG else None
    return _without(argv, drops) + ["--output-dir", str(out), "--quiet"]


def check(recorded: dict, differ) -> None:
    """Name every way the release's output differs from its run manifest and from a run made
    again (see the module docstring); ``differ(doc_id, what)``."""
    folder = Path(recorded["folder"])
    try:
        run = runmanifest.read(folder)
    except ConfigError as exc:
        differ(None, f"the release's output: {exc}")
        return
    if runmanifest.sha256_file(folder / runmanifest.RUN_MANIFEST) != recorded["manifest_sha256"]:
        differ(None, "the release's run manifest changed after the sample was drawn")
    for name, what in runmanifest.compare(run["files"], runmanifest.output_files(folder)):
        differ(name, f"the release's output file {what} (its run manifest says otherwise: edited after tag wrote it)")
    with contextlib.chdir(run["cwd"]):
        named = runmanifest.named_files(run["argv"])
    for arg in sorted(set(run["named_files"]) | set(named)):
        if run["named_files"].get(arg) != named.get(arg):
            differ(None, f"the file the run's argument {arg!r} names changed since the run (SHA-256)")
    if runmanifest.WITHHELD in " ".join(run["argv"]):
        differ(None, "the run's --key was withheld: its output cannot be made again (tag with --key-file)")
        return
    with tempfile.TemporaryDirectory(prefix="crfdeid-audit-") as tmp, contextlib.chdir(run["cwd"]), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        out = Path(tmp) / "out"
        code = tag.main(again(run["argv"], out))
        made = runmanifest.output_files(out) if out.is_dir() else {}
    if code != 0:
        differ(None, f"tag with the run's arguments failed (exit {code}): the output cannot be made again")
    for name, what in runmanifest.compare(run["files"], made):
        differ(name, f"made again with the run's arguments, the output file {what}: the release was not written "
                     "as its run manifest says (another model, site files or options)")


def spans_again(argv: list[str], out: Path) -> list[str]:
    """The run's arguments to tag the same notes again into ``out`` as JSON Lines spans: what
    shapes only the written text (format, writer options, surrogate keys, explain file) left out.

    >>> spans_again(["--output-format", "redacted", "-o", "style=xyz", "--site-list", "staff=r.txt", "n.txt",
    ...              "--explain", "e.html", "--output-dir", "o"], Path("t"))
    ['--site-list', 'staff=r.txt', 'n.txt', '--output-format', 'jsonl', '--output-dir', 't', '--quiet', \
'--no-run-manifest']
    """
    def drops(option, value):
        if option not in _WRITER_VALUE:
            return None  # a bare --explain takes no value (argparse gives it the next word if any)
        return "flag" if option == "--explain" and (value is None or value.startswith("-")) else "value"
    res = _without(again(argv, out)[:-3], drops)  # without its output folder and --quiet
    return res + ["--output-format", "jsonl", "--output-dir", str(out), "--quiet", "--no-run-manifest"]


def _repeats(run: dict) -> bool:
    """Whether the run's writer replaced each note's repeats of its PHI strings too."""
    if run.get("output_format") not in _REPEATS:
        return False
    argv = run["argv"]
    pairs = [b for a, b in zip(argv, argv[1:]) if a in ("-o", "--option")]
    pairs += [a.split("=", 1)[1] for a in argv if a.startswith("--option=")]
    return all(tag._writer_option(p) != ("propagate", False) for p in pairs if p.startswith("propagate="))


def release_spans(folder, model_path) -> dict[str, Document]:
    """``{doc id: the note with the spans the release's run removed}`` (see the module
    docstring), each span's confidence as the run's tagger gave it (1.0 for a repeat).

    Raises
    ------
    ConfigError
        The folder's run manifest is missing, incomplete or not a manifest.
    CrfdeidError
        The run cannot be made again (its exit code named; a withheld ``--key`` does not matter
        here: surrogate keys shape no span).
    """
    run = runmanifest.read(folder)
    scheme = TaggingModel.load(model_path).scheme
    with tempfile.TemporaryDirectory(prefix="crfdeid-audit-") as tmp, contextlib.chdir(run["cwd"]), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        out = Path(tmp) / "out"
        code = tag.main(spans_again(run["argv"], out))
        docs = list(read(f"jsonl:{out / 'tagged.jsonl'}", scheme=scheme)) if code == 0 else []
    if code != 0:
        raise CrfdeidError(f"tag with the release run's arguments failed (exit {code}): its spans cannot be made "
                           f"again for the review suggestions ({folder})")
    repeats = _repeats(run)
    found = {}
    for doc in docs:
        confidence = [1.0 if c is None else float(c) for c in doc.meta.get("confidence") or [None] * len(doc.spans)]
        doc = doc.with_spans([Span(sp.start, sp.end, sp.category, sp.subtype, confidence=c)
                              for sp, c in zip(doc.spans, confidence)])
        if repeats:
            doc = propagate(doc, scheme=scheme)
        doc.meta["confidence"] = [1.0 if sp.confidence is None else sp.confidence for sp in doc.spans]
        found[doc.doc_id] = doc
    return found


def span_lists(found: dict[str, Document], ids) -> dict[str, list[list]]:
    """``{doc id: [[start, end, subtype], ...]}`` of :func:`release_spans`'s notes ``ids``, as
    ``audit verify`` compares them."""
    return {d: sorted([sp.start, sp.end, sp.subtype] for sp in found[d].spans) for d in ids if d in found}

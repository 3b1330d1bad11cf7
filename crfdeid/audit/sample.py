"""The audit sample: strata, a seeded stratified draw, its manifest and its review projects.

A release is read twice, streaming: first every note's stratum, token count and text
digest (the *population*), then the drawn notes, which the model that will de-identify the
release tags and which become review projects in the review app (:mod:`crfdeid.review`):
each note as its original text with the model's spans as suggestions, so that reviewers
add what the model missed. Notes of the double-review part go to a second project, whose
notes each want two reviewers; the others to a project of one reviewer a note.

The draw depends only on the seed, the strata and the population (notes ordered by id),
never on the order the release is read in: :func:`draw` with the manifest's settings on the
same release gives the same notes (``python -m crfdeid audit verify``, :mod:`crfdeid.audit.verify`). The manifest
(``AUDIT/audit.json``) holds ids, digests, counts and the model's span offsets, never note
text.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..document import Document, make_span
from ..errors import ConfigError, CrfdeidError
from ..io import atomic_write, read
from ..io.runmanifest import read_manifest, sha256_file
from ..review.project import Project
from ..tagging.model import DEFAULT_MODEL, TaggingModel
from ..tagging.session import SPANS, Session
from ..text.tokenize import token_offsets
from ..version import __version__
from . import canary
from . import plan as planned

MANIFEST = "audit.json"
FORMAT = "crfdeid-audit/1"
#: The review projects inside the audit folder: one reviewer a note, two a note.
SINGLE, DOUBLE = "review", "double"
#: Strata every note has without metadata.
LENGTH = "length"
MISSING = "(none)"


@dataclass(frozen=True)
class Strata:
    """What a note's stratum is made of: metadata fields, ``length`` (token-count bins) and
    named groups of ``pattern`` (a regular expression searched in the document id, else in
    the name of the file the note was read from)."""

    fields: tuple[str, ...] = ()
    length_bins: tuple[int, ...] = (500, 2000)
    pattern: str | None = None

    def __post_init__(self):
        if list(self.length_bins) != sorted(set(self.length_bins)) or any(b <= 0 for b in self.length_bins):
            raise ConfigError(f"length bins must be increasing positive token counts, got {self.length_bins}")
        groups = set(re.compile(self.pattern).groupindex) if self.pattern else set()
        if self.pattern and not groups:
            raise ConfigError("the stratum pattern needs named groups, e.g. (?P<site>[A-Z]+)_")
        unused = groups - set(self.fields)
        if unused:
            raise ConfigError(f"the pattern's groups {sorted(unused)} are not among the strata "
                              f"{list(self.fields)}: name them with --stratify")

    def length_label(self, tokens: int) -> str:
        """``"<500"``, ``"500-1999"``, ``">=2000"`` for the default bins."""
        edges = self.length_bins
        if not edges or tokens < edges[0]:
            return f"<{edges[0]}" if edges else "all"
        for lo, hi in zip(edges, edges[1:]):
            if lo <= tokens < hi:
                return f"{lo}-{hi - 1}"
        return f">={edges[-1]}"

    def key(self, doc, tokens: int) -> tuple[str, ...]:
        """The note's stratum: one value per field."""
        match = None
        if self.pattern:
            rx = re.compile(self.pattern)
            match = rx.search(doc.doc_id) or rx.search(Path(str(doc.meta.get("source", ""))).name)
        out = []
        for f in self.fields:
            if f == LENGTH:
                out.append(self.length_label(tokens))
            elif self.pattern and f in re.compile(self.pattern).groupindex:
                out.append(match.group(f) if match and match.group(f) is not None else MISSING)
            else:
                value = doc.meta.get(f)
                out.append(MISSING if value is None or value == "" else str(value))
        return tuple(out)

    def as_dict(self) -> dict:
        return {"fields": list(self.fields), "length_bins": list(self.length_bins), "pattern": self.pattern}


@dataclass(frozen=True)
class Member:
    """One note of the release population (no text)."""

    doc_id: str
    stratum: tuple[str, ...]
    tokens: int
    text_sha256: str


def text_sha256(text: str) -> str:
    """A note's text digest, as :class:`Member` keeps it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def config_digest(config: dict) -> str:
    """A digest of a resolved config (keys sorted), so two audits can tell they used the same."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()


def population(specs, strata: Strata, options: dict | None = None) -> tuple[list[Member], list]:
    """Every note of the release (``FORMAT:PATH`` inputs read with the reader ``options``),
    ordered by id, and the read errors."""
    errors: list = []
    members: dict[str, Member] = {}
    for spec in specs:
        for doc in read(spec, errors=errors, **(options or {})):
            if doc.doc_id in members:
                errors.append(ConfigError(f"document id {doc.doc_id!r} occurs twice in the release: an "
                                          "audit draws from notes with unique ids"))
                continue
            tokens = len(token_offsets(doc.text))
            members[doc.doc_id] = Member(doc.doc_id, strata.key(doc, tokens), tokens, text_sha256(doc.text))
    return [members[k] for k in sorted(members)], errors


def release_digest(members) -> str:
    """A digest of the release as the audit saw it: every note's id and text digest."""
    h = hashlib.sha256()
    for m in sorted(members, key=lambda m: m.doc_id):
        h.update(f"{m.doc_id}\t{m.text_sha256}\n".encode())
    return h.hexdigest()


def allocate(sizes: dict, n: int) -> dict:
    """Notes to draw from each stratum: proportional to its size, largest remainders first
    (ties in stratum order), never more than it has.

    >>> allocate({("a",): 50, ("b",): 30, ("c",): 20}, 10)
    {('a',): 5, ('b',): 3, ('c',): 2}
    >>> allocate({("a",): 2, ("b",): 1}, 2)
    {('a',): 1, ('b',): 1}
    """
    total = sum(sizes.values())
    if not 0 < n <= total:
        raise ConfigError(f"a sample of {n} notes from a release of {total}")
    keys = sorted(sizes)
    quota = {k: n * sizes[k] / total for k in keys}
    got = {k: min(sizes[k], int(quota[k])) for k in keys}
    order = sorted(keys, key=lambda k: (-(quota[k] - int(quota[k])), k))
    while sum(got.values()) < n:
        for k in order:
            if sum(got.values()) < n and got[k] < sizes[k]:
                got[k] += 1
        order = sorted(keys, key=lambda k: (got[k] / sizes[k], k))
    return got


def draw(members, n: int, seed: int, double: int = 0) -> tuple[list[str], list[str]]:
    """``(sample, double)``: ``n`` document ids drawn at random within strata (proportional
    allocation), and the ``double`` of them that two reviewers review, both sorted.

    Only the seed, the strata and the population decide the draw (each stratum has its own
    generator, seeded by the seed and the stratum).
    """
    by_stratum: dict[tuple, list[str]] = defaultdict(list)
    for m in members:
        by_stratum[m.stratum].append(m.doc_id)
    counts = allocate({k: len(v) for k, v in by_stratum.items()}, n)
    chosen: list[str] = []
    for k in sorted(by_stratum):
        rng = random.Random(f"{seed}/{json.dumps(list(k))}")
        chosen += rng.sample(sorted(by_stratum[k]), counts[k])
    chosen.sort()
    if not 0 <= double <= n:
        raise ConfigError(f"the double-review part ({double}) must lie between 0 and the sample size ({n})")
    twice = sorted(random.Random(f"{seed}/double").sample(chosen, double))
    return chosen, twice


def output_digest(found: dict[str, Document]) -> str:
    """:func:`release_digest` of the notes the release's run tagged (its whole output)."""
    return release_digest([Member(d, (), 0, text_sha256(doc.text))
                           for d, doc in found.items()])


def whole_output(members, found: dict[str, Document]) -> str | None:
    """Why the release is not the whole output its run wrote (None when it is)."""
    if release_digest(members) == output_digest(found):
        return None
    ours = {m.doc_id for m in members}
    left = sorted(set(found) - ours)
    return (f"audit of something else: the audit's release is not the whole output that leaves ({len(left)} of the "
            f"output's {len(found)} notes are not in it, {len(ours - set(found))} of its {len(ours)} are not in "
            "the output, or texts differ)")


def new_seed() -> int:
    """A fresh seed (recorded in the manifest): the audit is drawn once, then checked."""
    return random.SystemRandom().randrange(1, 2**31)


def create(folder, specs, n: int, seed: int, strata: Strata, double: int = 0, model_path=None,
           output: str = "redacted", options: dict | None = None, output_run: dict | None = None,
           canaries: int = 0, release_spans: dict[str, Document] | None = None, plan: dict | None = None) -> dict:
    """Draw the sample, tag it with the model, make the review project(s) and write the manifest.

    ``seed``: a number (unless ``plan``: the officer's signed plan, :mod:`crfdeid.audit.plan`, which
    then fixes the seed and every setting). Returns the manifest. ``folder`` must not be an audit yet; read errors
    stop the audit (its population would be unknown). ``output_run``: what the manifest records
    of the release's output folder (``crfdeid.cli.audit_release.record``); ``canaries``: notes
    that get a made-up identifier in their review copy (:mod:`crfdeid.audit.canary`);
    ``release_spans``: ``{doc id: the note with the spans the release's run removed}``
    (``crfdeid.cli.audit_release.release_spans``): the suggestions and ``model_spans`` are then
    the release's, not the model's alone.
    """
    folder = Path(folder)
    if (folder / MANIFEST).exists():
        raise ConfigError("already an audit (its sample is drawn once; start another folder)", path=folder)
    members, errors = population(specs, strata, options)
    if errors:
        raise CrfdeidError(f"{len(errors)} note(s) of the release could not be read (first: {errors[0]}); an "
                           "audit needs every note of the release")
    seed_from = "given"
    if release_spans is not None:
        why = whole_output(members, release_spans)
        if why:
            raise CrfdeidError(why)
    if plan is not None:
        seed, seed_from = planned.seed_of(plan), "plan"
        if plan["body"]["release_digest"] != release_digest(members):
            raise CrfdeidError("the release is not the release the signed plan names (its digest differs)")
    sample, twice = draw(members, n, seed, double)
    planted = set(canary.choose(sample, canaries, seed))
    canary_of: dict[str, dict] = {}
    path = Path(model_path) if model_path and str(model_path) != "default" else DEFAULT_MODEL
    model = TaggingModel.load(path)
    session = Session(model, SPANS)  # the release's model, as `crfdeid tag` tags with it
    digest = sha256_file(path)
    info = {m.doc_id: m for m in members}
    chosen, doubles = set(sample), set(twice)
    docs = {}
    for spec in specs:
        for doc in read(spec, **(options or {})):
            if doc.doc_id in chosen:
                if text_sha256(doc.text) != info[doc.doc_id].text_sha256:
                    raise CrfdeidError(f"document {doc.doc_id!r} changed while the release was read: draw again")
                docs[doc.doc_id] = doc.with_spans([])  # the review starts from the model's spans
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    notes: list[dict] = []
    projects = {}
    for part, ids, per_note in ((SINGLE, [d for d in sample if d not in doubles], 1), (DOUBLE, twice, 2)):
        if not ids:
            continue
        project = Project.create(folder / part, model=str(path.resolve()), per_note=per_note,
                                 retrain_every=0, strategy="random")
        projects[part] = project
        try:
            # the project says which audit it belongs to (the manifest has the rest)
            project.store.set_setting("audit", {"seed": seed, "part": part, "model_sha256": digest,
                                                "release_digest": release_digest(members)})
            order = random.Random(f"{seed}/order/{part}").sample(ids, len(ids))
            rank = {d: i for i, d in enumerate(order)}
            batch = [docs[d] for d in ids]
            found = list(_of_release(batch, release_spans) if release_spans is not None else session.tagged(batch))
            spans_of = {d.doc_id: [(x.start, x.end, x.subtype) for x in t.spans] for d, t in zip(batch, found)}
            lines = {d.doc_id: canary.lines(d.text, spans_of[d.doc_id]) for d in batch}
            for doc, tagged in zip(batch, found):
                shown, suggested = doc, tagged.spans
                pool = [x for d in ids if d != doc.doc_id for x in lines[d]] if doc.doc_id in planted else []
                if doc.doc_id in planted and (pool or lines[doc.doc_id]):
                    # the review copy only; the manifest keeps the release's offsets. No line with an
                    # identifier in the whole part: nothing to draw a canary from (the report says
                    # how many were planted)
                    text, c = canary.plant(doc.text, spans_of[doc.doc_id],
                                           random.Random(f"{seed}/canary/{doc.doc_id}"), pool)
                    canary_of[doc.doc_id] = dict(c, doc_id=doc.doc_id, part=part)
                    shown = Document(doc.doc_id, text, [], dict(doc.meta))
                    suggested = [make_span(a, b, t) for a, b, t in
                                 canary.to_store([(x.start, x.end, x.subtype) for x in tagged.spans], c)]
                nid = project.store.add_note(shown, None, who="audit")
                # the suggestions are the release's model, version 0; priority: the seeded order
                project.store.set_suggestions(nid, suggested, tagged.meta["confidence"], 0,
                                              1.0 - rank[doc.doc_id] / len(ids))
                m = info[doc.doc_id]
                notes.append({"doc_id": doc.doc_id, "part": part, "stratum": list(m.stratum), "tokens": m.tokens,
                              "text_sha256": m.text_sha256,
                              "model_spans": [[s.start, s.end, s.subtype] for s in tagged.spans]})
        finally:
            project.close()
    per_stratum: dict = {}
    sizes = Counter(m.stratum for m in members)
    tokens: Counter = Counter()
    for m in members:
        tokens[m.stratum] += m.tokens
    drawn = Counter(info[d].stratum for d in sample)
    for k in sorted(sizes):
        per_stratum[json.dumps(list(k))] = {"notes": sizes[k], "tokens": tokens[k], "sampled": drawn[k]}
    manifest: dict = {
        "format": FORMAT, "created": datetime.now(UTC).isoformat(timespec="seconds"), "crfdeid": __version__,
        "release": {"inputs": list(specs), "reader_options": dict(options or {}), "notes": len(members),
                    "tokens": sum(m.tokens for m in members),
                    "digest": release_digest(members), "strata": per_stratum},
        "model": {"file": path.resolve().name, "path": str(path.resolve()), "sha256": digest,
                  "config_sha256": config_digest(model.config), "config": model.config},
        "output": output, "suggestions": "model" if release_spans is None else "release-run",
        "sample": {"seed": seed, "seed_from": seed_from, "size": n, "double": double, "strata": strata.as_dict(),
                   "canaries": canaries, "projects": {p: f"{p}/" for p in projects}},
        "notes": sorted(notes, key=lambda x: str(x["doc_id"])),
    }
    if output_run:
        manifest["output_run"] = output_run
    if plan is not None:
        manifest["plan"] = plan
    if canary_of:
        manifest["canaries"] = [canary_of[d] for d in sorted(canary_of)]
    atomic_write(folder / MANIFEST, json.dumps(manifest, indent=1, default=str) + "\n")
    return manifest


def _of_release(batch: list[Document], found: dict[str, Document]) -> list[Document]:
    """The release run's tagged copy of each note of ``batch`` (refused when it lacks one or its
    text differs: the run is not of this release)."""
    out = []
    for doc in batch:
        got = found.get(doc.doc_id)
        if got is None or got.text != doc.text:
            raise CrfdeidError(f"document {doc.doc_id!r}: the release's run (--release-output) "
                               + ("did not tag it" if got is None else "tagged another text under its id")
                               + ": audit the run that wrote this release")
        out.append(got)
    return out


def load(folder) -> dict:
    """The audit's manifest."""
    return read_manifest(folder, MANIFEST, FORMAT, "not an audit folder (run `python -m crfdeid audit sample` "
                         "first)", "the audit manifest")

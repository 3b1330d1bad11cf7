"""Hiding in plain sight, measured: can an attacker tell the identifiers a model missed from the
surrogates around them?

On an annotated corpus, a share of the identifiers (chosen at random per span, stratified by
category, seeded) is left in as the model would miss them (residual identifiers), and the rest is
written two ways: as crfdeid's surrogates and as placeholders. An attacker, a CRF (CRFsuite, with
crfdeid's feature templates plus the tells of :mod:`.tells`), is trained on the release of part of
the patients to label every token ``REAL`` (a residual original), ``SURROGATE`` (a generated value)
or ``O``; on the other patients' notes it is scored on the residual identifiers: the share it finds
(a predicted ``REAL`` run overlaps them: ``attacker_recall``) and the share of its ``REAL`` runs that
are residual identifiers (``attacker_precision``). The same attack on the redacted release (a
residual identifier stands alone among placeholders; labels ``REAL`` and ``O``) is the comparison.
Carrell et al. (2013, JAMIA 20(2):342-348) found that an attacker's tagger found 68 % of 310
residual identifiers among realistic surrogates. docs/hips.md.

The result holds counts, rates, digests, seeds and the attacker's strongest attributes with their
word values hidden; never note text.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import random
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pycrfsuite

from ..config import load_config
from ..crf.crfsuite import open_tagger
from ..crf.numpy.weights import CrfWeights, read_weights
from ..deid import redact
from ..deid.policies import age_tails
from ..deid.spans import deid_spans
from ..deid.surrogate import Surrogator
from ..document import Document, Span
from ..errors import ConfigError, LeakError
from ..features import Featurizer
from ..io.splits import train_test_split
from ..progress import Progress
from ..resources import Resources
from ..scoring import audit as stats
from ..tagging.model import tokens_for
from ..text.tokenize import for_tagging, segments
from ..version import __version__
from .tells import note_tells, patient_counts

REAL, SURROGATE, OUTSIDE = "REAL", "SURROGATE", "O"
#: Feature keys whose values are words of the note: hidden in the reported weights.
LEXICAL = frozenset({"w", "lower", "p1", "p2", "p3", "p4", "s1", "s2", "s3", "s4"})
#: The attacker's CRFsuite options (crfdeid's defaults, configs/default.yaml).
CRF = {"c1": 0.1, "c2": 0.01, "max_iterations": 100, "feature.possible_transitions": True}
CARRELL = {"attacker_recall": 0.68, "residual": 310, "readers_missed": 0.9,
           "source": "Carrell et al. 2013, JAMIA 20(2):342-348"}


#: Fewest L-BFGS iterations of the attacker's CRF a measurement accepts: a quarter of the
#: default (``CRF``). A floor, not a measured convergence point: it refuses an attacker left
#: untrained (issue 52: 2 iterations gave 0 %), whose recall would understate what surrogates
#: let through.
MIN_ITERATIONS = 25


@dataclass
class Released:
    """A note as released: its text, the residual identifiers left in it, the generated values
    (surrogates or placeholders), offsets into ``text``."""

    doc_id: str
    group: str
    text: str
    real: list[Span]
    generated: list[Span]


@dataclass
class Settings:
    """What one measurement used (all recorded in the result)."""

    residual: float = 0.1
    seed: int = 0
    key: bytes | None = None
    train_share: float = 0.5
    crf: dict = field(default_factory=lambda: dict(CRF))

    def check(self) -> None:
        it = self.crf.get("max_iterations")
        if not isinstance(it, int) or it < MIN_ITERATIONS:
            raise ConfigError(f"--max-iterations must be at least {MIN_ITERATIONS} (got {it}): an attacker trained "
                              "for fewer iterations is not trained, and its low recall would make surrogates look "
                              "safer than they are")
        if not 0 < self.residual < 1:
            raise ConfigError(f"--residual is a share in (0, 1), got {self.residual}")
        if not 0 < self.train_share < 1:
            raise ConfigError(f"--train-share is a share in (0, 1), got {self.train_share}")


def choose_residual(docs: list[Document], share: float, seed: int) -> dict[int, set[Span]]:
    """``{document index: spans left in}``: ``round(share * n)`` of the ``n`` spans of each
    category, drawn at random (seeded) among the spans every output replaces."""
    by_category: dict[str, list[tuple[int, Span]]] = defaultdict(list)
    for i, doc in enumerate(docs):
        for sp in deid_spans(doc):
            by_category[sp.category].append((i, sp))
    rng = random.Random(f"hips-residual:{seed}")
    out: dict[int, set[Span]] = defaultdict(set)
    for category in sorted(by_category):
        items = by_category[category]
        for i, sp in rng.sample(items, round(share * len(items))):
            out[i].add(sp)
    return out


def _moved(doc: Document, old: list[Span], out: Document, residual) -> list[Span]:
    """The residual spans of ``doc`` in ``out``'s text, whose spans replaced ``old`` in order;
    ValueError when one does not read as before (never expected: a span would overlap)."""
    moved = []
    for r in sorted(residual):
        delta = 0
        for o, n in zip(old, out.spans):
            if o.end > r.start:
                break
            delta = n.end - o.end
        m = r.shifted(delta)
        if out.surface(m) != doc.surface(r):
            raise ValueError(f"document {doc.doc_id!r}: a residual span moved off its text")
        moved.append(m)
    return moved


def release(docs: list[Document], residual: dict[int, set[Span]], settings: Settings):
    """``(surrogate, redacted, counts)``: the notes released both ways with their residual
    identifiers; a note whose surrogates fail (:class:`~crfdeid.errors.LeakError`) is left out of
    both and counted."""
    kept = [doc.with_spans([sp for sp in deid_spans(doc) if sp not in residual.get(i, ())])
            for i, doc in enumerate(docs)]
    surrogator = (Surrogator(key=settings.key) if settings.key is not None
                  else Surrogator(seed=f"hips:{settings.seed}"))
    for doc in kept:  # every note of a patient first: coherent surrogates
        surrogator.learn(doc)
    sur, red = [], []
    counts: Counter = Counter()
    for i, (doc, base) in enumerate(zip(kept, docs)):
        left = residual.get(i, set())
        try:
            out = surrogator.surrogate(doc)
            s_real = _moved(base, age_tails(doc, deid_spans(doc)), out, left)
            blank = redact(doc)
            r_real = _moved(base, deid_spans(doc), blank, left)
        except (LeakError, ValueError):
            counts["notes_failed"] += 1
            continue
        counts["placeholders_in_surrogate_output"] += sum(out.surface(sp).startswith("[**") for sp in out.spans)
        sur.append(Released(doc.doc_id, doc.group, out.text, s_real, list(out.spans)))
        red.append(Released(doc.doc_id, doc.group, blank.text, r_real, list(blank.spans)))
    return sur, red, counts


def _label(tok, real, generated) -> str:
    if any(tok.start < s.end and s.start < tok.end for s in real):
        return REAL
    if any(tok.start < s.end and s.start < tok.end for s in generated):
        return SURROGATE
    return OUTSIDE


class Attack:
    """Sequences of one release for the attacker: crfdeid's features plus the tells, per segment."""

    def __init__(self, notes: list[Released], generated_label: str):
        cfg = load_config({})
        self.featurizer = Featurizer(cfg["features"], Resources.from_config(cfg["resources"]))
        self.split, self.max_len = cfg["tokenizer"]["split_glued"], cfg["segment"]["max_len"]
        self.generated_label = generated_label
        texts: dict[str, list[str]] = defaultdict(list)
        for n in notes:
            texts[n.group].append(n.text)
        self.per_patient = {g: patient_counts(t) for g, t in texts.items()}

    def note(self, n: Released):
        """``(tokens, attributes, labels, segments)`` of one released note."""
        text = for_tagging(n.text)
        toks = tokens_for(text, self.split)
        feats = self.featurizer.featurize(text, toks)
        tells = note_tells(text, toks, self.per_patient[n.group])
        attrs = [f + t for f, t in zip(feats, tells)]
        labels = [_label(t, n.real, n.generated) for t in toks]
        labels = [self.generated_label if lab == SURROGATE else lab for lab in labels]
        return toks, attrs, labels, segments(text, toks, self.max_len)

    def train(self, notes: list[Released], crf: dict, progress: bool = False) -> tuple[pycrfsuite.Tagger, CrfWeights]:
        trainer = pycrfsuite.Trainer(algorithm="lbfgs", params=crf, verbose=False)
        bar = Progress("attacker: featurize", len(notes), "note", progress)
        for n in notes:
            _, attrs, labels, segs = self.note(n)
            for a, b in segs:
                trainer.append(attrs[a:b], labels[a:b])
            bar.update(1)
        bar.close()
        self.featurizer.clear_cache()
        fd, tmp = tempfile.mkstemp(prefix="crfdeid-hips-", suffix=".crfsuite")
        os.close(fd)
        try:
            trainer.train(tmp)
            # the tagger reads the model from this buffer, which must outlive it (freed, the
            # tagger returns garbage labels)
            self.model_bytes = Path(tmp).read_bytes()
            return open_tagger(self.model_bytes), read_weights(self.model_bytes)
        finally:
            Path(tmp).unlink(missing_ok=True)

    def predict(self, tagger: pycrfsuite.Tagger, n: Released) -> list[tuple[int, int]]:
        """The note's runs of tokens the attacker labels ``REAL``, as character offsets."""
        toks, attrs, _, segs = self.note(n)
        labels: list[str] = []
        for a, b in segs:
            labels += tagger.tag(attrs[a:b])
        runs: list[tuple[int, int]] = []
        for i, (tok, lab) in enumerate(zip(toks, labels)):
            if lab != REAL:
                continue
            if runs and i > 0 and labels[i - 1] == REAL:
                runs[-1] = (runs[-1][0], tok.end)
            else:
                runs.append((tok.start, tok.end))
        return runs


def score(notes: list[Released], runs: list[list[tuple[int, int]]]) -> dict:
    """What the attacker found among the residual identifiers of ``notes``, overall and by category."""
    residual = found = predicted = right = generated = 0
    by: dict[str, Counter] = defaultdict(Counter)
    for n, rs in zip(notes, runs):
        hit = [any(s < sp.end and sp.start < e for s, e in rs) for sp in n.real]
        for sp, h in zip(n.real, hit):
            by[sp.category]["residual"] += 1
            by[sp.category]["found"] += h
        residual += len(n.real)
        found += sum(hit)
        generated += len(n.generated)
        predicted += len(rs)
        right += sum(any(s < sp.end and sp.start < e for sp in n.real) for s, e in rs)
    return {"attacker_recall": found / residual if residual else None,
            "attacker_recall_interval": list(stats.clopper_pearson(found, residual)) if residual else None,
            "attacker_precision": right / predicted if predicted else None,
            "residual": residual, "found": found, "predicted_runs": predicted, "runs_on_residual": right,
            "generated": generated,
            "base_rate": residual / (residual + generated) if residual + generated else None,
            "by_category": {c: {"residual": v["residual"], "found": v["found"],
                                "attacker_recall": v["found"] / v["residual"]}
                            for c, v in sorted(by.items())}}


def public(attr: str) -> str:
    """An attribute as it may be reported: a word-valued one (``-1:lower:smith``) without its word.

    >>> public("-1:lower:smith"), public("shape:Xxxxx"), public("bi+1:smith|on")
    ('-1:lower:*', 'shape:Xxxxx', 'bi+1:*')
    """
    head, _, rest = attr.partition(":")
    prefix = ""
    if head[:1] in "+-" and head[1:].isdigit():
        prefix, (head, _, rest) = head + ":", rest.partition(":")
    if head in LEXICAL or head.startswith("bi"):
        return f"{prefix}{head}:*"
    return attr


def _template(attr: str) -> str:
    """The template key of an attribute: ``-1:lower:smith`` -> ``lower``."""
    head, _, rest = attr.partition(":")
    if head[:1] in "+-" and head[1:].isdigit():
        head = rest.partition(":")[0]
    return "bi" if head.startswith("bi") else head


def tells(weights: CrfWeights, against: str, top: int = 15) -> dict:
    """What raises ``REAL`` over ``against`` most (state weights): the ``top`` attributes that are
    not words of the note, and every template's share of the summed absolute differences."""
    real, other = weights.labels.index(REAL), weights.labels.index(against)
    diff = {a: float(weights.state[row, real] - weights.state[row, other]) for a, row in weights.attributes.items()}
    shown = sorted(((a, d) for a, d in diff.items() if public(a) == a), key=lambda kv: (-kv[1], kv[0]))[:top]
    by: dict[str, float] = defaultdict(float)
    for a, d in diff.items():
        by[_template(a)] += abs(d)
    total = sum(by.values()) or 1.0
    return {"attributes": [{"attribute": a, "weight": round(d, 3)} for a, d in shown],
            "templates": {k: round(v / total, 3) for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:12]}}


def digest(docs: list[Document]) -> str:
    """SHA-256 over every note's id, text and spans (what the measurement read)."""
    h = hashlib.sha256()
    for doc in docs:
        h.update(doc.doc_id.encode("utf-8") + b"\0" + hashlib.sha256(doc.text.encode("utf-8")).digest())
        h.update(repr([(s.start, s.end, s.category, s.subtype) for s in doc.spans]).encode("ascii"))
    return h.hexdigest()


def _attack(notes: list[Released], train: list[int], test: list[int], generated_label: str, settings: Settings,
            progress: bool) -> dict:
    attack = Attack(notes, generated_label)
    tagger, weights = attack.train([notes[i] for i in train], settings.crf, progress)
    tested = [notes[i] for i in test]
    out = score(tested, [attack.predict(tagger, n) for n in tested])
    out["tells"] = tells(weights, SURROGATE if generated_label == SURROGATE else OUTSIDE)
    return out


def run(docs: list[Document], settings: Settings, inputs: list[dict] | None = None,
        progress: bool = False) -> dict:
    """The measurement (module docstring) on annotated ``docs``, as a JSON-ready dict."""
    settings.check()
    docs = sorted(docs, key=lambda d: (d.group, d.doc_id))
    residual = choose_residual(docs, settings.residual, settings.seed)
    sur, red, counts = release(docs, residual, settings)
    if not sur:
        raise ConfigError("no note could be released (no note, or every note's surrogates failed)")
    train, test = train_test_split(sur, 1 - settings.train_share, seed=settings.seed)
    surrogate = _attack(sur, train, test, SURROGATE, settings, progress)
    redacted = _attack(red, train, test, OUTSIDE, settings, progress)
    identifiers = Counter(sp.category for doc in docs for sp in deid_spans(doc))
    left = Counter(sp.category for spans in residual.values() for sp in spans)
    return {
        "title": "crfdeid hiding in plain sight (HIPS)",
        "version": __version__,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "attacker_recall": surrogate["attacker_recall"],
        "attacker_precision": surrogate["attacker_precision"],
        "redacted": {"attacker_recall": redacted["attacker_recall"],
                     "attacker_precision": redacted["attacker_precision"]},
        "inputs": inputs or [],
        "gold_digest": digest(docs),
        "settings": {"residual": settings.residual, "seed": settings.seed, "train_share": settings.train_share,
                     "surrogates": "secret key (not recorded)" if settings.key is not None
                     else f"seed hips:{settings.seed}", "crf": settings.crf},
        "counts": {"notes": len(docs), "patients": len({d.group for d in docs}),
                   "notes_released": len(sur), "notes_failed": counts["notes_failed"],
                   "placeholders_in_surrogate_output": counts["placeholders_in_surrogate_output"],
                   "identifiers": sum(identifiers.values()), "residual": sum(left.values()),
                   "by_category": {c: {"identifiers": n, "residual": left[c]} for c, n in sorted(identifiers.items())},
                   "train_notes": len(train), "test_notes": len(test),
                   "train_patients": len({sur[i].group for i in train}),
                   "test_patients": len({sur[i].group for i in test})},
        "surrogate": surrogate,
        "redacted_attack": redacted,
        "carrell_2013": CARRELL,
    }


def summary(result: dict) -> dict:
    """What the audit report shows of a measurement (:func:`run`'s result)."""
    s, r = result["surrogate"], result["redacted_attack"]
    return {"attacker_recall": s["attacker_recall"], "attacker_precision": s["attacker_precision"],
            "residual": s["residual"], "found": s["found"], "base_rate": s["base_rate"],
            "redacted_attacker_recall": r["attacker_recall"], "redacted_attacker_precision": r["attacker_precision"],
            "redacted_found": r["found"], "by_category": s["by_category"],
            "residual_share": result["settings"]["residual"], "gold_digest": result["gold_digest"],
            "inputs": result["inputs"], "date": result["date"],
            "max_iterations": result["settings"]["crf"]["max_iterations"],
            "train_share": result["settings"]["train_share"], "seed": result["settings"]["seed"]}


def _disagreements(result: dict) -> list[str]:
    """Where a result's headline disagrees with its categories or its settings break the rules
    (a file edited by hand)."""
    s = result["surrogate"]
    cats = s["by_category"].values()
    residual, found = sum(c["residual"] for c in cats), sum(c["found"] for c in cats)
    out = []
    if (s["residual"], s["found"]) != (residual, found):
        out.append(f"its totals ({s['found']} of {s['residual']}) are not its categories' ({found} of {residual})")
    recall = found / residual if residual else None
    for name, value in (("attacker_recall", result["attacker_recall"]), ("surrogate attacker_recall",
                                                                         s["attacker_recall"])):
        if (value is None) != (recall is None) or (recall is not None and abs(value - recall) > 1e-9):
            out.append(f"its {name} ({value}) is not its categories' ({recall})")
    try:
        Settings(result["settings"]["residual"], result["settings"]["seed"], None, result["settings"]["train_share"],
                 result["settings"]["crf"]).check()
    except ConfigError as exc:
        out.append(f"its settings are refused ({exc})")
    return out


def load_summary(path) -> dict:
    """The summary (:func:`summary`) of a result file ``audit hips`` wrote, its headline
    recomputed from its categories; ValueError otherwise (naming each disagreement)."""
    try:
        result = json.loads(Path(path).read_text(encoding="utf-8"))
        wrong = _disagreements(result)
        out = summary(result)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a result of `audit hips` ({type(exc).__name__})") from None
    if wrong:
        raise ValueError(f"{path}: the result of `audit hips` was edited: " + "; ".join(wrong))
    return out


def pct(x) -> str:
    """A share as a percentage with one decimal (``-`` for None), as the report and ``audit hips`` print it."""
    return "-" if x is None else f"{100 * x:.1f} %"


def section(s: dict) -> str:
    """The audit report's HTML section on a measurement (a :func:`summary`)."""
    rows = "".join(f"<tr><td>{html.escape(c)}</td><td>{v['residual']}</td><td>{v['found']}</td>"
                   f"<td>{pct(v['attacker_recall'])}</td></tr>" for c, v in s["by_category"].items())
    inputs = ", ".join(html.escape(i["input"]) for i in s["inputs"]) or "-"
    return ("<h2>Hiding in plain sight, measured</h2><p class='note'>What surrogates add to the bound above "
            "(it counts every residual identifier; this does not lower it). On annotated notes "
            f"({inputs}; digest {html.escape(s['gold_digest'][:16])}..., {html.escape(s['date'])}) with "
            f"{pct(s['residual_share'])} of the identifiers left in, an attacker's CRF trained ("
            f"{s.get('max_iterations', '?')} iterations, {pct(s.get('train_share'))} of the notes) to tell them "
            f"from crfdeid's surrogates found {s['found']} of {s['residual']} ({pct(s['attacker_recall'])}, "
            f"precision {pct(s['attacker_precision'])}; {pct(s['base_rate'])} of the identifiers it saw were "
            f"residual); in redacted output the same attack found {s['redacted_found']} "
            f"({pct(s['redacted_attacker_recall'])}, precision {pct(s['redacted_attacker_precision'])}). "
            "Carrell et al. 2013: 68 % of 310 (docs/hips.md).</p><table><tr><th>category</th>"
            f"<th>residual</th><th>found</th><th>attacker recall</th></tr>{rows}</table>")

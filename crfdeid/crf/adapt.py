"""Self-training on a site's unlabeled notes: a model adapted to them without a person.

A site has its notes and no annotations. :func:`adapt` tags a sample of them with the
model, keeps what the model is sure of as pseudo-labels and retrains the model's config
on its source documents plus those pseudo-labelled pieces (docs/adapt.md):

1. every token of an unlabeled note gets the model's Viterbi label and marginal P(O);
2. a token is *confident* when its label is ``O`` with P(O) >= ``o_min`` (the notes'
   ordinary words in the notes' own contexts), or PHI with P(O) <= ``1 - phi_min``;
3. consistency within a patient (``doc.group``): an uncertain letter word that is
   confidently a name or place elsewhere in the same patient's notes, and never
   confidently ``O`` there, takes that label (``B-``/``I-`` by its neighbour);
4. a segment (one CRF sequence, :func:`crfdeid.text.tokenize.segments`) is kept only
   when every token is confident: CRFsuite learns from whole sequences, and a guess
   at an uncertain token would teach the model its own mistakes;
5. the config is trained again on the source documents plus the kept segments.

What the CRF gains is the site's vocabulary: word and neighbour features that never
occurred in the source notes get weights from the sure contexts they occur in (a
local drug name in ``O`` text, a staff name after ``RN``), which then count where the
context is weak. The adapted model's manifest records what it was adapted on
(``manifest["adapted"]``: counts and settings, never text).

Example (the command: ``python -m crfdeid adapt``)::

    base = Model.load("default")
    adapted = adapt(base, read_all(["text:/site/notes"]), source=None)
    adapted.save("site.model")
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace

from ..document import Document
from ..errors import ConfigError, ModelError
from ..labels import BIO, OUTSIDE, join_label, split_label
from ..progress import step, track
from ..tagging.model import BATCH_CHARS, TaggingModel, batches
from .model import Model
from .train import train_model

#: Parent categories whose confident words label the same patient's uncertain ones.
CONSISTENT = frozenset({"NAME", "LOCATION"})


@dataclass(frozen=True)
class AdaptSettings:
    """How pseudo-labels are chosen (see the module docstring).

    Parameters
    ----------
    o_min : float
        An ``O`` token is confident when its P(O) is at least this.
    phi_min : float
        A PHI token is confident when its P(PHI) = 1 - P(O) is at least this.
    consistency : bool
        Label a patient's uncertain words that are confident names or places in the
        patient's other notes (step 3).
    max_notes : int
        At most this many unlabeled notes (a seeded uniform sample of the input).
    seed : int or None
        Seed of that sample; None (the default): the model config's ``seed``, the seed of
        every other random choice of the training (the companion's augmentation).
    """

    o_min: float = 0.995
    phi_min: float = 0.9
    consistency: bool = True
    max_notes: int = 5000
    seed: int | None = None

    def __post_init__(self):
        for name in ("o_min", "phi_min"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or not 0.5 <= v <= 1.0:
                raise ConfigError(f"adapt: {name} must be a number in [0.5, 1], not {v!r}")
        if not isinstance(self.max_notes, int) or self.max_notes < 1:
            raise ConfigError(f"adapt: max_notes must be a positive integer, not {self.max_notes!r}")


@dataclass
class _Tagged:
    """One unlabeled note as the model read it: tokens, segments, Viterbi labels, P(O)."""

    doc: Document
    text: str
    tokens: list
    segments: list
    labels: list
    p_out: list


def sample(docs: Iterable[Document], n: int, seed: int) -> list[Document]:
    """A uniform sample of at most ``n`` documents of a stream, in input order (reservoir).

    >>> [d.doc_id for d in sample((Document(str(i), "x") for i in range(5)), 10, 1)]
    ['0', '1', '2', '3', '4']
    >>> len(sample((Document(str(i), "x") for i in range(100)), 7, 1))
    7
    """
    rng = random.Random(seed)
    keep: list[tuple[int, Document]] = []
    for i, doc in enumerate(docs):
        if i < n:
            keep.append((i, doc))
        else:
            j = rng.randrange(i + 1)
            if j < n:
                keep[j] = (i, doc)
    return [d for _, d in sorted(keep, key=lambda x: x[0])]


def _read(model: Model, docs: list[Document]) -> Iterator[_Tagged]:
    """Viterbi labels and P(O) of every token of ``docs`` (text only: gold spans are never read)."""
    for batch in batches(docs, BATCH_CHARS):
        items = [model._item(d.text) for d in batch]
        for doc, (text, toks, segs), (labels, _, margs) in zip(
                batch, items, model._label(items, None, want_marginals=True)):
            yield _Tagged(doc, text, toks, segs, labels, [m.get(OUTSIDE, 0.0) for m in margs])


def _word(tok) -> str | None:
    """The lower-cased letter word a token is, if any (two letters or more)."""
    return tok.text.lower() if len(tok.text) > 1 and tok.text.isalpha() else None


class PseudoLabeller:
    """Pseudo-labels of unlabeled notes: confident segments as ``(attributes, labels)`` sequences.

    Parameters
    ----------
    model : Model
        The model to adapt (it labels the notes and featurizes the kept segments).
    settings : AdaptSettings
    """

    def __init__(self, model: Model, settings: AdaptSettings, progress: bool = False):
        self.model = model
        self.progress = progress
        self.settings = settings
        self.counts: Counter[str] = Counter()
        self.spans: Counter[str] = Counter()

    def _confident(self, label: str, p_out: float) -> bool:
        if label == OUTSIDE:
            return p_out >= self.settings.o_min
        return 1.0 - p_out >= self.settings.phi_min

    def _category(self, label: str) -> str | None:
        sub = split_label(label)[1]
        return self.model.scheme.parent_of(sub) if sub else None

    def _patient_words(self, notes: list[_Tagged]) -> tuple[dict, dict]:
        """Per patient: confident name/place words (-> subtype counts) and confident ``O`` words."""
        phi: dict = defaultdict(lambda: defaultdict(Counter))
        outside: dict = defaultdict(set)
        for n in notes:
            group = n.doc.group
            for tok, lab, p in zip(n.tokens, n.labels, n.p_out):
                w = _word(tok)
                if w is None or not self._confident(lab, p):
                    continue
                if lab == OUTSIDE:
                    outside[group].add(w)
                elif self._category(lab) in CONSISTENT:
                    phi[group][w][split_label(lab)[1]] += 1
        return phi, outside

    def _repair(self, n: _Tagged, labels: list, sure: list, phi: dict, outside: set) -> None:
        """Step 3, in place: uncertain words confident as names/places elsewhere for the patient."""
        for t, tok in enumerate(n.tokens):
            if sure[t]:
                continue
            w = _word(tok)
            if w is None or w not in phi or w in outside:
                continue
            sub = max(sorted(phi[w]), key=phi[w].__getitem__)
            prev = labels[t - 1] if t else OUTSIDE
            inside = prev != OUTSIDE and split_label(prev)[1] == sub
            labels[t] = join_label(BIO.inside if inside else BIO.begin, sub)
            sure[t] = True
            self.counts["consistency_tokens"] += 1

    def sequences(self, docs: list[Document]) -> Iterator[tuple[list, list]]:
        """``(attributes, labels)`` of every kept segment of ``docs``; counts in ``counts``/``spans``."""
        notes = list(track(_read(self.model, docs), "adapt: tag the unlabeled notes", len(docs), "note",
                           self.progress))
        phi, outside = self._patient_words(notes) if self.settings.consistency else ({}, {})
        for n in notes:
            self.counts["notes"] += 1
            self.counts["tokens"] += len(n.tokens)
            labels = list(n.labels)
            sure = [self._confident(lab, p) for lab, p in zip(labels, n.p_out)]
            if self.settings.consistency and n.doc.group in phi:
                self._repair(n, labels, sure, phi[n.doc.group], outside.get(n.doc.group, set()))
            kept = [(a, b) for a, b in n.segments if all(sure[a:b])]
            self.counts["segments"] += len(n.segments)
            if not kept:
                continue
            self.counts["notes_used"] += 1
            feats = self.model.features(n.text, n.tokens)
            for a, b in kept:
                self.counts["segments_kept"] += 1
                self.counts["tokens_kept"] += b - a
                for lab in labels[a:b]:
                    prefix, sub = split_label(lab)
                    if sub is not None and prefix == BIO.begin:
                        self.spans[sub] += 1
                yield feats[a:b], labels[a:b]


def adapt(model: TaggingModel, unlabeled: Iterable[Document], source: Iterable[Document] | None = None,
          settings: AdaptSettings | None = None, progress: bool = False) -> Model:
    """The model's config trained again on its source documents plus confident pseudo-labels.

    Parameters
    ----------
    model : Model
        A CRF model (not a network's, not one with a ``multi.v1`` committee).
    unlabeled : iterable of Document
        The site's notes; only their text (and patient, ``doc.group``) is read.
    source : iterable of Document, optional
        The annotated training documents; ``None``: the model config's ``train`` inputs.
    settings : AdaptSettings, optional
    progress : bool
        Progress bars while training.

    Returns
    -------
    Model
        With ``manifest["adapted"]``: the base model's checksum, the settings, and counts
        (notes, tokens, segments kept, pseudo-labelled spans per subtype).

    Raises
    ------
    ModelError
        A model that cannot be adapted, or no unlabeled note.
    """
    settings = settings or AdaptSettings()
    if model.config.get("model") == "routed":  # one config retrained: a routed model has a member's each
        raise ModelError("adapt: a routed model is not adapted (its members are trained by their own configs); "
                         "adapt a CRF model file", path=model.path)
    if not isinstance(model, Model) or model.committee is not None and model.committee.combine == "multi.v1":
        raise ModelError("adapt: only a CRF model without a multi.v1 committee can be adapted", path=model.path)
    seed = int(model.config.get("seed") or 0) if settings.seed is None else settings.seed
    settings = replace(settings, seed=seed)
    pool = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in sample(unlabeled, settings.max_notes, seed)]
    if not pool:
        raise ModelError("adapt: no unlabeled notes", path=model.path)
    step("adapt: a sample of %d unlabeled notes", len(pool))
    labeller = PseudoLabeller(model, settings, progress)
    extra = list(labeller.sequences(pool))
    config = dict(model.config)
    step("adapt: %d pseudo-labelled segments; training again on the %s", len(extra),
         "given training notes" if source is not None else "model config's training inputs")
    adapted = train_model(source, config, progress=progress, extra=extra)
    base = model.to_bytes()
    adapted.manifest["adapted"] = {
        "base_model_sha256": hashlib.sha256(base).hexdigest(),
        "base_crfdeid_version": model.manifest.get("crfdeid_version"),
        "settings": asdict(settings),
        "unlabeled": dict(sorted(labeller.counts.items())),
        "pseudo_spans": dict(sorted(labeller.spans.items())),
        "source_documents": adapted.stats.get("documents"),
    }
    return adapted

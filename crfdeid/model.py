"""Training, the model artifact, and tagging with recall-oriented decoding.

A model is one file::

    b"CRFDEID-MODEL\\n" | 8-byte big-endian manifest length | manifest (JSON) | CRFsuite model

followed, for a second-pass model (:mod:`crfdeid.second_pass`), by its first-pass
model file, whose size and SHA-256 the manifest also holds.

The manifest holds the fully resolved config, the feature-set definition,
gazetteer checksums, the crfdeid version, the labels, training statistics and
the size and SHA-256 of the CRFsuite part. :meth:`Model.load` checks all of it
before the C library sees a byte, and refuses a corrupt or incompatible file
with :class:`~crfdeid.errors.ModelError` naming the file.

Training streams one CRFsuite sequence per segment (:func:`crfdeid.segment.segments`)
into ``pycrfsuite.Trainer``; tagging labels each segment, then decodes the
labels of the whole document at once (:func:`crfdeid.bio.decode`).

Tagging has two backends giving the same labels: ``"numpy"`` (default) reads
the CRFsuite weights once (:mod:`crfdeid.crfweights`), scores tokens from
cached per-word-type score vectors (:mod:`crfdeid.emission`) and runs Viterbi
and forward-backward over all segments of a batch of documents at once
(:mod:`crfdeid.inference`, :mod:`crfdeid.numpy_tagger`); ``"crfsuite"`` hands
attribute strings to ``pycrfsuite.Tagger``. Training always uses CRFsuite.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import tempfile
import time
import warnings
from collections import Counter
from operator import attrgetter
from pathlib import Path
from typing import Iterable, Iterator

import pycrfsuite

from . import __version__
from .bio import OUTSIDE, decode, encode
from .config import load_config
from .document import Document, Span
from .crfweights import read_weights
from .errors import CrfdeidError, ModelError
from .features import Featurizer
from .numpy_tagger import BATCH_CHARS, NumpyTagger, best_phi, gc_paused
from .second_pass import cross_fitted_p_phi, first_pass_config, pass_attributes, with_attributes
from .segment import segments
from .tokenize import Token, tokenize

_START = attrgetter("start")
#: Notes longer than this (characters) are tagged a piece at a time by ``tag_each``.
LONG_NOTE_CHARS = 250_000


def _piece_end(text: str, start: int, size: int) -> int:
    """Where the piece of ``text`` from ``start`` ends: after a line break in the second half
    of ``size`` characters, else at white space, else at ``size`` characters."""
    end = start + size
    if end >= len(text):
        return len(text)
    cut = text.rfind("\n", start + size // 2, end)
    if cut < 0:
        cut = max(text.rfind(" ", start + 1, end), text.rfind("\t", start + 1, end))
    return cut + 1 if cut > start else end

MAGIC = b"CRFDEID-MODEL\n"
FORMAT_VERSION = 1
_CRF_MAGIC = b"lCRF"
_MAX_MANIFEST = 64 * 1024 * 1024
#: Tagging backends (same labels; see the module docstring).
BACKENDS = ("numpy", "crfsuite")
#: The model shipped inside the package (trained by ``make train``).
DEFAULT_MODEL = Path(__file__).parent / "data" / "default-model"


class ModelWarning(UserWarning):
    """The model was built with other gazetteers than the ones installed."""


def tokens_for(text: str, split_glued: bool = True) -> list[Token]:
    """Tokens of ``text``; ``split_glued=False`` keeps letter/digit runs glued together.

    >>> [t.text for t in tokens_for("PEND01/26", split_glued=False)]
    ['PEND01', '/', '26']
    """
    return tokenize(text, split_glued=split_glued)


def _gazetteer_checksums(cfg) -> dict:
    if not cfg["features"]["groups"].get("dictionary"):
        return {}
    try:
        from . import gazetteers
        return dict(gazetteers.checksums())
    except Exception:  # pragma: no cover - gazetteers absent
        return {}


class _Trainer(pycrfsuite.Trainer):
    """A trainer that reports iterations to a callback instead of printing."""

    def __init__(self, *args, on_iter=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._on_iter = on_iter

    def on_iteration(self, log, info):
        if self._on_iter:
            self._on_iter(info)


def train_model(docs: Iterable[Document] | None, config, progress: bool = False) -> "Model":
    """Train a CRF de-identifier.

    Parameters
    ----------
    docs : iterable of Document, or None
        Training documents (streamed once); ``None`` reads the config's ``train`` inputs.
        A config with ``second_pass.enabled`` keeps them in memory: it trains the first
        pass ``folds + 1`` times, then the second CRF (:mod:`crfdeid.second_pass`).
    config : dict, str or Path
        A config (resolved with :func:`crfdeid.config.load_config`).
    progress : bool
        Show progress bars (documents, then iterations) on standard error.

    Returns
    -------
    Model
        With ``model.stats`` (documents, tokens, segments, features, iterations,
        seconds, encoding problems by kind; ``first_pass_seconds`` for a second pass).
    """
    cfg = load_config(config)
    if docs is None:
        from .io import read_all
        docs = read_all(cfg["train"])
    if not cfg["second_pass"]["enabled"]:
        return _train(docs, cfg, progress)
    docs = list(docs)
    t0 = time.perf_counter()
    p_phi = cross_fitted_p_phi(docs, cfg, train_model)
    first = train_model(docs, first_pass_config(cfg), progress)
    split = cfg["tokenizer"]["split_glued"]
    extra = [pass_attributes(tokens_for(d.text, split), p) for d, p in zip(docs, p_phi)]
    model = _train(docs, cfg, progress, extra, first)
    model.stats["first_pass_seconds"] = round(time.perf_counter() - t0 - model.stats["featurize_seconds"]
                                              - model.stats["train_seconds"], 2)
    return model


def _train(docs, cfg: dict, progress: bool, extra=None, first=None) -> "Model":
    """One CRF trained on ``docs``; ``extra``: more attributes per token of each document."""
    featurizer = Featurizer(cfg["features"])
    split, max_len = cfg["tokenizer"]["split_glued"], cfg["segment"]["max_len"]
    params = {k: v for k, v in cfg["crf"].items() if k != "algorithm" and v is not None}
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(desc="featurize", unit="doc", disable=None)
    t0 = time.perf_counter()
    stats = Counter()
    problems = Counter()
    trainer = _Trainer(algorithm=cfg["crf"]["algorithm"], params=params, verbose=False)
    o_words = _OWords() if cfg["decoding"]["o_words_min_count"] else None
    for k, doc in enumerate(docs):
        toks = tokens_for(doc.text, split)
        feats = featurizer.featurize(doc.text, toks)
        if extra is not None:
            feats = with_attributes(feats, extra[k])
        enc = encode(toks, doc.spans)
        problems.update(p.reason for p in enc.problems)
        if o_words is not None:
            o_words.add(toks, enc.labels)
        for a, b in segments(doc.text, toks, max_len):
            trainer.append(feats[a:b], enc.labels[a:b])
            stats["segments"] += 1
        stats["documents"] += 1
        stats["tokens"] += len(toks)
        stats["spans"] += len(doc.spans)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    if not stats["segments"]:
        raise ModelError("no training documents (or only empty ones)")
    featurizer.clear_cache()
    t1 = time.perf_counter()
    ibar = None
    if progress:
        from tqdm import tqdm
        ibar = tqdm(desc="train", unit="it", total=cfg["crf"].get("max_iterations"), disable=None)
        trainer._on_iter = lambda info: ibar.update(1)
    fd, tmp = tempfile.mkstemp(prefix="crfdeid-", suffix=".crfsuite")
    os.close(fd)
    try:
        trainer.train(tmp)
        crf_bytes = Path(tmp).read_bytes()
    finally:
        Path(tmp).unlink(missing_ok=True)
        if ibar is not None:
            ibar.close()
    lp = trainer.logparser
    stats.update(features=lp.featgen_num_features or 0, iterations=len(lp.iterations))
    info = dict(stats)
    info.update(problems=dict(problems),
                active_features=(lp.last_iteration or {}).get("active_features"))
    # Timings stay out of the manifest so that a retrained model is bit-for-bit identical.
    manifest = {"training": info, "gazetteers": _gazetteer_checksums(cfg)}
    if o_words is not None:
        manifest["o_words"] = o_words.kept(cfg["decoding"]["o_words_min_count"])
    model = Model(crf_bytes, cfg, manifest, first=first)
    model.stats = dict(info, featurize_seconds=round(t1 - t0, 2),
                       train_seconds=round(time.perf_counter() - t1, 2))
    return model


def batches(docs: Iterable[Document], chars: int) -> Iterator[list[Document]]:
    """Lists of consecutive documents of about ``chars`` characters each (streamed).

    >>> [[d.doc_id for d in b] for b in batches([Document(str(n), "x" * n) for n in (5, 5, 20, 1)], 10)]
    [['5', '5'], ['20'], ['1']]
    """
    batch, size = [], 0
    for doc in docs:
        batch.append(doc)
        size += len(doc.text)
        if size >= chars:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


class _OWords:
    """Counts of the training notes' words (alphabetic, lower-cased), and those seen inside PHI."""

    def __init__(self):
        self.seen = Counter()
        self.in_phi = set()

    def add(self, toks, labels) -> None:
        for tok, lab in zip(toks, labels):
            if tok.text.isalpha():
                w = tok.text.lower()
                self.seen[w] += 1
                if lab != OUTSIDE:
                    self.in_phi.add(w)

    def kept(self, min_count: int) -> list[str]:
        """Words seen at least ``min_count`` times and never inside PHI, sorted."""
        return sorted(w for w, c in self.seen.items() if c >= min_count and w not in self.in_phi)


class Model:
    """A trained de-identifier: CRFsuite weights, resolved config and featurizer.

    Use :func:`train_model` or :meth:`Model.load` to get one. ``backend`` is
    ``"numpy"`` (default) or ``"crfsuite"``; both give the same labels.
    """

    def __init__(self, crf_bytes: bytes, config: dict, manifest: dict | None = None, path=None,
                 backend: str = "numpy", first: "Model | None" = None):
        if backend not in BACKENDS:
            raise ValueError(f"unknown tagging backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.config = config
        self.path = path
        self.backend = backend
        #: The first-pass model of a second-pass (stacked) model, else None.
        self.first = first
        self._crf = crf_bytes
        self.manifest = {"format": FORMAT_VERSION, "crfdeid_version": __version__,
                         **(manifest or {}), "config": config, "feature_set": config["features"]}
        self.stats = dict(self.manifest.get("training", {}))
        #: Words (lower-cased) that the O threshold does not make PHI: seen at least
        #: ``decoding.o_words_min_count`` times in the training notes and never inside PHI.
        #: Viterbi and the rules still may. Empty: off (assign ``frozenset()`` to turn it off).
        self.o_words = frozenset(self.manifest.get("o_words") or ())
        self.featurizer = Featurizer(config["features"])
        self._tagger = pycrfsuite.Tagger()
        try:
            self._tagger.open_inmemory(crf_bytes)
        except Exception as exc:
            raise ModelError(f"CRFsuite refused the model ({exc})", path=path) from None
        self.labels = list(self._tagger.labels())
        self._split = config["tokenizer"]["split_glued"]
        self._max_len = config["segment"]["max_len"]
        self._numpy_tagger = None

    @property
    def _numpy(self) -> NumpyTagger | None:
        """The numpy tagger, built on first use (a model just trained may never tag)."""
        if self.backend != "numpy":
            return None
        if self._numpy_tagger is None:
            weights = read_weights(self._crf, self.path)
            if weights.labels != self.labels:
                raise ModelError("CRFsuite model labels differ from the weights read", path=self.path)
            self._numpy_tagger = NumpyTagger(self.featurizer, weights)
        return self._numpy_tagger

    # -- persistence ------------------------------------------------------------
    def __getstate__(self):
        return {"crf": self._crf, "config": self.config, "manifest": self.manifest, "path": self.path,
                "backend": self.backend, "first": self.first, "o_words": self.o_words}

    def __setstate__(self, state):
        self.__init__(state["crf"], state["config"], state["manifest"], state["path"],
                      state.get("backend", "numpy"), state.get("first"))
        self.o_words = state.get("o_words", self.o_words)  # as set on the pickled model

    def to_bytes(self) -> bytes:
        """The model file's content (a second-pass model's first pass follows its CRF)."""
        manifest = {k: v for k, v in self.manifest.items() if not k.startswith("first_pass_")}
        manifest.update(labels=self.labels, crf_size=len(self._crf),
                        crf_sha256=hashlib.sha256(self._crf).hexdigest())
        tail = b""
        if self.first is not None:
            tail = self.first.to_bytes()
            manifest.update(first_pass_size=len(tail), first_pass_sha256=hashlib.sha256(tail).hexdigest())
        head = json.dumps(manifest, sort_keys=True).encode("utf-8")
        return MAGIC + len(head).to_bytes(8, "big") + head + self._crf + tail

    def save(self, path) -> Path:
        """Write the model atomically to ``path`` (one file) and return the path."""
        from .io import atomic_write
        atomic_write(Path(path), self.to_bytes())
        return Path(path)

    @classmethod
    def load(cls, path=None, backend: str = "numpy") -> "Model":
        """Load a model file (default: the model shipped in the package), checking it first.

        ``backend`` selects the tagging backend (``"numpy"`` or ``"crfsuite"``).

        Raises
        ------
        ModelError
            Missing file, wrong magic bytes, truncated or altered content, or a
            model written by an incompatible crfdeid.
        """
        path = Path(path) if path is not None else DEFAULT_MODEL
        try:
            data = path.read_bytes()
        except IsADirectoryError:
            raise ModelError("is a folder, not a crfdeid model file", path=path) from None
        except OSError as exc:
            hint = " (train it with `make train`)" if path == DEFAULT_MODEL else ""
            raise ModelError(f"cannot read model: {exc.strerror}{hint}", path=path) from None
        return cls.from_bytes(data, path, backend)

    @classmethod
    def from_bytes(cls, data: bytes, path=None, backend: str = "numpy", at: int = 0) -> "Model":
        """The model in ``data`` (a model file's content), checked as :meth:`load` does.

        ``path`` and ``at`` (where ``data`` starts in the file) only name the place of a problem.
        """
        n = len(MAGIC) + 8
        if len(data) < n or not data.startswith(MAGIC):
            raise ModelError("not a crfdeid model file (bad magic bytes)", path=path)
        size = int.from_bytes(data[len(MAGIC):n], "big")
        if size > min(_MAX_MANIFEST, len(data) - n):
            raise ModelError("truncated or corrupt model file (manifest size)", path=path, offset=at + len(MAGIC))
        try:
            manifest = json.loads(data[n:n + size].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ModelError("corrupt model manifest", path=path, offset=at + n) from None
        if not isinstance(manifest, dict):
            raise ModelError("corrupt model manifest", path=path, offset=at + n)
        if manifest.get("format") != FORMAT_VERSION:
            raise ModelError(f"model format {manifest.get('format')!r} is not supported by crfdeid "
                             f"{__version__} (format {FORMAT_VERSION}); retrain the model", path=path)
        rest = data[n + size:]
        first_size = manifest.get("first_pass_size") or 0
        crf_size = manifest.get("crf_size")
        if not isinstance(crf_size, int) or not isinstance(first_size, int) \
                or len(rest) != crf_size + first_size or not rest.startswith(_CRF_MAGIC):
            raise ModelError(f"truncated or corrupt model file (CRF part is {len(rest) - first_size} bytes, "
                             f"manifest says {crf_size})", path=path, offset=at + n + size)
        crf, tail = rest[:crf_size], rest[crf_size:]
        if hashlib.sha256(crf).hexdigest() != manifest.get("crf_sha256"):
            raise ModelError("corrupt model file (checksum mismatch)", path=path, offset=at + n + size)
        first = None
        if first_size:
            if hashlib.sha256(tail).hexdigest() != manifest.get("first_pass_sha256"):
                raise ModelError("corrupt model file (first-pass checksum mismatch)", path=path,
                                 offset=at + n + size + crf_size)
            first = cls.from_bytes(tail, path, backend, at + n + size + crf_size)
        try:
            config = load_config(manifest["config"])
        except (CrfdeidError, KeyError) as exc:
            raise ModelError(f"incompatible model configuration ({exc})", path=path) from None
        saved = manifest.get("gazetteers") or {}
        if saved and saved != _gazetteer_checksums(config):
            warnings.warn(f"model {path} was trained with other gazetteer lists than the installed "
                          "ones; dictionary features may differ", ModelWarning, stacklevel=2)
        model = cls(crf, config, manifest, path=path, backend=backend, first=first)
        model._numpy  # read the weights now: a bad model fails at load, not at the first note
        model.featurizer.prepare()  # and the gazetteers: loading them is not tagging the first note
        if config["rules"]["enabled"]:
            from .rules import prepare
            prepare()  # the rules' word lists, likewise
        return model

    # -- tagging ------------------------------------------------------------------
    def _item(self, text: str) -> tuple:
        """``(text, tokens, segments)``: what the numpy tagger labels."""
        toks = tokens_for(text, self._split)
        return text, toks, segments(text, toks, self._max_len)

    def _run(self, doc: Document, o_threshold, want_marginals=False):
        """Labels, tokens, per-token P(O) (None where not computed) and full marginals."""
        if self._numpy is not None:
            item = self._item(doc.text)
            return (item[1], *self._numpy_run([item], o_threshold, want_marginals)[0])
        text = doc.text
        toks = tokens_for(text, self._split)
        feats = self.features(text, toks)
        tagger = self._tagger
        labels: list = []
        p_out: list = []
        margs: list = []
        others = [lab for lab in self.labels if lab != OUTSIDE]
        for a, b in segments(text, toks, self._max_len):
            y = tagger.tag(feats[a:b])
            if want_marginals:
                for t in range(b - a):
                    margs.append({lab: tagger.marginal(lab, t) for lab in self.labels})
            if o_threshold is None:
                p_out.extend(tagger.marginal(OUTSIDE, t) if y[t] != OUTSIDE else None
                             for t in range(b - a))
                labels.extend(y)
                continue
            prev = labels[-1] if labels else OUTSIDE
            for t in range(b - a):
                po = tagger.marginal(OUTSIDE, t)
                lab = y[t]
                if lab == OUTSIDE and po < o_threshold and toks[a + t].text.lower() not in self.o_words:
                    lab = best_phi(tagger.marginal, t, others, prev)
                p_out.append(po)
                labels.append(lab)
                prev = lab
        return toks, labels, p_out, margs

    def features(self, text: str, toks) -> list[list[str]]:
        """The attribute lists CRFsuite tags ``toks`` with (a second pass: with the first's P(PHI))."""
        feats = self.featurizer.featurize(text, toks)
        if self.first is not None:
            feats = with_attributes(feats, pass_attributes(toks, self.first.p_phi([text])[0]))
        return feats

    def _numpy_run(self, items, o_threshold, want_marginals=False) -> list:
        """:meth:`NumpyTagger.run` on ``items``, after the first pass of a second-pass model."""
        extra = None
        if self.first is not None:
            extra = [pass_attributes(toks, p) for (_, toks, _), p in zip(items, self.first._p_phi_of(items))]
        return self._numpy.run(items, o_threshold, want_marginals, extra, self.o_words)

    def _p_phi_of(self, items) -> list[list[float]]:
        # A threshold of 0 changes no label but gives every token's P(O).
        return [[1.0 - p for p in p_out] for _, p_out, _ in self._numpy_run(items, 0.0)]

    def p_phi(self, texts) -> list[list[float]]:
        """P(PHI) = 1 - P(O) of every token (``tokens_for``) of each text."""
        if self._numpy is not None:
            return self._p_phi_of([self._item(t) for t in texts])
        return [[1.0 - p for p in self.token_p_outside(Document("", t))[1]] for t in texts]

    def tag(self, doc: Document, o_threshold: float | None = ...) -> Document:
        """A copy of ``doc`` (same id, text, meta) with predicted spans.

        Parameters
        ----------
        doc : Document
        o_threshold : float or None, optional
            Mark a token as PHI when its marginal P(O) is below this (recall-oriented
            decoding); ``None`` turns it off; omitted: the config's ``decoding.o_threshold``.

        ``meta['confidence']`` lists, for each predicted span in order, the lowest
        token probability of being PHI (1 - P(O)) inside it (1.0 for rule-only spans).
        """
        if o_threshold is ...:
            o_threshold = self.config["decoding"]["o_threshold"]
        toks, labels, p_out, _ = self._run(doc, o_threshold)
        return self._tagged(doc, toks, labels, p_out)

    def _tagged(self, doc, toks, labels, p_out) -> Document:
        """The tagged copy of ``doc``: decoded spans, confidences, rule overlay."""
        return self._with_rules(doc, self._crf_spans(toks, labels, p_out))

    @staticmethod
    def _crf_spans(toks, labels, p_out, offset: int = 0) -> dict:
        """``{span: confidence}`` of the decoded spans, shifted by ``offset`` characters."""
        conf = {}
        for sp in decode(labels, toks):
            i = bisect.bisect_left(toks, sp.start, key=_START)  # the span's first token
            c = 1.0
            while i < len(toks) and toks[i].start < sp.end:
                c = min(c, 1.0 - p_out[i]) if p_out[i] is not None else c
                i += 1
            if offset:
                sp = Span(sp.start + offset, sp.end + offset, sp.category, sp.subtype)
            conf[sp] = round(c, 4)
        return conf

    def _with_rules(self, doc, conf: dict) -> Document:
        """``doc`` with the CRF spans ``conf`` (span -> confidence) and the rule overlay."""
        spans = list(conf)
        if self.config["rules"]["enabled"]:
            from .rules import overlay
            spans = overlay(doc.text, spans, date_check=self.config["rules"]["date_check"])
        meta = dict(doc.meta)
        out = Document(doc.doc_id, doc.text, spans, meta)
        meta["confidence"] = [conf.get(sp, 1.0) for sp in out.spans]
        return out

    def tag_many(self, docs: Iterable[Document], o_threshold: float | None = ...) -> Iterator[Document]:
        """Tag documents (streaming, in order); the first failure raises."""
        for _, tagged in self.tag_each(docs, o_threshold):
            if isinstance(tagged, Exception):
                raise tagged
            yield tagged

    def tag_each(self, docs: Iterable[Document], o_threshold: float | None = ...,
                 batch_chars: int = BATCH_CHARS) -> Iterator[tuple[Document, object]]:
        """Tag documents, streaming; yield ``(doc, tagged)``, or ``(doc, exception)`` for a failure.

        The numpy backend labels documents of about ``batch_chars`` characters
        together (same results as one by one); a document that fails does not
        stop the others.
        """
        if o_threshold is ...:
            o_threshold = self.config["decoding"]["o_threshold"]
        if self._numpy is None:
            for doc in docs:
                try:
                    yield doc, self.tag(doc, o_threshold)
                except Exception as exc:  # noqa: BLE001 - handed to the caller, per document
                    yield doc, exc
            return
        for batch in batches(docs, batch_chars):
            yield from self._tag_batch(batch, o_threshold)

    def _tag_long(self, doc, o_threshold) -> Document:
        """A note longer than :data:`LONG_NOTE_CHARS` tagged a piece at a time (memory stays
        bounded: tokens, features and scores of one piece), then the rules on the whole text.

        Pieces end at a line break when there is one in the second half of the piece, else
        at white space; tokens never cross either, so they are the whole note's tokens.
        Features change only near a cut (the word window and the section heading stop at
        the piece; a cut inside a line shortens the line the line features see).
        """
        text, conf, a = doc.text, {}, 0
        while a < len(text):
            b = _piece_end(text, a, LONG_NOTE_CHARS)
            item = self._item(text[a:b])
            labels, p_out, _ = self._numpy_run([item], o_threshold)[0]
            conf.update(self._crf_spans(item[1], labels, p_out, offset=a))
            a = b
        return self._with_rules(doc, conf)

    def _tag_batch(self, docs, o_threshold):
        # The whole batch is tagged before the first result is handed out, so that the
        # collector stays paused while the tokens live and no caller code runs meanwhile.
        with gc_paused():
            results = []
            items = []
            for doc in docs:
                try:
                    if len(doc.text) > LONG_NOTE_CHARS:
                        results.append(self._tag_long(doc, o_threshold))
                        continue
                    items.append((doc, self._item(doc.text)))
                    results.append(None)
                except Exception as exc:  # noqa: BLE001 - handed to the caller, per document
                    results.append(exc)
            tagged = iter(self._tag_items(items, o_threshold))
            results = [(doc, next(tagged) if got is None else got) for doc, got in zip(docs, results)]
            del items, tagged
        yield from results

    def _tag_items(self, items, o_threshold) -> list:
        """Tagged document (or the exception) for each ``(doc, (text, tokens, segments))``."""
        if not items:
            return []
        try:
            results = self._numpy_run([item for _, item in items], o_threshold)
        except Exception as exc:  # noqa: BLE001 - find the failing document(s) one by one
            if len(items) == 1:
                return [exc]
            return [got for one in items for got in self._tag_items([one], o_threshold)]
        out = []
        for (doc, (_, toks, _)), (labels, p_out, _) in zip(items, results):
            try:
                out.append(self._tagged(doc, toks, labels, p_out))
            except Exception as exc:  # noqa: BLE001
                out.append(exc)
        return out

    def marginals(self, doc: Document) -> list[dict]:
        """Per-token marginal probability of every label, ``[{label: p}, ...]`` in token order."""
        return self._run(doc, None, want_marginals=True)[3]

    def token_p_outside(self, doc: Document) -> tuple[list[Token], list[float]]:
        """Tokens and their marginal P(O), for threshold sweeps without re-running per threshold."""
        toks, _, _, margs = self._run(doc, None, want_marginals=True)
        return toks, [m.get(OUTSIDE, 0.0) for m in margs]

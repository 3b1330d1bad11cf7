"""The trained de-identifier: :class:`Model` tags documents and saves or loads one file.

Tagging labels each segment with one of two backends giving the same labels:
``"numpy"`` (default; :mod:`crfdeid.crf.numpy`: CRFsuite's weights read once,
per-word-type emission scores, Viterbi and forward-backward over a batch of
documents at once) or ``"crfsuite"`` (:mod:`crfdeid.crf.crfsuite`: attribute
strings handed to ``pycrfsuite.Tagger``). Both end in the one decoding function
(:func:`crfdeid.tagging.decoding.threshold_labels`); the labels of a whole document are
then decoded into spans (:func:`crfdeid.labels.decode`) and handed to the model's
post-CRF chain (:mod:`crfdeid.recognizers.chain`, named in the config's ``postprocess``:
the clinical-term filter, the rule overlay when enabled, and the Safe Harbor layer,
always last). The tagger reads the note with its control characters as spaces
(:func:`crfdeid.text.tokenize.for_tagging`), once per note.
The file format is in :mod:`crfdeid.tagging.modelfile`; training in :mod:`crfdeid.crf.train`.

That path (text -> tokens -> segments -> backend -> labels -> spans -> rules) is
:class:`TaggingModel`, which the networks of :mod:`crfdeid.neural` share:
:meth:`Model.load` returns their model when the file holds one.
"""

from __future__ import annotations

import bisect
import functools
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from importlib import resources
from operator import attrgetter
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Protocol

from .. import schema
from ..document import Document
from ..errors import ModelError
from ..features import Featurizer
from ..io import atomic_write
from ..labels import OUTSIDE, decode
from ..recognizers.chain import Chain, Note, build_chain, chain_of
from ..recognizers.committee import from_config
from ..recognizers.stacking import Stacker
from ..resources import Resources
from ..tagging import kinds, modelfile
from ..tagging.decoding import AveragedBackend
from ..text.tokenize import Token, for_tagging, segments, tokenize
from ..version import __version__
from .crfsuite import CrfsuiteBackend, open_tagger
from .numpy.tagger import BATCH_CHARS, NumpyTagger, gc_paused
from .numpy.weights import read_weights
from .settings import companion_config

_START = attrgetter("start")
#: Notes longer than this (characters) are tagged a piece at a time by ``tag_each``.
LONG_NOTE_CHARS = 250_000
#: Tagging backends (same labels; see the module docstring).
BACKENDS = ("numpy", "crfsuite")


def default_model_path() -> Path:
    """The model shipped inside the package (``crfdeid/data/default-model``)."""
    return Path(str(resources.files("crfdeid") / "data" / "default-model"))


#: The model shipped in the package (trained by ``make train``).
DEFAULT_MODEL = default_model_path()


class ModelWarning(UserWarning):
    """The model was built with other gazetteers than the ones installed."""


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


def tokens_for(text: str, split_glued: bool = True) -> list[Token]:
    """Tokens of ``text``; ``split_glued=False`` keeps letter/digit runs glued together.

    >>> [t.text for t in tokens_for("PEND01/26", split_glued=False)]
    ['PEND01', '/', '26']
    """
    return tokenize(text, split_glued=split_glued)


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


class TaggingBackend(Protocol):
    """What a model's ``_backend`` provides (see :class:`TaggingModel`)."""

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()) -> list: ...


class TaggingModel:
    """What every kind of model shares: tokens, segments, labels -> spans, rules, one file.

    A subclass sets ``config``, ``path``, ``manifest``, ``stats``, ``labels`` and
    ``o_words``, provides ``_backend`` (an object whose ``run(items, o_threshold,
    want_marginals, o_words)`` gives ``(labels, p_outside, marginals)`` for each
    ``(text, tokens, segments)`` item, as :class:`crfdeid.crf.numpy.tagger.NumpyTagger`
    does) and ``to_bytes()`` (the model file's content).
    """

    config: dict
    path: Path | str | None
    manifest: dict
    stats: dict
    labels: list[str]
    backend: str
    o_words: frozenset = frozenset()
    #: The companion CRF of a config with a ``companion`` section (its vote: the averaged decoding,
    #: or ``context_union.v1``), or None.
    companion: TaggingModel | None = None

    if TYPE_CHECKING:
        @property
        def _backend(self) -> TaggingBackend: ...

        def to_bytes(self) -> bytes: ...

    @functools.cached_property
    def scheme(self) -> schema.Scheme:
        """The label scheme of the spans this model writes (the config's; i2b2 2014 by default)."""
        return schema.get(self.config.get("scheme"))

    @property
    def _split(self) -> bool:
        return self.config["tokenizer"]["split_glued"]

    @property
    def _max_len(self) -> int:
        return self.config["segment"]["max_len"]

    @functools.cached_property
    def _english(self) -> bool:
        """The config's resources are English (the clinical-term list applies)."""
        return (self.config.get("resources") or {}).get("language", "en") == "en"

    @property
    def chain(self) -> Chain:
        """The post-CRF chain (:mod:`crfdeid.recognizers.chain`): the config's ``postprocess``,
        or the one its ``rules`` section implies. Assign a :class:`Chain` to change it
        (``model.chain = model.chain.with_processor(...)``)."""
        if self._chain is None:
            self._chain = chain_of(self.config, self.path)
        return self._chain

    @chain.setter
    def chain(self, value: Chain) -> None:
        self._chain = value

    _chain: Chain | None = None

    def _chain_state(self) -> list | None:
        """The chain as config data when it was set on the model (a pickled copy keeps it)."""
        return None if self._chain is None else self._chain.entries()

    def _restore_chain(self, entries: list | None) -> None:
        if entries is not None:
            self._chain = build_chain(entries, self.path)

    def save(self, path) -> Path:
        """Write the model atomically to ``path`` (one file) and return the path."""
        atomic_write(Path(path), self.to_bytes())
        return Path(path)

    @classmethod
    def load(cls, path=None, backend: str = "numpy") -> TaggingModel:
        """Load a model file (default: the model shipped in the package), checking it first.

        ``path`` ``None``, or ``"default"`` where no such file exists, is the shipped model
        (so every command's ``--model default`` names it). A CRF file gives a :class:`Model`, a network's file a
        :class:`crfdeid.neural.model.NeuralModel` (with the ``neural`` extra), whichever
        class this is called on. ``backend`` selects the CRF's tagging backend
        (``"numpy"`` or ``"crfsuite"``); a network has one, ``"numpy"`` stands for it.

        Raises
        ------
        ModelError
            Missing file, wrong magic bytes, truncated or altered content, or a
            model written by an incompatible crfdeid.
        """
        if path is None or (str(path) == "default" and not Path(path).exists()):
            path = DEFAULT_MODEL
        path = Path(path)
        try:
            data = path.read_bytes()
        except IsADirectoryError:
            raise ModelError("is a folder, not a crfdeid model file", path=path) from None
        except OSError as exc:
            hint = " (train it with `make train`)" if path == DEFAULT_MODEL else ""
            raise ModelError(f"cannot read model: {exc.strerror}{hint}", path=path) from None
        return cls.from_bytes(data, path, backend)

    @classmethod
    def from_bytes(cls, data: bytes, path=None, backend: str = "numpy") -> TaggingModel:
        """The model in ``data`` (a model file's content), checked as :meth:`load` does.

        ``path`` only names the file in error messages.
        """
        manifest, part, companion = modelfile.parse_parts(data, path)
        config = modelfile.resolved_config(manifest, path)
        if manifest["format"] == modelfile.FORMAT_VERSION:
            model = Model._from_parts(part, config, manifest, path, backend, companion)
        else:
            model = kinds.get(config["model"], path, ModelError).load(part, config, manifest, path, backend)
        model.chain.prepare()  # the processors' word lists: loading them is not tagging the first note
        return model

    # -- tagging ------------------------------------------------------------------
    def _item(self, text: str) -> tuple:
        """``(text, tokens, segments)``: what a backend labels (the text as :func:`for_tagging` reads it)."""
        text = for_tagging(text)
        toks = tokens_for(text, self._split)
        return text, toks, segments(text, toks, self._max_len)

    def _label(self, items, o_threshold, want_marginals=False) -> list:
        """``(labels, p_outside, marginals)`` of each item, from the backend."""
        return self._backend.run(items, o_threshold, want_marginals, self.o_words)

    def _run(self, doc: Document, o_threshold, want_marginals=False):
        """The item, then labels, per-token P(O) (None where not computed) and full marginals."""
        item = self._item(doc.text)
        return (item, *self._label([item], o_threshold, want_marginals)[0])

    def tag_text(self, text: str, doc_id: str = "-", o_threshold: float | EllipsisType | None = ...,
                 options: Mapping | None = None) -> Document:
        """Tag one note given as a string; a :class:`~crfdeid.document.Document` with its spans.

        ``doc.spans`` are half-open ``[start, end)`` character offsets into ``text``;
        ``doc.meta["confidence"]`` gives each span's confidence (see :meth:`tag`).
        """
        return self.tag(Document(doc_id, text), o_threshold, options)

    def tag(self, doc: Document, o_threshold: float | EllipsisType | None = ...,
            options: Mapping | None = None) -> Document:
        """A copy of ``doc`` (same id, text, meta) with predicted spans.

        Parameters
        ----------
        doc : Document
        o_threshold : float or None, optional
            Mark a token as PHI when its marginal P(O) is below this (recall-oriented
            decoding); ``None`` turns it off; omitted: the config's ``decoding.o_threshold``.
        options : mapping, optional
            Handed to the post-CRF chain's processors with the note (:class:`Note`
            ``options``; ``doc.meta`` reaches them as ``meta``).

        ``meta['confidence']`` lists, for each predicted span in order, the lowest
        token probability of being PHI (1 - P(O)) inside it (1.0 for rule-only spans).
        """
        if o_threshold is ...:
            o_threshold = self.config["decoding"]["o_threshold"]
        item, labels, p_out, _ = self._run(doc, o_threshold)
        return self._tagged(doc, item, labels, p_out, options)

    def _tagged(self, doc, item, labels, p_out, options=None) -> Document:
        """The tagged copy of ``doc``: decoded spans and their confidences through the chain."""
        return self._finish(doc, item[0], self._crf_spans(item[1], labels, p_out), options, item)

    def _crf_spans(self, toks, labels, p_out, offset: int = 0) -> dict:
        """``{span: confidence}`` of the decoded spans, shifted by ``offset`` characters."""
        conf = {}
        for sp in decode(labels, toks, self.scheme):
            i = bisect.bisect_left(toks, sp.start, key=_START)  # the span's first token
            c = 1.0
            while i < len(toks) and toks[i].start < sp.end:
                c = min(c, 1.0 - p_out[i]) if p_out[i] is not None else c
                i += 1
            if offset:
                sp = sp.shifted(offset)
            conf[sp] = round(c, 4)
        return conf

    def note(self, doc: Document, text: str | None = None, options: Mapping | None = None,
             item: tuple | None = None) -> Note:
        """What the chain's processors know of ``doc`` (``text``: its :func:`for_tagging` view;
        ``item``: its tokens and segments, which the companion CRF reuses)."""
        text = for_tagging(doc.text) if text is None else text
        comp = self.companion
        tag = None if comp is None else functools.partial(comp._crf_conf, text, item=item, note=doc.text)
        return Note(text, self._split, self._english, self.scheme, doc.doc_id, doc.meta, options or {},
                    companion=tag)

    def _crf_conf(self, text: str, o_threshold, item: tuple | None = None, note: str | None = None) -> dict:
        """``{span: confidence}`` of this CRF alone on ``text`` (a note's :func:`for_tagging` view;
        ``item``: its ``(text, tokens, segments)`` when known), a piece at a time when it is long
        (cut where ``note``, the note itself, allows: see :meth:`_tag_long`)."""
        if item is not None and len(text) <= LONG_NOTE_CHARS:
            labels, p_out, _ = self._label([item], o_threshold)[0]
            return self._crf_spans(item[1], labels, p_out)
        conf, a = {}, 0
        while a < len(text):
            b = _piece_end(text if note is None else note, a, LONG_NOTE_CHARS)
            piece = self._item(text[a:b])
            labels, p_out, _ = self._label([piece], o_threshold)[0]
            conf.update(self._crf_spans(piece[1], labels, p_out, offset=a))
            a = b
        return conf

    def _finish(self, doc, text: str, conf: dict, options=None, item: tuple | None = None) -> Document:
        """``doc`` with the CRF spans ``conf`` (span -> confidence) through the post-CRF chain
        (``text``: the note as the tagger read it), each span with its confidence (a processor's
        own span keeps the one it was given, else 1.0)."""
        spans = self.chain.run(self.note(doc, text, options, item), conf)
        spans = [replace(sp, confidence=conf.get(sp, 1.0 if sp.confidence is None else sp.confidence))
                 for sp in spans]
        meta = dict(doc.meta)
        out = Document(doc.doc_id, doc.text, spans, meta)
        meta["confidence"] = [sp.confidence for sp in out.spans]
        return out

    def tag_many(self, docs: Iterable[Document], o_threshold: float | EllipsisType | None = ...,
                 options: Mapping | None = None) -> Iterator[Document]:
        """Tag documents (streaming, in order); the first failure raises."""
        for _, tagged in self.tag_each(docs, o_threshold, options=options):
            if isinstance(tagged, Exception):
                raise tagged
            yield tagged

    def tag_each(self, docs: Iterable[Document], o_threshold: float | EllipsisType | None = ...,
                 batch_chars: int = BATCH_CHARS, options: Mapping | None = None,
                 ) -> Iterator[tuple[Document, Document | Exception]]:
        """Tag documents, streaming; yield ``(doc, tagged)``, or ``(doc, exception)`` for a failure.

        Documents of about ``batch_chars`` characters are labelled together (same
        results as one by one); a document that fails does not stop the others.
        ``options`` reach the post-CRF chain with every note (see :meth:`tag`).
        """
        if o_threshold is ...:
            o_threshold = self.config["decoding"]["o_threshold"]
        for batch in batches(docs, batch_chars):
            yield from self._tag_batch(batch, o_threshold, options)

    def _tag_long(self, doc, o_threshold, options=None) -> Document:
        """A note longer than :data:`LONG_NOTE_CHARS` tagged a piece at a time (memory stays
        bounded: tokens, features and scores of one piece), then the rules on the whole text.

        Pieces end at a line break when there is one in the second half of the piece, else
        at white space; tokens never cross either, so they are the whole note's tokens.
        Features change only near a cut (the word window and the section heading stop at
        the piece; a cut inside a line shortens the line the line features see).
        """
        view = for_tagging(doc.text)  # same length: the view of a piece is the piece of the view
        return self._finish(doc, view, self._crf_conf(view, o_threshold, note=doc.text), options)

    def _tag_batch(self, docs, o_threshold, options=None):
        # The whole batch is tagged before the first result is handed out, so that the
        # collector stays paused while the tokens live and no caller code runs meanwhile.
        with gc_paused():
            results = []
            items = []
            for doc in docs:
                try:
                    if len(doc.text) > LONG_NOTE_CHARS:
                        results.append(self._tag_long(doc, o_threshold, options))
                        continue
                    items.append((doc, self._item(doc.text)))
                    results.append(None)
                except Exception as exc:  # noqa: BLE001 - handed to the caller, per document
                    results.append(exc)
            tagged = iter(self._tag_items(items, o_threshold, options))
            results = [(doc, next(tagged) if got is None else got) for doc, got in zip(docs, results)]
            del items, tagged
        yield from results

    def _tag_items(self, items, o_threshold, options=None) -> list:
        """Tagged document (or the exception) for each ``(doc, (text, tokens, segments))``."""
        if not items:
            return []
        try:
            results = self._label([item for _, item in items], o_threshold)
        except Exception as exc:  # noqa: BLE001 - find the failing document(s) one by one
            if len(items) == 1:
                return [exc]
            return [got for one in items for got in self._tag_items([one], o_threshold, options)]
        out: list[Document | Exception] = []
        for (doc, item), (labels, p_out, _) in zip(items, results):
            try:
                out.append(self._tagged(doc, item, labels, p_out, options))
            except Exception as exc:  # noqa: BLE001
                out.append(exc)
        return out

    def marginals(self, doc: Document) -> list[dict]:
        """Per-token marginal probability of every label, ``[{label: p}, ...]`` in token order."""
        return self._run(doc, None, want_marginals=True)[3]

    def token_p_outside(self, doc: Document) -> tuple[list[Token], list[float]]:
        """Tokens and their marginal P(O), for threshold sweeps without re-running per threshold."""
        (_, toks, _), _, _, margs = self._run(doc, None, want_marginals=True)
        return toks, [m.get(OUTSIDE, 0.0) for m in margs]


class Model(TaggingModel):
    """A trained de-identifier: CRFsuite weights, resolved config and featurizer.

    Use :func:`crfdeid.load` (or :meth:`Model.load`) for a saved model and
    :func:`crfdeid.crf.train_model` to train one. ``backend`` is ``"numpy"``
    (default) or ``"crfsuite"``; both give the same labels.

    >>> import crfdeid
    >>> doc = crfdeid.load().tag_text("Seen by Dr. Lee on 7/22/2098.")
    >>> [(doc.text[s.start:s.end], s.subtype) for s in doc.spans]
    [('Lee', 'DOCTOR'), ('7/22/2098', 'DATE')]
    """

    def __init__(self, crf_bytes: bytes, config: dict, manifest: dict | None = None, path=None,
                 backend: str = "numpy", companion: bytes | None = None):
        if backend not in BACKENDS:
            raise ValueError(f"unknown tagging backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.config = config
        self.path = path
        self.backend = backend
        self._crf = crf_bytes
        self.manifest = {"format": modelfile.FORMAT_VERSION, "crfdeid_version": __version__,
                         **(manifest or {}), "config": config, "feature_set": config["features"]}
        self.stats = dict(self.manifest.get("training", {}))
        #: Words (lower-cased) that the O threshold does not make PHI: seen at least
        #: ``decoding.o_words_min_count`` times in the training notes and never inside PHI.
        #: Viterbi and the rules still may. Empty: off (assign ``frozenset()`` to turn it off).
        self.o_words = frozenset(self.manifest.get("o_words") or ())
        #: The committee of other recognizers (``committee`` in the config), or None.
        self.committee = from_config(config)
        #: Word lists and trigger words of the features (the config's ``resources``).
        self.resources = Resources.from_config(config.get("resources"))
        self.featurizer = Featurizer(config["features"], self.resources,
                                     self.committee.columns() if self.committee else ())
        self._stacker = None
        if self.committee is not None and self.committee.combine == "multi.v1":
            if "stacker" not in self.manifest:
                raise ModelError("a multi.v1 committee model without its stacker weights", path=path)
            self._stacker = Stacker(self.manifest["stacker"], self.committee)
        self._tagger = open_tagger(crf_bytes, path)
        self.labels = list(self._tagger.labels())
        self._backend_impl = None
        self._companion_crf = companion
        self.companion = self._open_companion(companion, path, backend)

    def _open_companion(self, crf: bytes | None, path, backend: str) -> Model | None:
        """The companion CRF of a config with a ``companion`` section (its ``crf``: CRFsuite bytes)."""
        comp_config = companion_config(self.config)
        if (crf is None) != (comp_config is None):
            raise ModelError("the config's companion section and the companion CRF come together; "
                             f"this model has {'the section' if crf is None else 'the CRF'} only", path=path)
        if crf is None or comp_config is None:
            return None
        entry = self.manifest.get("companion") or {}
        comp = Model(crf, comp_config, {"o_words": entry.get("o_words") or [],
                                        "training": entry.get("training") or {}}, path, backend)
        if entry.get("labels") is not None and entry["labels"] != comp.labels:
            raise ModelError("companion CRF labels differ from the manifest's", path=path)
        return comp

    @property
    def _backend(self):
        """The tagging backend, built on first use (a model just trained may never tag)."""
        if self._backend_impl is None:
            if self.backend == "crfsuite":
                self._backend_impl = CrfsuiteBackend(self._tagger, self.featurizer)
            else:
                weights = read_weights(self._crf, self.path)
                if weights.labels != self.labels:
                    raise ModelError("CRFsuite model labels differ from the weights read", path=self.path)
                self._backend_impl = NumpyTagger(self.featurizer, weights)
            weight = (self.config.get("companion") or {}).get("weight")
            if weight and self.companion is not None:  # the companion's vote in the decoding
                self._backend_impl = AveragedBackend(self._backend_impl, self.companion._backend, weight)
        return self._backend_impl

    # -- persistence ------------------------------------------------------------
    def __getstate__(self):
        return {"crf": self._crf, "config": self.config, "manifest": self.manifest, "path": self.path,
                "backend": self.backend, "o_words": self.o_words, "chain": self._chain_state(),
                "companion": self._companion_crf}

    def __setstate__(self, state):
        self.__init__(state["crf"], state["config"], state["manifest"], state["path"],
                      state.get("backend", "numpy"), state.get("companion"))
        self.o_words = state.get("o_words", self.o_words)  # as set on the pickled model
        self._restore_chain(state.get("chain"))

    def to_bytes(self) -> bytes:
        """The model file's content (:mod:`crfdeid.tagging.modelfile`)."""
        return modelfile.to_bytes(self._crf, self.manifest, self.labels, self._companion_crf)

    @classmethod
    def _from_parts(cls, crf: bytes, config: dict, manifest: dict, path, backend: str,
                    companion: bytes | None = None) -> Model:
        """The CRF model of a checked file (:meth:`TaggingModel.from_bytes`)."""
        saved = manifest.get("gazetteers") or {}
        current = modelfile.gazetteer_checksums(config)
        # Only the lists the model was trained with: a list added since changes none of its features.
        if saved and any(current.get(name) != sha for name, sha in saved.items()):
            warnings.warn(f"model {path} was trained with other gazetteer lists than the installed "
                          "ones; dictionary features may differ", ModelWarning, stacklevel=4)
        model = cls(crf, config, manifest, path=path, backend=backend, companion=companion)
        for crf_model in (model, model.companion):
            if isinstance(crf_model, Model):
                _ = crf_model._backend  # read the weights now: a bad model fails at load, not at the first note
                crf_model.featurizer.prepare()  # and the gazetteers: not while tagging the first note
        if model.committee is not None:
            model.committee.prepare()  # and the committee's members
        return model

    def _label(self, items, o_threshold, want_marginals=False) -> list:
        """``(labels, p_outside, marginals)`` of each item, from the backend (and the stacker
        of a ``multi.v1`` committee, which relabels from the CRF's marginals)."""
        if self._stacker is None:
            return super()._label(items, o_threshold, want_marginals)
        out = []
        for (text, toks, _), (_, _, margs) in zip(items, self._backend.run(items, None, True)):
            labels, p_out = self._stacker.relabel(text, toks, margs, o_threshold, self.o_words)
            out.append((labels, p_out, margs if want_marginals else []))
        return out

    def features(self, text: str, toks) -> list[list[str]]:
        """The attribute lists CRFsuite tags ``toks`` with."""
        return self.featurizer.featurize(text, toks)

"""The tagging model every kind of model shares: :class:`TaggingModel`.

Tagging a note is the same path whatever labels its tokens: the note as the tagger reads it
(:func:`crfdeid.text.tokenize.for_tagging`, control characters as spaces), its tokens and
segments, a backend's labels and marginals (:class:`TaggingBackend`: the CRF's of
:mod:`crfdeid.crf`, a network's of :mod:`crfdeid.neural`), decoded into spans
(:func:`crfdeid.labels.decode`) and handed to the model's post-CRF chain
(:mod:`crfdeid.recognizers.chain`, named in the config's ``postprocess``: the clinical-term
filter, the rule overlay when enabled, and the Safe Harbor layer, always last). Documents are
labelled in batches of about :data:`BATCH_CHARS` characters; a note longer than
:data:`LONG_NOTE_CHARS` a piece at a time. The file is :mod:`crfdeid.tagging.modelfile`;
:meth:`TaggingModel.load` gives the model of the kind it holds (:mod:`crfdeid.tagging.kinds`).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Protocol

from .. import schema
from .._data import default_model_path
from ..document import Document
from ..errors import ModelError
from ..io import atomic_write
from ..labels import OUTSIDE, decode
from ..progress import checkpoint, gc_paused
from ..recognizers.chain import Chain, Note, build_chain, chain_of
from ..recognizers.provenance import Trace
from ..recognizers.steps import FOUND
from ..text.tokenize import Token, for_tagging, segments, tokenize
from . import decoding, kinds, modelfile
from .crf_evidence import Evidence
from .pieces import PIECE_CHARS, Pieces, merge

_START = attrgetter("start")
#: Notes longer than this (characters) are tagged a piece at a time by ``tag_each``
#: (:mod:`crfdeid.tagging.pieces`; a model's ``pieces`` overrides it).
LONG_NOTE_CHARS = PIECE_CHARS


#: Characters of documents tagged together (``tag_each``): about 20,000 tokens of
#: clinical notes (PhysioNet: 4.1 characters a token).
BATCH_CHARS = 80_000


#: The model shipped in the package (trained by ``make train``).
DEFAULT_MODEL = default_model_path()


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


def _wants_evidence(options: Mapping | None) -> bool:
    """Whether the chain's ``options`` ask for the CRF's word on every token (``Span.crf_confidence``; on unless
    ``crf_evidence`` is false: a session whose output no surrogate writer reads, :class:`~.session.Session`)."""
    return options is None or options.get("crf_evidence", True) is not False


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
    #: The prior of a config with a ``prior`` section (another model's CRF voting in the decoding,
    #: docs/prior.md), or None.
    prior: TaggingModel | None = None

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
        (so every command's ``--model default`` names it). A CRF file gives a
        :class:`crfdeid.crf.Model`, a network's file a
        :class:`crfdeid.neural.model.NeuralModel` (with the ``neural`` extra), a routed
        file a :class:`crfdeid.routing.RoutedModel`, whichever class this is called on.
        ``backend`` selects the CRF's tagging backend (``"numpy"`` or ``"crfsuite"``); a
        network has one, ``"numpy"`` stands for it.

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
            data = modelfile.read_file(path)
        except OSError as exc:
            hint = " (train it with `make train`)" if path == DEFAULT_MODEL else ""
            raise ModelError(f"cannot read model: {exc.strerror}{hint}", path=path) from None
        return cls.from_bytes(data, path, backend)

    @classmethod
    def from_bytes(cls, data: bytes, path=None, backend: str = "numpy") -> TaggingModel:
        """The model in ``data`` (a model file's content), checked as :meth:`load` does.

        ``path`` only names the file in error messages.
        """
        # Loading builds long-lived structures (weights, word lists, indexes) and no garbage
        # cycles: the collector's passes over them, a fifth of the load's time, free nothing.
        with gc_paused():
            manifest, part, extras = modelfile.parse_all(data, path)
            config = modelfile.resolved_config(manifest, path)
            kind = "crf" if manifest["format"] == modelfile.FORMAT_VERSION else config["model"]
            model = kinds.get(kind, path, ModelError).load(part, config, manifest, path, backend,
                                                           extras.get("companion"), extras.get("prior"))
            model.chain.prepare()  # the processors' word lists: loading them is not tagging the first note
        return model

    # -- tagging ------------------------------------------------------------------
    #: How a long note is cut (:class:`Pieces`); None: pieces of :data:`LONG_NOTE_CHARS`.
    pieces: Pieces | None = None

    def _pieces(self) -> Pieces:
        return self.pieces or Pieces(LONG_NOTE_CHARS)

    def _item(self, text: str) -> tuple:
        """``(text, tokens, segments)``: what a backend labels (the text as :func:`for_tagging` reads it)."""
        text = for_tagging(text)
        toks = tokens_for(text, self._split)
        return text, toks, segments(text, toks, self._max_len)

    def _label(self, items, o_threshold, want_marginals=False) -> list:
        """``(labels, p_outside, marginals)`` of each item, from the backend."""
        return self._backend.run(items, decoding.with_month_day(o_threshold, self.config), want_marginals, self.o_words)

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
            ``options``; ``doc.meta`` reaches them as ``meta``). ``{"explain": True}`` adds
            ``meta['explain']``, what each step did (below).

        ``meta['confidence']`` lists, for each predicted span in order, the lowest
        token probability of being PHI (1 - P(O)) inside it (1.0 for rule-only spans).
        With ``explain``, ``meta['explain']`` is ``{"spans": [...], "dropped": [...]}``: for
        each span in order the steps that found, widened, retyped or merged it
        (:mod:`crfdeid.recognizers.provenance`), and the spans a step dropped with their steps.
        """
        if o_threshold is ...:
            o_threshold = self.config["decoding"]["o_threshold"]
        item, labels, p_out, _ = self._run(doc, o_threshold)
        return self._tagged(doc, item, labels, p_out, options, o_threshold)

    def _tagged(self, doc, item, labels, p_out, options=None, o_threshold=None) -> Document:
        """The tagged copy of ``doc``: decoded spans and their confidences through the chain."""
        return self._finish(doc, item[0], self._crf_spans(item[1], labels, p_out), options, item, o_threshold,
                            Evidence.of(item[1], p_out) if _wants_evidence(options) else None)

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
                    companion=tag, safe_harbor_labels=self.manifest.get("safe_harbor_labels") or {})

    def _crf_conf(self, text: str, o_threshold, item: tuple | None = None, note: str | None = None) -> dict:
        """``{span: confidence}`` of this CRF alone on ``text`` (a note's :func:`for_tagging` view;
        ``item``: its ``(text, tokens, segments)`` when known), a piece at a time when it is long
        (cut where ``note``, the note itself, allows: see :meth:`_tag_long`)."""
        return self._scored(text, o_threshold, item, note)[0]

    def _scored(self, text: str, o_threshold, item: tuple | None = None,
                note: str | None = None, evidence: bool = True) -> tuple[dict, Evidence | None]:
        """:meth:`_crf_conf`'s spans and the CRF's :class:`Evidence` over the note's tokens (of a
        long note, each token's from the window whose own piece holds it: the farthest from a cut;
        None when ``evidence`` is false: no one reads it)."""
        cut = self._pieces()
        if item is not None and len(text) <= cut.size:
            labels, p_out, _ = self._label([item], o_threshold)[0]
            return self._crf_spans(item[1], labels, p_out), Evidence.of(item[1], p_out) if evidence else None
        found, gathered = [], Evidence() if evidence else None
        where = text if note is None else note
        cuts = cut.cuts(where)
        for (a, b), own in zip(cut.windows(where, cuts), zip(cuts, cuts[1:])):
            checkpoint()  # a caller's deadline (the service's request timeout) stops between pieces
            piece = self._item(text[a:b])
            labels, p_out, _ = self._label([piece], o_threshold)[0]
            found.append(((a, b), self._crf_spans(piece[1], labels, p_out, offset=a)))
            if gathered is not None:
                gathered.add(piece[1], p_out, offset=a, keep=own)
        return merge(found, len(text)), gathered

    def _finish(self, doc, text: str, conf: dict, options=None, item: tuple | None = None,
                o_threshold=None, evidence: Evidence | None = None) -> Document:
        """``doc`` with the CRF spans ``conf`` (span -> confidence) through the post-CRF chain
        (``text``: the note as the tagger read it), each span with its confidence (a processor's
        own span keeps the one it was given, else 1.0) and its ``crf_confidence`` (a CRF span's own
        confidence; of a span the chain made or changed, the lowest P(PHI) ``evidence`` gives its
        tokens); with ``options["explain"]`` what each step did, in ``meta['explain']``."""
        trace = self._trace(conf, item, o_threshold) if options and options.get("explain") else None
        note = self.note(doc, text, options, item)
        spans = self.chain.run(note, conf, trace)
        spans = [replace(sp, confidence=conf.get(sp, 1.0 if sp.confidence is None else sp.confidence),
                         crf_confidence=conf[sp] if sp in conf else
                         None if evidence is None else evidence.lowest(sp.start, sp.end))
                 for sp in spans]
        meta = dict(doc.meta)
        out = Document(doc.doc_id, doc.text, spans, meta, note.memo.get(FOUND))
        meta["confidence"] = [sp.confidence for sp in out.spans]
        if trace is not None:
            meta["explain"] = trace.report(out.spans)
        return out

    def _trace(self, conf: dict, item: tuple | None, o_threshold) -> Trace:
        """The trace of a note whose decoded spans are ``conf``: found by the model (the config's
        ``model`` kind), and where a companion CRF votes in the decoding, what the vote changed
        from the main CRF's own spans (``item``: the note's tokens; a long note tagged a piece at
        a time gives none and its spans are the model's)."""
        kind = self.config.get("model", "crf")
        main = getattr(self._backend, "main", None)  # the decoding's AveragedBackend
        if main is None or item is None:
            return Trace(conf, kind, "the model's labels")
        labels, p_out, _ = main.run([item], o_threshold, False, self.o_words)[0]
        alone = list(self._crf_spans(item[1], labels, p_out))
        trace = Trace(alone, kind, "the main CRF's labels")
        trace.record("companion_vote", alone, list(conf),
                     dict.fromkeys(("found", "widened", "narrowed", "moved", "retyped", "merged", "dropped"),
                                   "the companion CRF's marginals averaged in"))
        return trace

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
        """A note longer than a piece tagged a piece at a time in overlapping windows whose
        spans are merged (memory stays bounded: tokens, features and scores of one window;
        :mod:`crfdeid.tagging.pieces`), then the rules on the whole text."""
        view = for_tagging(doc.text)  # same length: the view of a piece is the piece of the view
        conf, evidence = self._scored(view, o_threshold, note=doc.text, evidence=_wants_evidence(options))
        return self._finish(doc, view, conf, options, o_threshold=o_threshold, evidence=evidence)

    def _tag_batch(self, docs, o_threshold, options=None):
        # The whole batch is tagged before the first result is handed out, so that the
        # collector stays paused while the tokens live and no caller code runs meanwhile.
        with gc_paused():
            results = []
            items = []
            for doc in docs:
                checkpoint()
                try:
                    if len(doc.text) > self._pieces().size:
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
                out.append(self._tagged(doc, item, labels, p_out, options, o_threshold))
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

"""One tagging session: a loaded model and what a run decides (decoding, the site, the output
style and its writer options), used by every entry point.

``python -m crfdeid tag`` (:mod:`crfdeid.cli.tag`) parses its arguments into a
:class:`Session` and writes with :meth:`Session.write`; the record adapter behind ``serve`` and
``spark`` (:class:`crfdeid.adapters.records.Deidentifier`) is a session giving one
:class:`Record` per note (:meth:`Session.run`); the review app, the Presidio and spaCy
adapters tag through :meth:`Session.tagged`. So a note gets the same spans and the same text
whichever way it comes in, for the same model, options and key.

A document that fails (cannot be grouped, tagged or written) gets a message naming it and
the failure, never its text, and no output (fail closed); the others go on.

>>> from crfdeid.document import Document
>>> session = Session(output_format="redacted")
>>> [rec] = session.run([Document("n1", "Seen by Dr. Lee on 7/22/2098.")])
>>> rec.text
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s["type"], s["start"], s["end"]) for s in rec.spans]
[('DOCTOR', 12, 15), ('DATE', 19, 28)]
"""

from __future__ import annotations

import copy
import inspect
import itertools
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from types import EllipsisType

from ..document import Document
from ..errors import ConfigError, CrfdeidError, OutputError, WorkerError, describe
from ..io import StreamWriter, open_writer, write_document
from ..io.registry import writer_class
from ..progress import Cancelled, checkpoint
from ..site import TableUse, mining
from ..text import dateorder
from ..text.patterns import LazyModule
from . import model as tagging_model
from .inputs import open_inputs, refuse_existing  # noqa: F401 - the command's, kept importable here
from .learning import learnt_by_patient, learnt_first
from .model import TaggingModel, batches
from .results import Record, explanation, span_records, tag_result  # noqa: F401 - importable here
from .workers import bound_jobs, end_with_parent

# The process pool of ``--jobs N``, imported when a run asks for workers (about 0.01 CPU-s of every start-up).
_mp, _pool = LazyModule("multiprocessing"), LazyModule("concurrent.futures.process")

#: The output style of a session that renders no text (spans only).
SPANS = "spans"
#: Output styles that never write a surrogate: ``tag`` leaves out the model's word per token for them
#: (``Span.crf_confidence``, which only the surrogate writer reads and no writer of spans writes; computing
#: it was 3 % of the CPU of ``tag --output-format jsonl``, docs/performance.md).
NO_SURROGATES = frozenset({"redacted", "masked", "jsonl", "i2b2", "brat", "csv", "text"})
#: Output styles that write the spans' repeats too (``deid.spans.propagate``, unless ``propagate=false``).
REPEATING = frozenset({"redacted", "masked", "surrogate"})


class Session:
    """A loaded model and an output style, tagging and rendering notes the way ``crfdeid tag`` does.

    Parameters
    ----------
    model : TaggingModel, str or Path, optional
        A loaded model or a model file (default: the model shipped with crfdeid).
    output_format : str
        A writer of ``python -m crfdeid tag --output-format`` (``redacted``, ``masked``,
        ``surrogate``, ``jsonl``, ``i2b2``...), or ``spans`` (no text).
    options : dict, optional
        Writer options, as ``tag -o KEY=VALUE`` takes them.
    key, seed : bytes or str, optional
        The surrogates' secret key (or a public seed), added to the writer options. Surrogate
        output with neither draws one random key here, so that every writer of this session
        (every Spark partition, every request) agrees, but another run does not.
    o_threshold : float or None, optional
        As ``--o-threshold`` (``None``: Viterbi labels; default: the model's decoding).
    o_words : bool
        ``False``: the threshold may mark every word (``--no-o-words``); the session tags with
        a copy of the model, the model given is not changed.
    site : crfdeid.site.Site, optional
        What the site knows, found in every note (docs/site.md).
    grouper : crfdeid.deid.grouping.Grouper, optional
        Sets each document's patient key before it is tagged (``--group-*``).
    backend : str
        The CRF's tagging backend when ``model`` is a file (``numpy`` or ``crfsuite``).
    explain : bool
        Record what each step did to each span (``meta['explain']``, :func:`explanation`;
        ``tag --explain``). Off, tagging does no extra work.
    site_mining : bool
        Find what the model tagged confidently in some notes wherever it recurs in the notes of
        one call of :meth:`tag` (``tag --site-mining``; :mod:`crfdeid.site.mining`): the call's
        results come once all its notes are tagged. :attr:`lessons` holds what it learnt.
    crf_evidence : bool, optional
        Give each span the model's word on its tokens whatever step made it (``Span.crf_confidence``,
        :mod:`crfdeid.tagging.crf_evidence`), which only the surrogate writer reads. Default true: the
        notes :meth:`tagged` gives may reach any writer (Spark's FHIR and HL7 tasks tag with a redacting
        session and write surrogates with their own writer). ``tag`` leaves it out for the output styles
        of :data:`NO_SURROGATES`, which it renders itself.
    """

    def __init__(self, model=None, output_format: str = "redacted", *, options: dict | None = None,
                 key=None, seed=None, o_threshold: float | EllipsisType | None = ..., o_words: bool = True,
                 site=None, grouper=None, backend: str = "numpy", explain: bool = False,
                 site_mining: bool = False, date_order: str | None = None, crf_evidence: bool | None = None):
        self.model = model if isinstance(model, TaggingModel) else TaggingModel.load(model, backend=backend)
        if not o_words:
            self.model = copy.copy(self.model)  # the caller's model keeps its o-words
            self.model.o_words = frozenset()
        self.output_format = output_format
        self.o_threshold = o_threshold
        self.o_words = o_words
        self.site = site
        self.table_use = TableUse(site)  # how many of the site tables' patients and notes were met
        self.grouper = grouper
        self.explain = explain
        self.crf_evidence = True if crf_evidence is None else crf_evidence
        self.site_mining = site_mining and mining.mines(self.model)
        self.lessons = mining.Lessons()
        self.options = dict(options or {})
        if seed is not None or key is not None:
            self.options.update({"seed": seed} if seed is not None else {"key": key})
        if output_format == "surrogate" and self.options.get("seed") is None and self.options.get("key") is None:
            self.options["key"] = os.urandom(32)  # one random key for every writer of the session
        self.date_order = self._date_order(date_order)

    def _date_order(self, given: str | None) -> str:
        """The order numeric dates are read in: the one given (``--date-order``, ``-o date_order``),
        else the site file's, else the model config's ``decoding.date_order``, else ``auto``;
        handed to a writer that shifts dates (surrogates, FHIR/HL7 records)."""
        option = self.options.get("date_order")
        if given is not None and option is not None and option != given:
            raise ConfigError(f"--date-order {given} and -o date_order={option} disagree; give one")
        site = getattr(self.site, "date_order", None)
        decoding = (self.model.config.get("decoding") or {}).get("date_order")
        order = dateorder.check_order(next(o for o in (given, option, site, decoding, "auto") if o is not None))
        cls = None if self.output_format == SPANS else writer_class(self.output_format)
        if cls is not None and "date_order" in inspect.signature(cls).parameters:
            self.options["date_order"] = order
        return order

    @property
    def chain_options(self) -> dict:
        """What the post-CRF chain gets with every note (the site's knowledge; ``explain``)."""
        options: dict = {} if self.site is None else {"site": self.site}
        if self.explain:
            options["explain"] = True
        if not self.crf_evidence:
            options["crf_evidence"] = False  # the model's word per token: only the surrogate writer reads it
        return options

    # -- writers ----------------------------------------------------------------------------
    def open_writer(self, output_dir=None, inputs=(), overwrite: bool = False):
        """The writer of the output style on standard output (``output_dir`` None), a stream file
        in ``output_dir`` or the folder ``output_dir``, every check made before it writes
        (:func:`crfdeid.io.open_writer`: ``inputs`` are the paths it must not touch)."""
        return open_writer(self.output_format, output_dir, self.options, inputs, overwrite, self.model.scheme)

    def writer(self):
        """A new writer of the output style whose text :meth:`run` takes (None for ``spans``).

        A surrogate writer holds the patients' state (names seen, surrogates drawn): give one
        patient's notes to the same writer, in order, for the command's result.
        """
        return None if self.output_format == SPANS else self.open_writer()

    # -- tagging ----------------------------------------------------------------------------
    def documents(self, inputs: Iterable[Iterable[Document]], errors: list) -> Iterator[Document]:
        """The documents of ``inputs`` in order, each with its patient key (the grouper's); a
        document the grouper refuses goes to ``errors``. Each is counted in :attr:`table_use`
        (:class:`crfdeid.site.TableUse`: do the site tables' rows meet any note?)."""
        for docs in inputs:
            for doc in docs:
                try:
                    doc = self.grouper.apply(doc) if self.grouper is not None else doc
                except CrfdeidError as exc:  # without its patient key a note cannot get its patient's surrogates
                    errors.append(exc)
                    continue
                self.table_use.see(doc)
                yield doc

    def tag(self, docs: Iterable[Document], jobs: int = 1,
            progress: Callable[[], object] | None = None,
            phase: Callable[[str], object] | None = None) -> Iterator[tuple]:
        """``(doc_id, tagged, None)`` or ``(doc_id, None, message)`` per document, in input order
        (with :attr:`site_mining`: once every document is tagged, mined over all of them).

        Documents are labelled in batches (the numpy backend labels a batch at once). With
        ``jobs`` > 1, ``jobs - 1`` worker processes tag batches (forked ones share this
        session's model, spawned ones load it) and this process tags one itself whenever every
        worker has two queued: ``jobs`` processes tag, none waits for another while batches
        are left, and the results come back in input order. ``progress`` is called once per
        document tagged (with mining, before the first result comes). ``phase`` is called with
        the name of each phase as it starts: ``tagging`` (with mining :data:`TAGGING_MINED`), then
        ``site mining`` once the whole batch is tagged (nothing is written before it ends) and ``writing`` as the first
        result comes, after which ``progress`` is called once per document handed on.
        """
        results = self._tag(docs, jobs)
        if phase is not None:
            phase(TAGGING_MINED if self.site_mining else "tagging")
        if progress is not None:
            results = _counted(results, progress)
        if not self.site_mining:
            yield from results
            return
        allow = self.site.allow if self.site is not None else frozenset()
        self.lessons = mining.Lessons()
        if phase is None:
            yield from mining.mine_results(results, allow, self.explain, self.lessons)
            return
        held = list(results)
        phase("site mining")
        mined = mining.mine_results(held, allow, self.explain, self.lessons)
        first = next(mined, None)  # the batch is learnt from as the first result is asked for
        if first is None:
            return
        phase("writing")
        for result in itertools.chain((first,), mined):
            yield result
            if progress is not None:
                progress()

    def _tag(self, docs: Iterable[Document], jobs: int) -> Iterator[tuple]:
        jobs = bound_jobs(jobs)
        if jobs <= 1:
            yield from (tag_result(doc, tagged) for doc, tagged in self.model.tag_each(
                docs, self.o_threshold, tagging_model.BATCH_CHARS, options=self.chain_options))
            return
        method = "spawn" if sys.platform == "win32" else "fork"
        global _WORKER
        if method == "fork":
            _WORKER = self
        # concurrent.futures notices a worker that dies (kill -9, out of memory) and fails every
        # pending task with BrokenProcessPool; multiprocessing.Pool would wait for it forever
        pool = _pool.ProcessPoolExecutor(jobs - 1, _mp.get_context(method), _init_worker, (self._spec(), os.getpid()))
        try:
            yield from self._shared(pool, jobs - 1, batches(docs, shared_batch_chars()))
        except _pool.BrokenProcessPool:
            raise WorkerError(f"a worker process of --jobs {jobs} died (killed, or out of memory) before its "
                              "notes were tagged; the notes written so far are kept, the others are not "
                              "written") from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            _WORKER = None

    def _shared(self, pool, workers: int, tasks: Iterator[list[Document]]) -> Iterator[tuple]:
        """The results of ``tasks`` in order, tagged by ``pool``'s workers and by this process.

        Each worker keeps two batches queued; while they are all queued this process tags the
        next batch itself. What waits to be handed out in order is bounded (a slow batch in a
        worker does not let this process run ahead without end)."""
        queued = 2 * workers
        pending: deque = deque()  # per batch: a worker's Future, or this process' results
        left = True
        while left or pending:
            while left and sum(1 for p in pending if not isinstance(p, list) and not p.done()) < queued:
                batch = next(tasks, None)
                if batch is None:
                    left = False
                else:
                    pending.append(pool.submit(_tag_batch, batch))
            while pending and (isinstance(pending[0], list) or pending[0].done() or not left
                               or len(pending) > 4 * queued):
                head = pending.popleft()
                yield from head if isinstance(head, list) else head.result()
            if left:
                batch = next(tasks, None)
                if batch is None:
                    left = False
                else:
                    pending.append(_tag_batch(batch, self))

    def _spec(self) -> tuple:
        """What a spawned worker needs to tag as this session does."""
        return (self.model.path, getattr(self.model, "backend", "numpy"), self.o_words, self.o_threshold,
                self.site, self.explain, getattr(self.model, "route", None), self.crf_evidence)

    def tagged(self, docs: Iterable[Document]) -> Iterator[Document]:
        """Tagged copies of ``docs`` (spans and ``meta['confidence']``), in order; the first
        failure raises."""
        yield from self.model.tag_many(docs, self.o_threshold, options=self.chain_options)

    # -- output -----------------------------------------------------------------------------
    def run(self, docs: Iterable[Document], writer=None, jobs: int = 1) -> Iterator[Record]:
        """A :class:`Record` per document, in order: its spans and its text in the output style.

        ``writer`` renders the text: a writer (default: a new one for this call), or a
        callable giving the writer of each tagged document (:class:`PatientWriters`). One writer
        that draws surrogates learns every note of the call before the first record
        (:func:`learnt_first`, as ``tag`` does); a writer of each patient, each run of one
        patient's notes (:func:`learnt_by_patient`).
        """
        results = self.tag(docs, jobs)
        if not callable(writer):
            one = writer if writer is not None else self.writer()
            results = learnt_first(results, one)  # one writer: the call's notes learnt first, as `tag` does

            def writer(doc, one=one):
                return one
        else:
            results = learnt_by_patient(results, writer)
        for doc_id, tagged, err in results:
            if err is not None:
                yield Record(doc_id, None, None, err)
                continue
            text = None
            checkpoint()
            if self.output_format != SPANS:
                try:
                    text = writer(tagged).transform(tagged).text
                except Cancelled:
                    raise
                except CrfdeidError as exc:
                    err = str(exc)
                except Exception as exc:  # noqa: BLE001 - as write_document: never the text
                    err = f"document {doc_id!r}: writing failed ({describe(exc)})"
            if err is not None:
                yield Record(doc_id, None, None, err)
            else:
                yield Record(doc_id, span_records(tagged), text,
                             explanation=self.explanation(tagged) if self.explain else None)

    def explanation(self, tagged: Document) -> dict:
        """:func:`explanation` of a document this session tagged (with the repeats its writer adds)."""
        repeats = self.output_format in REPEATING and self.options.get("propagate", True) is not False
        return explanation(tagged, repeats, self.options.get("scheme", self.model.scheme))

    def write(self, docs: Iterable[Document], out, *, jobs: int = 1, errors: list | None = None,
              report: Callable[[str], object] = print, progress: Callable[[], object] | None = None,
              explained: Callable[[dict, Document], object] | None = None,
              phase: Callable[[str], object] | None = None) -> tuple[int, int, bool]:
        """Tag ``docs`` and write each with the open writer ``out`` (:meth:`open_writer`), then
        close it; ``(done, failed, completed)``.

        ``errors`` is the list the readers (and :meth:`documents`) add a failed document to
        while ``docs`` is read: each is reported, in order, and counted as failed. ``report``
        gets every failure's message (document id and reason, never its text); ``progress``
        is called once per document tagged, ``phase`` as each phase starts (:meth:`tag`). When
        closing fails (an output file's rename, a mapping), that is reported and ``completed`` is
        false; with one stream file none of it was made: every document counts as failed (the
        close itself is not a document: 300 notes are never "301 failed"). ``explained`` gets the
        :func:`explanation` of each document written (a session with ``explain``) and the tagged
        document, for an output style that does not carry it (the JSONL writer keeps it in each
        record's ``meta``) or an explain file.
        """
        errors = [] if errors is None else errors
        done = failed = seen = 0
        try:
            with out:
                for _doc_id, tagged, err in learnt_first(self.tag(docs, jobs, progress, phase), out):
                    while seen < len(errors):
                        report(str(errors[seen]))
                        seen += 1
                        failed += 1
                    if err is None:
                        err = write_document(out, tagged)
                    if err is None and explained is not None:
                        explained(self.explanation(tagged), tagged)
                    if err is not None:
                        report(err)
                        failed += 1
                    else:
                        done += 1
                for e in errors[seen:]:
                    report(str(e))
                    failed += 1
        except WorkerError as exc:  # the writer was closed as a failure: a stream file is not made
            report(str(exc))
            if isinstance(out, StreamWriter):
                failed, done = failed + done, 0
            return done, failed, False
        except OutputError as exc:  # the closing step (an output file's rename, a mapping) failed
            report(str(exc))
            if isinstance(out, StreamWriter):  # one stream file: none of it was made
                failed, done = failed + done, 0
            return done, failed, False
        return done, failed, True


#: The tagging phase's name when site mining holds every output until the batch is tagged.
TAGGING_MINED = "tagging; output after site mining"


class PatientWriters:
    """The writer of each document for notes grouped by patient (``doc.group``): a new one
    whenever the patient changes, so a patient's state lives only while its notes are
    rendered. Given each patient's notes one after another, the text is that of one writer
    for all notes (a writer keeps the patients apart)."""

    def __init__(self, session: Session):
        self.session = session
        self.group: str | None = None
        self.current = None

    def __call__(self, doc: Document):
        if self.current is None or doc.group != self.group:
            self.group, self.current = doc.group, self.session.writer()
        return self.current


def _counted(results: Iterator[tuple], progress: Callable[[], object]) -> Iterator[tuple]:
    """``results``, calling ``progress`` as each comes."""
    for result in results:
        progress()
        yield result


# -- worker processes (``jobs`` > 1) ----------------------------------------------------------
def shared_batch_chars() -> int:
    """Characters of one batch handed to a process with ``jobs`` > 1: a quarter of a
    one-process batch, so that the processes end within a small batch of each other."""
    return max(1, tagging_model.BATCH_CHARS // 4)


#: The session a worker process tags with: the parent's in a forked worker, one made from the
#: parent's spec in a spawned one.
_WORKER: Session | None = None


def _init_worker(spec, parent: int | None = None) -> None:
    """Make the session of a spawned worker (a forked one has the parent's); it ends with ``parent``."""
    global _WORKER
    if parent is not None:
        end_with_parent(parent)
    if _WORKER is not None:
        return
    path, backend, o_words, o_threshold, site, explain, route, crf_evidence = spec
    _WORKER = Session(path, SPANS, o_threshold=o_threshold, o_words=o_words, site=site, backend=backend,
                      explain=explain, crf_evidence=crf_evidence)
    forced = getattr(_WORKER.model, "forced", None)  # a routed model's member for every note (tag --route)
    if route is not None and forced is not None:
        forced(route)


def _tag_batch(docs, session: Session | None = None) -> list:
    """A worker's task (or the parent's share): a batch of documents, tagged together, one
    result per document."""
    session = session if session is not None else _WORKER
    assert session is not None
    return [tag_result(doc, tagged)
            for doc, tagged in session.model.tag_each(docs, session.o_threshold, tagging_model.BATCH_CHARS,
                                                      options=session.chain_options)]

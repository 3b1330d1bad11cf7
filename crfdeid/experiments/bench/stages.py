"""Timed tagging in one process: end to end with per-stage shares, and CRFsuite alone.

The end-to-end run goes through the real code path of the tag CLI (``read`` ->
``Model.tag_each`` -> ``writer.write``); the stages are timed by wrapping the
functions it calls (tokenizer, featurizer or emission scorer, CRF inference:
CRFsuite's tagger or numpy Viterbi and marginals, BIO decoder, the post-CRF chain as
``rules``: clinical filter, rule overlay, Safe Harbor layer, token bounds),
so the wrapper costs one ``perf_counter`` pair per call, not per token. A routed model's
router is timed as ``route`` and each member's stages also as that member's
(:mod:`crfdeid.experiments.bench.routed`).
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path

import pycrfsuite

from ...crf.crfsuite import CrfsuiteBackend
from ...crf.numpy import tagger as numpy_tagger
from ...io import WRITERS, StreamWriter, read, writer, writer_names
from ...recognizers.chain import Chain
from ...routing import RoutedModel
from ...tagging import model as model_mod
from ...tagging.decoding import AveragedBackend
from ...tagging.model import tokens_for
from ...text.tokenize import segments
from . import routed

#: Stages of the tag path, in pipeline order.
STAGES = ("read", "tokenize", "featurize", "crf", "decode", "rules", "write", "other")
#: A routed model's: the router's step after reading (its members' stages: ``routed.MEMBER_STAGES``).
ROUTED_STAGES = ("read", "route", *STAGES[1:])


class _Clock:
    """Seconds spent per stage; within a routed model's member (``member``), that member's too."""

    def __init__(self):
        self.seconds = Counter()
        self.tokens = 0
        #: The routed member whose work is running (None: the whole process's stages only).
        self.member: str | None = None
        self.by_member: dict[str, defaultdict[str, float]] = {}

    def add(self, stage: str, seconds: float, tokens: int = 0) -> None:
        self.seconds[stage] += seconds
        self.tokens += tokens
        if self.member is not None:
            got = self.by_member.setdefault(self.member, defaultdict(float))
            got[stage] += seconds
            got["tokens"] += tokens

    def tokenizer(self, fn):
        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            toks = fn(*args, **kwargs)
            self.add("tokenize", time.perf_counter() - t0, len(toks))
            return toks
        return timed

    def wrap(self, stage, fn):
        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - t0)
        return timed


class _TimedTagger:
    """Stands in for ``pycrfsuite.Tagger``: times ``tag`` and ``marginal`` (CRFsuite work)."""

    def __init__(self, tagger, clock):
        self._tagger = tagger
        self.tag = clock.wrap("crf", tagger.tag)
        self.marginal = clock.wrap("crf", tagger.marginal)

    def __getattr__(self, name):
        return getattr(self._tagger, name)


def _crf_parts(backend) -> list:
    """The CRF backends of ``backend``: itself, or the main side and every vote of each (nested) vote."""
    if isinstance(backend, AveragedBackend):  # a companion's or the priors' votes (prior.also too): all are timed
        return [part for side in (backend.main, *backend.votes) for part in _crf_parts(side)]
    return [backend]


def _time_backend(backend, clock, undo: list) -> None:
    """Wrap the featurizer (or emission scorer) and CRFsuite's tagger of ``backend``'s CRFs."""
    for part in _crf_parts(backend):
        if isinstance(part, CrfsuiteBackend):
            undo.append((part, "tagger", part.tagger))
            part.tagger = _TimedTagger(part.tagger, clock)
            obj, name = part.featurizer, "featurize"
        else:
            obj, name = part.scorer, "scores_many"
        if name in vars(obj):  # a featurizer both CRFs read (a prior of the same features): timed once
            continue
        setattr(obj, name, clock.wrap("featurize", getattr(obj, name)))
        undo.append((obj, name, None))


@contextmanager
def _instrumented(model, clock):
    saved = (model_mod.tokens_for, model_mod.decode, Chain.run, numpy_tagger.viterbi, numpy_tagger.marginals)
    model_mod.tokens_for = clock.tokenizer(saved[0])
    model_mod.decode = clock.wrap("decode", saved[1])
    Chain.run = clock.wrap("rules", saved[2])  # the whole post-CRF chain
    numpy_tagger.viterbi = clock.wrap("crf", saved[3])
    numpy_tagger.marginals = clock.wrap("crf", saved[4])
    undo: list = []
    try:
        if isinstance(model, RoutedModel):  # the router's step, and each member's stages as its own
            routed.time_members(model, clock, undo)
            for member in model.members.values():
                _time_backend(member._backend, clock, undo)
        else:
            _time_backend(model._backend, clock, undo)
        yield
    finally:
        (model_mod.tokens_for, model_mod.decode, Chain.run, numpy_tagger.viterbi, numpy_tagger.marginals) = saved
        for obj, name, value in reversed(undo):
            if value is None:
                delattr(obj, name)  # back to the class method
            else:
                setattr(obj, name, value)


def _timed_iter(docs, clock):
    it = iter(docs)
    while True:
        t0 = time.perf_counter()
        try:
            doc = next(it)
        except StopIteration:
            return
        finally:
            clock.seconds["read"] += time.perf_counter() - t0
        yield doc


def tag_end_to_end(model, spec: str, output_format: str = "i2b2", out_dir=None) -> dict:
    """Tag every document of ``spec`` and write it, timing the whole and each stage.

    Parameters
    ----------
    model : crfdeid.crf.model.Model
    spec : str
        ``FORMAT:PATH`` of the corpus (read lazily, as the tag CLI does).
    output_format : str
        Writer used for the output (to a temporary folder unless ``out_dir``); a
        stream writer (``jsonl``) writes one file, ``tagged.<format>``, in it.

    Returns
    -------
    dict
        ``documents``, ``tokens``, ``seconds``, ``tokens_per_s``, ``notes_per_s``,
        ``stage_seconds`` and ``stage_share`` (fractions of ``seconds``, ``other``
        being the remainder: the loop, ``Document`` building, confidences). A routed model's
        also have ``route`` (its router reading each note) and ``members``: each member's notes,
        tokens, seconds and stages (:func:`crfdeid.experiments.bench.routed.member_figures`).
    """
    clock = _Clock()
    n_docs = 0
    tmp = tempfile.TemporaryDirectory(prefix="crfdeid-bench-") if not out_dir else None
    try:
        target = Path(out_dir) if tmp is None else Path(tmp.name)
        writer_names()  # registers the plugin writers
        if issubclass(WRITERS.get(output_format), StreamWriter):
            target = target / f"tagged.{output_format}"
        out = writer(output_format, target)
        out.write = clock.wrap("write", out.write)
        with _instrumented(model, clock):
            t0, c0 = time.perf_counter(), time.process_time()
            with out:
                for _, tagged in model.tag_each(_timed_iter(read(spec), clock)):
                    if isinstance(tagged, Exception):
                        raise tagged
                    out.write(tagged)
                    n_docs += 1
            seconds = time.perf_counter() - t0
            cpu = time.process_time() - c0
        n_tokens = clock.tokens
    finally:
        if tmp is not None:
            tmp.cleanup()
    names = ROUTED_STAGES if isinstance(model, RoutedModel) else STAGES
    stage = {s: clock.seconds.get(s, 0.0) for s in names if s != "other"}
    stage["other"] = max(0.0, seconds - sum(stage.values()))
    members = {"members": routed.member_figures(clock, seconds)} if isinstance(model, RoutedModel) else {}
    return {"documents": n_docs, "tokens": n_tokens, "seconds": round(seconds, 3),
            "tokens_per_s": round(n_tokens / seconds) if seconds else None,
            "notes_per_s": round(n_docs / seconds, 1) if seconds else None,
            "cpu_seconds": round(cpu, 3), "tokens_per_cpu_s": round(n_tokens / cpu) if cpu else None,
            "stage_seconds": {k: round(v, 3) for k, v in stage.items()},
            "stage_share": {k: round(v / seconds, 3) if seconds else 0.0 for k, v in stage.items()},
            **members}


def _timed_tagging(tagger, seqs, marginals: bool) -> tuple[float, float]:
    """Wall and CPU seconds of ``set`` + ``tag`` (+ P(O) of every token) on each sequence."""
    t0, c0 = time.perf_counter(), time.process_time()
    for seq in seqs:
        tagger.set(seq)
        tagger.tag()
        if marginals:
            for t in range(len(seq)):
                tagger.marginal("O", t)
    return time.perf_counter() - t0, time.process_time() - c0


def crfsuite_only(model, spec: str) -> dict:
    """CRFsuite's own tagging time on precomputed features, for the same tokens.

    Every segment's ``pycrfsuite.ItemSequence`` is built beforehand (tokenize,
    featurize, convert); the timed part is only ``tagger.set(seq)`` (attribute
    look-up in the model's dictionary, state scores) plus ``tagger.tag()``
    (Viterbi), per segment, in one process. Marginals (recall-oriented decoding)
    are timed separately as ``marginal_seconds``: one ``tagger.marginal`` call per
    token, which is what ``decoding.o_threshold`` costs.

    A routed model's notes go to the member its router chooses, each member's CRF is timed on
    its own notes (``members``) and the figures are their sums; ``marginal_seconds`` sums those
    of the members that decode with ``o_threshold``. A member's prior or companion CRF is not in
    the figures (the end to end run computes its marginals too).
    """
    if not isinstance(model, RoutedModel):
        return _crfsuite_on(model, read(spec))
    notes: dict[str, list] = {name: [] for name in model.members}
    for doc in read(spec):
        notes[model.choose(doc.text)].append(doc)
    members = {name: _crfsuite_on(model.members[name], docs) for name, docs in notes.items()}
    out: dict = {key: round(sum(m[key] for m in members.values()), 3)
                 for key in ("tokens", "sequences", "seconds", "cpu_seconds", "prepare_seconds")}
    for key in ("marginal_seconds", "marginal_cpu_seconds"):
        out[key] = round(sum(m[key] for name, m in members.items()
                             if routed.decodes_with_marginals(model.members[name])), 3)
    out["tokens_per_s"] = round(out["tokens"] / out["seconds"]) if out["seconds"] else None
    return dict(out, members=members)


def _crfsuite_on(model, docs) -> dict:
    """:func:`crfsuite_only` of one CRF model on the documents ``docs``."""
    split = model.config["tokenizer"]["split_glued"]
    max_len = model.config["segment"]["max_len"]
    seqs: list[pycrfsuite.ItemSequence] = []
    n_tokens = 0
    t0 = time.perf_counter()
    for doc in docs:
        toks = tokens_for(doc.text, split)
        feats = model.features(doc.text, toks)
        n_tokens += len(toks)
        seqs.extend(pycrfsuite.ItemSequence(feats[a:b]) for a, b in segments(doc.text, toks, max_len))
    prep = time.perf_counter() - t0
    seconds, cpu = _timed_tagging(model._tagger, seqs, marginals=False)
    with_marg, with_marg_cpu = _timed_tagging(model._tagger, seqs, marginals=True)
    return {"tokens": n_tokens, "sequences": len(seqs), "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu, 3),
            "tokens_per_s": round(n_tokens / seconds) if seconds else None,
            "marginal_seconds": round(max(0.0, with_marg - seconds), 3),
            "marginal_cpu_seconds": round(max(0.0, with_marg_cpu - cpu), 3),
            "prepare_seconds": round(prep, 3)}

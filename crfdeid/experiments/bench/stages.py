"""Timed tagging in one process: end to end with per-stage shares, and CRFsuite alone.

The end-to-end run goes through the real code path of the tag CLI (``read`` ->
``Model.tag_each`` -> ``writer.write``); the stages are timed by wrapping the
functions it calls (tokenizer, featurizer or emission scorer, CRF inference:
CRFsuite's tagger or numpy Viterbi and marginals, BIO decoder, the post-CRF chain as
``rules``: clinical filter, rule overlay, Safe Harbor layer, token bounds),
so the wrapper costs one ``perf_counter`` pair per call, not per token.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pycrfsuite

from ...crf.crfsuite import CrfsuiteBackend
from ...crf.numpy import tagger as numpy_tagger
from ...io import WRITERS, StreamWriter, read, writer, writer_names
from ...recognizers.chain import Chain
from ...tagging import model as model_mod
from ...tagging.decoding import AveragedBackend
from ...tagging.model import tokens_for
from ...text.tokenize import segments

#: Stages of the tag path, in pipeline order.
STAGES = ("read", "tokenize", "featurize", "crf", "decode", "rules", "write", "other")


class _Clock:
    """Seconds spent per stage."""

    def __init__(self):
        self.seconds = Counter()
        self.tokens = 0

    def tokenizer(self, fn):
        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            toks = fn(*args, **kwargs)
            self.seconds["tokenize"] += time.perf_counter() - t0
            self.tokens += len(toks)
            return toks
        return timed

    def wrap(self, stage, fn):
        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[stage] += time.perf_counter() - t0
        return timed


class _TimedTagger:
    """Stands in for ``pycrfsuite.Tagger``: times ``tag`` and ``marginal`` (CRFsuite work)."""

    def __init__(self, tagger, clock):
        self._tagger = tagger
        self.tag = clock.wrap("crf", tagger.tag)
        self.marginal = clock.wrap("crf", tagger.marginal)

    def __getattr__(self, name):
        return getattr(self._tagger, name)


@contextmanager
def _instrumented(model, clock):
    saved = (model_mod.tokens_for, model_mod.decode, Chain.run, numpy_tagger.viterbi, numpy_tagger.marginals)
    model_mod.tokens_for = clock.tokenizer(saved[0])
    model_mod.decode = clock.wrap("decode", saved[1])
    Chain.run = clock.wrap("rules", saved[2])  # the whole post-CRF chain
    numpy_tagger.viterbi = clock.wrap("crf", saved[3])
    numpy_tagger.marginals = clock.wrap("crf", saved[4])
    parts = [model._backend]
    if isinstance(parts[0], AveragedBackend):  # a companion CRF's vote: both CRFs are timed
        parts = [parts[0].main, parts[0].other]
    undo = []
    for backend in parts:
        if isinstance(backend, CrfsuiteBackend):
            undo.append((backend, "tagger", backend.tagger))
            backend.tagger = _TimedTagger(backend.tagger, clock)
            obj, name = backend.featurizer, "featurize"
        else:
            obj, name = backend.scorer, "scores_many"
        if name in vars(obj):  # a featurizer both CRFs read (a prior of the same features): timed once
            continue
        setattr(obj, name, clock.wrap("featurize", getattr(obj, name)))
        undo.append((obj, name, None))
    try:
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
        being the remainder: the loop, ``Document`` building, confidences).
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
    stage = {s: clock.seconds.get(s, 0.0) for s in STAGES if s != "other"}
    stage["other"] = max(0.0, seconds - sum(stage.values()))
    return {"documents": n_docs, "tokens": n_tokens, "seconds": round(seconds, 3),
            "tokens_per_s": round(n_tokens / seconds) if seconds else None,
            "notes_per_s": round(n_docs / seconds, 1) if seconds else None,
            "cpu_seconds": round(cpu, 3), "tokens_per_cpu_s": round(n_tokens / cpu) if cpu else None,
            "stage_seconds": {k: round(v, 3) for k, v in stage.items()},
            "stage_share": {k: round(v / seconds, 3) if seconds else 0.0 for k, v in stage.items()}}


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
    """
    split = model.config["tokenizer"]["split_glued"]
    max_len = model.config["segment"]["max_len"]
    seqs: list[pycrfsuite.ItemSequence] = []
    n_tokens = 0
    t0 = time.perf_counter()
    for doc in read(spec):
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

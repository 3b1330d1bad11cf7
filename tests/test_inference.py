"""The numpy tagging backend reproduces CRFsuite: weights, state scores, labels, marginals."""

from __future__ import annotations

import itertools
import pickle
import struct
import threading

import numpy as np
import pytest

from crfdeid.crf import Model
from crfdeid.crf.numpy.emission import EmissionScorer
from crfdeid.crf.numpy.tagger import marginals, viterbi
from crfdeid.crf.numpy.weights import read_weights
from crfdeid.errors import ModelError
from crfdeid.io import read
from crfdeid.tagging.model import tokens_for


@pytest.fixture(scope="module")
def models(small_model):
    model = small_model  # configs/synth-small.yaml on synth:40,7, trained once a worker (tests/conftest.py)
    return model, Model(model._crf, model.config, model.manifest, backend="crfsuite")


@pytest.fixture(scope="module")
def docs():
    return list(read("synth:15,99"))


def test_weights_are_the_dumped_ones_at_full_precision(models):
    model = models[1]
    w = read_weights(model._crf)
    info = model._tagger.info()  # text dump: six decimals
    assert w.labels == model.labels and set(w.attributes) == set(info.attributes)
    col = {lab: j for j, lab in enumerate(w.labels)}
    for (attr, lab), v in info.state_features.items():
        assert w.state[w.attributes[attr], col[lab]] == pytest.approx(v, abs=5.1e-7)
    for (a, b), v in info.transitions.items():
        assert w.transition[col[a], col[b]] == pytest.approx(v, abs=5.1e-7)
    assert np.count_nonzero(w.state) == len(info.state_features)
    assert np.count_nonzero(w.transition) == len(info.transitions)


@pytest.mark.parametrize("damage", [lambda b: b[:40], lambda b: b"xCRF" + b[4:],
                                    lambda b: b[:200] + b"\xff" * 16 + b[216:]])
def test_damaged_crfsuite_model_is_a_model_error(models, damage):
    with pytest.raises(ModelError):
        read_weights(damage(models[0]._crf), path="m.model")


def _attribute_refs(crf: bytes) -> int:
    """The offset of the attributes' backward array (CQDB) in a CRFsuite model's bytes."""
    off_attrs = struct.unpack_from("<4sI4s9I", crf, 0)[9]
    return off_attrs + struct.unpack_from("<4s5I", crf, off_attrs)[5]


@pytest.mark.parametrize("ref", [0xFFFFFFF0, 0])
def test_an_attribute_record_out_of_place_is_a_model_error(models, ref):
    crf = bytearray(models[0]._crf)
    at = _attribute_refs(bytes(crf)) + 4  # the second attribute's record: past the chunk, or the first's
    crf[at:at + 4] = struct.pack("<I", ref)
    with pytest.raises(ModelError, match="attributes"):
        read_weights(bytes(crf), path="m.model")


def test_a_feature_listed_twice_adds_up(models):
    crf = models[0]._crf
    w = read_weights(crf)
    off_feat = struct.unpack_from("<4sI4s9I", crf, 0)[7]
    first = np.frombuffer(crf, [("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("weight", "<f8")], 2, off_feat + 12)
    twice = bytearray(crf)
    twice[off_feat + 12 + 20:off_feat + 12 + 40] = first[:1].tobytes()  # the second feature becomes the first's copy
    got = read_weights(bytes(twice))
    (kind, src, dst, weight), (kind2, src2, dst2, weight2) = first.tolist()
    table, old = (got.state, w.state) if kind == 0 else (got.transition, w.transition)
    assert table[src, dst] == old[src, dst] + weight
    back = got.state if kind2 == 0 else got.transition
    assert back[src2, dst2] == (old[src, dst] + weight if (kind2, src2, dst2) == (kind, src, dst) else
                                (w.state if kind2 == 0 else w.transition)[src2, dst2] - weight2)


def test_the_sparse_state_weights_are_the_dense_table(models):
    w = read_weights(models[0]._crf)
    dense = w.state  # built from the rows
    assert dense.shape == (len(w.attributes) + 1, len(w.labels)) and not dense[w.unknown].any()
    ids = [w.unknown, 0, 3, 0, len(w.attributes) - 1]
    assert w.rows(ids).tobytes() == dense[ids].tobytes()
    rows = np.repeat(np.arange(len(w.indptr) - 1), np.diff(w.indptr))
    assert (dense[rows, w.columns] == w.values).all() and len(w.values) == np.count_nonzero(dense)
    assert all((np.diff(w.columns[a:b]) > 0).all() for a, b in zip(w.indptr[:-1], w.indptr[1:]))
    first = next(iter(w.attributes))  # row 0: a repeated attribute counts twice
    assert w.vector([first, "no such attribute", first]).tobytes() == dense[[0, 0]].sum(axis=0).tobytes()


def test_a_bar_in_a_word_gives_every_pair_its_bigram_attribute_names(models):
    scorer = EmissionScorer(models[0].featurizer, read_weights(models[0]._crf))
    attributes = {"bi-1:a|b|c": 0, "bi+1:a|b|c": 1, "bi+1:x|y": 2, "bi-1:|": 3, "bi+1:nobar": 4, "w:a|b": 5}
    pair_rows = scorer._pairs(attributes)
    expected: dict = {}
    for attr, row in attributes.items():
        for k, left, right in models[0].featurizer.bigram_pairs_of(attr):  # ("a", "b|c") and ("a|b", "c")
            expected.setdefault("|".join((left, right)), [scorer._unknown] * 2)[k] = row
    assert pair_rows == expected == {"a|b|c": [0, 1], "x|y": [scorer._unknown, 2], "|": [3, scorer._unknown]}


def test_attribute_maps_forgotten_past_their_bound_score_the_same(models, docs, monkeypatch):
    from crfdeid.crf.numpy import emission
    items = [(d.text, tokens_for(d.text)) for d in docs[:6]]
    got = EmissionScorer(models[0].featurizer, read_weights(models[0]._crf)).scores_many(items)
    monkeypatch.setattr(emission._Near, "LIMIT", 3)
    small = EmissionScorer(models[0].featurizer, read_weights(models[0]._crf))
    assert small.scores_many(items).tobytes() == got.tobytes()
    assert 0 < len(small._by_base) <= 3 and 0 < len(small._tok_by_base) <= 3


def test_state_scores_equal_summed_weights_of_the_attributes(models, docs):
    model = models[0]
    w = read_weights(model._crf)
    scorer = EmissionScorer(model.featurizer, w)
    for doc in docs[:5] + [docs[0].__class__("tiny", "Dr Lee", [], {})]:
        toks = tokens_for(doc.text)
        feats = model.featurizer.featurize(doc.text, toks)
        expected = np.array([w.vector(f) for f in feats])
        assert np.allclose(scorer.scores(doc.text, toks), expected, rtol=0, atol=1e-12)


def test_documents_scored_together_score_as_one_by_one(models, docs):
    # The windows stop at document ends: short documents (0, 1, 2 tokens) next to each other.
    scorer = EmissionScorer(models[0].featurizer, read_weights(models[0]._crf))
    texts = [d.text for d in docs[:4]] + ["", "Lee", "Dr Lee", "  ", "x", docs[4].text, "Mr. Smith, RN"]
    items = [(t, tokens_for(t)) for t in texts]
    together = scorer.scores_many(items)
    scorer.clear_cache()
    assert np.array_equal(together, np.concatenate([scorer.scores(t, k) for t, k in items]))


@pytest.mark.parametrize("o_threshold", [..., None, 0.95])
def test_numpy_backend_tags_like_crfsuite(models, docs, o_threshold):
    fast, ref = models
    expected = [ref.tag(d, o_threshold) for d in docs]
    for got in ([fast.tag(d, o_threshold) for d in docs], list(fast.tag_many(docs, o_threshold))):
        assert [g.spans for g in got] == [e.spans for e in expected]
        assert [g.meta["confidence"] for g in got] == [e.meta["confidence"] for e in expected]


def test_marginals_equal_crfsuite(models, docs):
    fast, ref = models
    for doc in docs[:5]:
        got, want = fast.marginals(doc), ref.marginals(doc)
        assert len(got) == len(want) > 0
        assert max(abs(g[k] - w[k]) for g, w in zip(got, want) for k in w) < 1e-9


def _brute_force(E, T):
    """Best score and marginals of one segment by enumerating every label sequence."""
    n, L = E.shape
    paths = list(itertools.product(range(L), repeat=n))
    scores = np.array([sum(E[t, y[t]] for t in range(n)) + sum(T[y[t - 1], y[t]] for t in range(1, n))
                       for y in paths])
    p = np.exp(scores - scores.max())
    p /= p.sum()
    marg = np.zeros((n, L))
    for y, q in zip(paths, p):
        marg[np.arange(n), y] += q
    return scores.max(), marg


@pytest.mark.parametrize("seed", range(6))
def test_viterbi_and_marginals_against_enumeration(seed):
    rng = np.random.default_rng(seed)
    L = 3
    lens = rng.integers(1, 5, size=4)
    ends = np.cumsum(lens)
    bounds = list(zip((ends - lens).tolist(), ends.tolist()))
    E = rng.normal(scale=2, size=(ends[-1], L))
    T = rng.normal(scale=2, size=(L, L))
    y, P = viterbi(E, T, bounds), marginals(E, T, bounds)
    assert np.allclose(P.sum(axis=1), 1.0)
    for a, b in bounds:
        best, marg = _brute_force(E[a:b], T)
        path = y[a:b]
        score = E[np.arange(a, b), path].sum() + sum(T[path[t - 1], path[t]] for t in range(1, b - a))
        assert score == pytest.approx(best, abs=1e-9)
        assert np.allclose(P[a:b], marg, atol=1e-9)


def test_a_failing_document_does_not_stop_the_others(models, docs, monkeypatch):
    fast = models[0]
    scores = fast._backend.scorer.scores_many
    bad = docs[2].text

    def flaky(items):
        items = list(items)
        if any(text == bad for text, _ in items):
            raise RuntimeError("boom")
        return scores(items)

    monkeypatch.setattr(fast._backend.scorer, "scores_many", flaky)
    out = list(fast.tag_each(docs[:5]))
    assert [d.doc_id for d, _ in out] == [d.doc_id for d in docs[:5]]
    assert isinstance(out[2][1], RuntimeError)
    assert all(not isinstance(t, Exception) for i, (_, t) in enumerate(out) if i != 2)


def test_backend_survives_pickling_and_unknown_backend_is_refused(models):
    ref = pickle.loads(pickle.dumps(models[1]))
    assert ref.backend == "crfsuite" and pickle.loads(pickle.dumps(models[0])).backend == "numpy"
    with pytest.raises(ValueError, match="numpy, crfsuite"):
        Model(ref._crf, ref.config, ref.manifest, backend="fortran")


@pytest.mark.slow
@pytest.mark.physionet
def test_physionet_labels_and_marginals_equal_crfsuite(physionet_docs):
    fast, ref = Model.load(), Model.load(backend="crfsuite")
    docs = physionet_docs[::8]
    got = list(fast.tag_many(docs, 0.8))
    want = [ref.tag(d, 0.8) for d in docs]
    assert [g.spans for g in got] == [w.spans for w in want]
    assert [g.meta["confidence"] for g in got] == [w.meta["confidence"] for w in want]
    for doc in docs[:20]:
        a, b = fast.marginals(doc), ref.marginals(doc)
        assert max(abs(x[k] - y[k]) for x, y in zip(a, b) for k in y) < 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_sparse_transitions_give_the_dense_labels_even_on_ties(seed, monkeypatch):
    from crfdeid.crf.numpy import sparse_max
    from crfdeid.crf.numpy import tagger as numpy_tagger
    rng = np.random.default_rng(seed)
    L = 30  # large and sparse enough for the sparse maximum
    T = np.where(rng.random((L, L)) < 0.05, rng.integers(-3, 4, size=(L, L)), 0).astype(float)
    T[:, 0] = rng.integers(-3, 4, size=L)  # one column done densely
    assert sparse_max.SparseMax.worth(T)
    E = rng.integers(-4, 4, size=(400, L)).astype(float)  # small integers: many exact ties
    ends = np.cumsum(rng.integers(1, 25, size=40))
    ends = ends[ends <= 400]
    bounds = list(zip([0] + ends[:-1].tolist(), ends.tolist()))
    E = E[:ends[-1]]
    sparse = numpy_tagger.viterbi(E, T, bounds)
    monkeypatch.setattr(sparse_max.SparseMax, "worth", staticmethod(lambda t: False))
    assert np.array_equal(sparse, numpy_tagger.viterbi(E, T, bounds))



def _viterbi_one_at_a_time(E, T):
    """Textbook Viterbi of one segment: back pointers stored at each step, the first best label on ties."""
    score, back = E[0].copy(), []
    for t in range(1, len(E)):
        sums = score[:, None] + T
        back.append(sums.argmax(axis=0))
        score = sums.max(axis=0) + E[t]
    path = [int(score.argmax())]
    for b in reversed(back):
        path.append(int(b[path[-1]]))
    return path[::-1]


@pytest.mark.parametrize("dense", [False, True])
def test_viterbi_takes_the_textbook_path_on_ties(dense, monkeypatch):
    # back pointers recomputed for the chosen labels only pick what stored ones would, first on ties
    from crfdeid.crf.numpy import sparse_max
    rng = np.random.default_rng(11)
    L = 30
    T = np.where(rng.random((L, L)) < 0.05, rng.integers(-2, 3, size=(L, L)), 0).astype(float)
    E = rng.integers(-2, 2, size=(300, L)).astype(float)  # small integers: many exact ties
    ends = np.cumsum(rng.integers(1, 30, size=30))
    ends = ends[ends <= 300]
    bounds = list(zip([0] + ends[:-1].tolist(), ends.tolist()))
    if dense:
        monkeypatch.setattr(sparse_max.SparseMax, "worth", staticmethod(lambda t: False))
    got = viterbi(E[:ends[-1]], T, bounds)
    assert [got[a:b].tolist() for a, b in bounds] == [_viterbi_one_at_a_time(E[a:b], T) for a, b in bounds]


def test_scores_started_from_the_first_block_equal_a_sum_from_zeros(models, docs, monkeypatch):
    # the own word rows are taken as the sums' first terms: the same bits as adding them to zeros
    from crfdeid.crf.numpy import emission
    texts = [d.text for d in docs[:6]] + ["", "Lee", "Dr Lee", "x"]
    items = [(t, tokens_for(t)) for t in texts]
    scorer = EmissionScorer(models[0].featurizer, read_weights(models[0]._crf))
    got = scorer.scores_many(items)

    def from_zeros(self, table, ids, offsets):
        out = np.zeros((len(ids), table.shape[2]))
        self.add(out, table, ids, offsets)
        return out

    monkeypatch.setattr(emission._Window, "start", from_zeros)
    scorer.clear_cache()
    assert np.array_equal(got, scorer.scores_many(items))
    assert got.tobytes() == scorer.scores_many(items).tobytes()

@pytest.mark.parametrize("segments", [1, 5, 200])
def test_the_chain_of_maxima_gives_the_reduceat_maxima(segments, monkeypatch):
    from crfdeid.crf.numpy import sparse_max
    rng = np.random.default_rng(segments)
    L = 40
    T = np.where(rng.random((L, L)) < 0.08, rng.integers(-3, 4, size=(L, L)), 0).astype(float)
    T[:, 3] = rng.integers(-3, 4, size=L)  # one column with a weight from every label
    step = sparse_max.SparseMax(T)
    prev = rng.integers(-4, 4, size=(L, segments)).astype(float)  # small integers: ties
    monkeypatch.setattr(sparse_max.SparseMax, "CHAIN_FROM", 1)
    chained = step(prev)
    monkeypatch.setattr(sparse_max.SparseMax, "CHAIN_FROM", segments + 1)
    assert np.array_equal(chained, step(prev))
    assert np.array_equal(chained, (prev[:, None, :] + T[:, :, None]).max(axis=0))


def test_the_sparse_maximum_is_built_once_a_transition_matrix():
    from crfdeid.crf.numpy import sparse_max
    rng = np.random.default_rng(7)
    L = 40
    T = np.where(rng.random((L, L)) < 0.08, rng.integers(-3, 4, size=(L, L)), 0).astype(float)
    step = sparse_max.sparse_max(T)
    assert step is sparse_max.sparse_max(T.copy())  # the same weights: the same maxima, built once
    other = T.copy()
    other[0, 1] += 1.0
    assert sparse_max.sparse_max(other) is not step
    prev = rng.integers(-4, 4, size=(L, 50)).astype(float)
    assert np.array_equal(step(prev), sparse_max.SparseMax(T)(prev))
    assert np.array_equal(sparse_max.sparse_max(other)(prev), (prev[:, None, :] + other[:, :, None]).max(axis=0))
    assert sparse_max.sparse_max(np.ones((L, L))) is None  # dense: not worth it


def test_small_inference_chunks_change_nothing(models, docs, monkeypatch):
    from crfdeid.crf.numpy import tagger as numpy_tagger
    fast, ref = models
    monkeypatch.setattr(numpy_tagger, "BATCH_TOKENS", 37)  # segments split across many chunks
    got = list(fast.tag_many(docs, 0.95)) + list(fast.tag_many(docs, None))
    want = [ref.tag(d, 0.95) for d in docs] + [ref.tag(d, None) for d in docs]
    assert [(g.spans, g.meta["confidence"]) for g in got] == [(w.spans, w.meta["confidence"]) for w in want]


@pytest.mark.parametrize("chosen", [None, "2"])
def test_blas_runs_one_thread_while_tagging_unless_the_user_chose(models, docs, chosen, monkeypatch):
    # a program that imported numpy before crfdeid has OpenBLAS's pool of a thread per core; the tagger
    # limits it to one for its batch and puts it back; a user's OPENBLAS_NUM_THREADS is left alone
    from threadpoolctl import threadpool_info, threadpool_limits

    from crfdeid.crf.numpy import tagger as numpy_tagger

    def blas_threads():
        return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]

    for name in numpy_tagger._BLAS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    if chosen:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", chosen)
    seen = []
    real = numpy_tagger.marginals
    def spy(*a):  # what the main thread's batches run with (OpenBLAS reports a worker thread's own setting)
        if threading.current_thread() is threading.main_thread():
            seen.append(blas_threads())
        return real(*a)

    monkeypatch.setattr(numpy_tagger, "marginals", spy)
    fast, _ = models
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        list(fast.tag_many(docs[:3], 0.95))
        assert blas_threads() == before  # put back
        workers = [threading.Thread(target=lambda: list(fast.tag_many(docs[:6], 0.95))) for _ in range(3)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert blas_threads() == before  # batches in several threads at once: the last one out puts it back
    if not before:
        pytest.skip("no BLAS library loaded")
    assert seen and all(threads == ([1] * len(before) if not chosen else before) for threads in seen)

"""Patient-grouped folds and train/test splits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.document import Document
from crfdeid.errors import ConfigError
from crfdeid.io.splits import assign_folds, kfold, subsample, train_test_split


def corpus(notes_per_patient, words=None):
    """Documents ``P-N`` (i2b2-style ids, so the group is the patient number)."""
    docs = []
    for p, n in enumerate(notes_per_patient):
        for k in range(n):
            text = " ".join(["word"] * (words[p] if words else 3))
            docs.append(Document(f"{100 + p}-{k + 1:02d}", text))
    return docs


corpora = st.lists(st.integers(1, 6), min_size=2, max_size=25).map(corpus)


@settings(max_examples=60, deadline=None)
@given(docs=corpora, k=st.integers(2, 10), seed=st.integers(0, 3))
def test_kfold_invariants(docs, k, seed):
    k = min(k, len({d.group for d in docs}))
    folds = kfold(docs, k, seed=seed)
    assert len(folds) == k
    tested = sorted(i for f in folds for i in f.test)
    assert tested == list(range(len(docs)))  # every document in exactly one test fold
    for f in folds:
        assert sorted(f.train + f.test) == list(range(len(docs)))
        assert {docs[i].group for i in f.train}.isdisjoint({docs[i].group for i in f.test})
        assert f.test  # no empty fold


@settings(max_examples=40, deadline=None)
@given(docs=corpora, seed=st.integers(0, 3), size=st.floats(0.05, 0.95))
def test_train_test_split_keeps_patients_apart(docs, seed, size):
    train, test = train_test_split(docs, size, seed=seed)
    assert sorted(train + test) == list(range(len(docs)))
    assert train and test
    assert {docs[i].group for i in train}.isdisjoint({docs[i].group for i in test})


@settings(max_examples=40, deadline=None)
@given(docs=corpora, seed=st.integers(0, 3), fraction=st.floats(0.01, 1.0))
def test_subsample_keeps_whole_patients(docs, seed, fraction):
    fold = kfold(docs, 2, seed=seed)[0]
    kept = subsample(docs, fold.train, fraction, seed)
    groups = {docs[i].group for i in fold.train}
    kept_groups = {docs[i].group for i in kept}
    assert kept == [i for i in fold.train if docs[i].group in kept_groups]  # order kept, whole groups
    assert len(kept_groups) == max(1, round(fraction * len(groups)))
    assert kept == subsample(docs, fold.train, fraction, seed)  # deterministic


def test_subsample_of_everything_and_bad_fractions():
    docs = corpus([2, 3, 1, 2])
    assert subsample(docs, range(8), 1.0, seed=5) == list(range(8))
    for bad in (0.0, -0.5, 1.5):
        with pytest.raises(ConfigError, match="fraction"):
            subsample(docs, range(8), bad)


def test_same_seed_same_folds_other_seed_other_folds():
    docs = corpus([2] * 20)
    assert assign_folds(docs, 4, seed=7) == assign_folds(docs, 4, seed=7)
    assert assign_folds(docs, 4, seed=7) != assign_folds(docs, 4, seed=8)


def test_folds_are_balanced_by_documents():
    docs = corpus([5, 1, 1, 1, 1, 1, 4, 3, 2, 1])  # 20 notes
    sizes = sorted(len(f.test) for f in kfold(docs, 4, seed=0))
    assert sizes == [5, 5, 5, 5]


def test_folds_can_be_balanced_by_tokens():
    # patient 0 has one very long note: by tokens it fills a fold on its own
    docs = corpus([1, 1, 1, 1, 1], words=[40, 10, 10, 10, 10])
    by_tokens = kfold(docs, 2, seed=0, by="tokens")
    assert sorted(len(f.test) for f in by_tokens) == [1, 4]
    by_docs = kfold(docs, 2, seed=0, by="documents")
    assert sorted(len(f.test) for f in by_docs) == [2, 3]


def test_physionet_style_patient_meta_groups_documents():
    docs = [Document(f"{p}-{n}", "x", meta={"patient": str(p)}) for p in (1, 2, 3) for n in (1, 2, 3)]
    for f in kfold(docs, 3, seed=1):
        assert len({docs[i].group for i in f.test}) == 1
        assert len(f.test) == 3


@pytest.mark.parametrize("k", [0, 1, 4])
def test_impossible_fold_counts_are_config_errors(k):
    with pytest.raises(ConfigError, match="3 patient groups"):
        kfold(corpus([1, 2, 3]), k)


def test_unknown_weight_is_config_error():
    with pytest.raises(ConfigError, match="known: documents, tokens"):
        kfold(corpus([1, 1]), 2, by="characters")


def test_split_of_one_group_is_an_error():
    with pytest.raises(ConfigError):
        train_test_split(corpus([3]), 0.5)


def test_group_lists_select_and_refuse_empty(tmp_path):
    from crfdeid.errors import ConfigError
    from crfdeid.io.splits import read_groups, select_groups
    f = tmp_path / "g.txt"
    f.write_text("# locked\n101\n\n103  # two\n")
    docs = [Document(f"{p}-0{n}", "x") for p in (101, 102, 103) for n in (1, 2)]
    assert read_groups(f) == {"101", "103"}
    assert {d.group for d in select_groups(docs, read_groups(f), keep=False)} == {"102"}
    assert len(select_groups(docs, read_groups(f), keep=True)) == 4
    f.write_text("# nothing\n")
    with pytest.raises(ConfigError, match="names no group"):
        read_groups(f)


def test_locked_list_names_a_quarter_of_the_physionet_patients():
    from pathlib import Path

    from crfdeid.io.splits import read_groups
    locked = read_groups(Path(__file__).resolve().parent.parent / "configs" / "splits" / "physionet-locked.txt")
    assert len(locked) == 27 and all(g.isdigit() for g in locked)

"""Where false positives come from (``experiments zero-shot --fp-paths``): each false-positive
token of the scorer is put on one decoding path (a rule, Viterbi, the month/day threshold, the
P(O) threshold), and the counts add up to the scorer's false positives. Made-up notes only."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli.experiments import main as experiments
from crfdeid.document import Document, make_span
from crfdeid.experiments import fppaths, zeroshot

TEXT = "Seen by Dr Smith, hd 8/9, bowel care, sent to Mercy."
#        0         1         2         3         4         5


def _at(word: str, subtype: str):
    start = TEXT.index(word)
    return make_span(start, start + len(word), subtype)


class FakeModel:
    """Configured decoding: Smith (gold), 8/9, bowel and care by the model, Mercy by a rule;
    Viterbi alone: Smith and care."""

    def tag_many(self, docs, o_threshold=..., options=None):
        found = {"crf": ["Smith", "8/9", "bowel", "care"], "rules.v1": ["Mercy"]}
        if o_threshold is None:
            found = {"crf": ["Smith", "care"]}
        for d in docs:
            spans = sorted((_at(w, "DATE" if "/" in w else "DOCTOR"), step) for step, ws in found.items() for w in ws)
            steps = [[{"step": step, "action": "found", "reason": ""}] for _, step in spans]
            yield Document(d.doc_id, d.text, [sp for sp, _ in spans], {"explain": {"spans": steps, "dropped": []}})


@pytest.fixture
def gold():
    return [Document("n1", TEXT, [_at("Smith", "DOCTOR")], {})]


def test_each_false_positive_token_gets_one_path_and_they_add_up_to_the_scorers(gold):
    out = fppaths.run(gold, FakeModel())
    assert out["by_path"] == {"month/day threshold": 2, "P(O) threshold": 1, "viterbi": 1, "rule rules.v1": 1}
    pred = list(FakeModel().tag_many(gold))
    assert out["fp"] == zeroshot.figures(gold, pred)["fp"] == 5
    assert out["by_path_subtype"]["month/day threshold | DATE"] == 2
    assert out["by_word_class"]["P(O) threshold | plain lower"] == 1  # bowel: a plain word


@pytest.mark.parametrize("word, cls", [("12", "number"), ("bowel", "plain lower"), ("KOWALSKI", "name/place UPPER"),
                                       ("Qzxv", "unlisted Cap"), ("Black", "plain+name/place Cap")])
def test_word_classes_follow_the_shipped_lists(word, cls):
    assert fppaths.word_class(word) == cls


def test_the_command_prints_counts_and_refuses_a_recognizer(tmp_path, capsys):
    out = tmp_path / "z.json"
    assert experiments(["zero-shot", "--corpus", "synth:4,3", "--o-thresholds", "default", "--fp-paths",
                        "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["fp_paths"]["fp"] == res["runs"]["default"]["fp"]
    assert "by decoding path" in capsys.readouterr().out
    assert experiments(["zero-shot", "--recognizer", "rules.v1", "--corpus", "synth:2,3", "--fp-paths"]) != 0
    assert "--fp-paths wants a model" in capsys.readouterr().err

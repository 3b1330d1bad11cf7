"""A user's own Spanish model (issue 58: the Spanish BRAT corpus' strict F1 fell 0.9647 -> 0.9618):
the Safe Harbor layer's finds that the CRF missed are written in the corpus' own labels, learned
from the training notes, not as i2b2 labels scored as false spans."""

from __future__ import annotations

import json

import pytest
from es_brat_corpus import LABELS, make_corpus

from crfdeid import load
from crfdeid.cli import main
from crfdeid.document import Span
from crfdeid.recognizers import safeharbor

FAST = ["--set", "crf.max_iterations=30"]


@pytest.fixture(scope="module")
def piped(tmp_path_factory):
    root = tmp_path_factory.mktemp("es")
    train, test = make_corpus(root, train=60, test=20, seed=3)
    out = root / "out"
    assert main(["pipeline", "--train", f"brat:{train}", "--test", f"brat:{test}", "--out", str(out),
                 "--quiet", *FAST]) == 0
    return out, test


def labels_of(ann_dir):
    return [line.split("\t")[1].split()[0] for p in sorted(ann_dir.glob("*.ann"))
            for line in p.read_text(encoding="utf-8").splitlines()]


def test_the_model_learns_which_own_label_the_layers_kinds_carry(piped):
    out, _ = piped
    learned = load(out / "model").manifest["safe_harbor_labels"]
    assert learned["PHONE"] == ["NUMERO_TELEFONO", "NUMERO_TELEFONO"]
    assert learned["EMAIL"] == ["CORREO_ELECTRONICO", "CORREO_ELECTRONICO"]
    assert set(learned) <= {"DATE", "EMAIL", "IDNUM", "PHONE", "SSN", "ZIP"}


def test_no_i2b2_phone_among_a_spanish_models_spans(piped):
    """Before, the phones only the layer found came out as ``PHONE`` and scored as false spans;
    ``FAX`` stays (the training notes hold no fax: no evidence of the corpus' fax label)."""
    out, test = piped
    predicted = labels_of(out / "predictions")
    assert "PHONE" not in predicted
    assert set(predicted) <= set(LABELS.values()) | {"FAX"}
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert "PHONE" not in scores["by_subtype"]
    assert scores["by_subtype"]["NUMERO_TELEFONO"]["strict"]["tp"] >= 1


@pytest.mark.parametrize(("text", "found"), [
    ("Teléfono: (+34) 612 345 678.", "(+34) 612 345 678"),   # the bracket is the number's
    ("Tel: +34 91 555 12 34", "+34 91 555 12 34"),
    ("call (+1) 617 555 0199 today", "(+1) 617 555 0199"),
])
def test_an_international_phone_keeps_its_bracketed_country_code(text, found):
    assert found in [text[s.start:s.end] for s in safeharbor.find(text)]


def test_relabel_only_where_no_predicted_span_joins():
    text = "Tel. (+34) 612 345 678; fax al 958308106."
    own = {"PHONE": ["NUMERO_TELEFONO", "NUMERO_TELEFONO"]}
    got = safeharbor.apply(text, [], keep_predicted=True, relabel=own)
    assert [(text[s.start:s.end], s.subtype) for s in got] == [
        ("(+34) 612 345 678", "NUMERO_TELEFONO"), ("958308106", "FAX")]
    predicted = [Span(5, 10, "OTRO", "OTRO")]   # a predicted span keeps its own label
    assert [s.subtype for s in safeharbor.apply(text, predicted, keep_predicted=True, relabel=own)][0] == "OTRO"

"""Surrogate output, the sixth round (issue 58 item 3, docs/deid.md "Sixth round"): what stayed after check10
judged it. Real dates, streets, names and postcodes keep realistic surrogates; the made-up measure aligns the
output on the spans the writer wrote; the model's word per token is computed only for output that may reach a
surrogate writer. (The round's five placeholder shapes mended nothing on check10 and were taken out.) Every
note is made up."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document
from crfdeid.experiments import madeup_outputs as mo


def written(doc: Document) -> list[str]:
    out = Surrogator(seed=7).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


REAL = [
    ("Seen in clinic on 10/14 with her daughter.", "10/14", "DATE"),
    ("Next visit 3-4 for the dressing.", "3-4", "DATE"),
    ("Lives at 12 West Larkspur Road with her son.", "12 West Larkspur Road", "STREET"),
    ("Discussed with Dr. Ann Ferrara today.", "Ann Ferrara", "DOCTOR"),
    ("Postcode 75011 Paris.", "75011", "ZIP"),
]


@pytest.mark.parametrize("text, surface, sub", REAL)
def test_a_real_date_street_name_or_postcode_keeps_a_realistic_surrogate(text, surface, sub):
    [new] = written(tagged(text, (surface, sub, 0.999)))
    assert "[**" not in new and new != surface


def test_the_measure_aligns_on_the_spans_the_writer_wrote(tmp_path):
    # the writer adds the repeat of the hospital; aligned on the tagged spans alone, the output's placeholder
    # beside a phone read as the phrase written as a phone number (counted falsified though a placeholder)
    text = "Referred to Urologic Oncology   clinic (505) 555-0163 today. Urologic Oncology   clinic will call."
    doc = tagged(text, ("Urologic Oncology   clinic", "HOSPITAL", 0.99), ("(505) 555-0163", "PHONE", 0.99))
    out = SurrogateWriter(tmp_path, seed="s").transform(doc)
    i = text.index("Urologic")
    gold = Document("n1", text, [doc.spans[1]], {"keep": [[i, i + 17, "role"]]})
    assert out.surface(out.spans[0]) == "[**HOSPITAL**]"
    assert mo.score_note(gold, out, doc.spans)["falsified"] == {"role": 1}  # the old misreading
    assert mo.score_note(gold, out, mo._written_spans("n1", doc))["falsified"] == {}


def test_the_models_word_per_token_only_where_a_surrogate_writer_may_read_it(shipped_model, tmp_path, monkeypatch):
    from crfdeid.tagging.session import Session
    text = "Seen by Dr. Rao. MRN 00482913. Address 12 Larkspur Road, Tacoma WA 98402."
    assert Session(shipped_model, "redacted", crf_evidence=False).chain_options.get("crf_evidence") is False
    for fmt in ("redacted", "masked", "surrogate", "spans", "fhir"):  # what a session tags may reach any writer
        assert "crf_evidence" not in Session(shipped_model, fmt).chain_options
    full = shipped_model.tag_text(text)
    lean = shipped_model.tag_text(text, options={"crf_evidence": False})
    assert full.spans == lean.spans and full.meta["confidence"] == lean.meta["confidence"]  # the same spans
    assert all(sp.crf_confidence is not None for sp in full.spans)
    changed = [sp for sp in lean.spans if sp.crf_confidence is None]  # a span the chain made: nobody pays
    assert changed and all(sp.confidence == 1.0 for sp in changed)
    from crfdeid.cli import tag as tag_cli  # `tag` renders redacted and masked output itself: it leaves it out
    made = []
    monkeypatch.setattr(tag_cli, "Session", lambda *a, **k: made.append(k.get("crf_evidence")) or Session(*a, **k))
    (tmp_path / "n1.txt").write_text(text, encoding="utf-8")
    for fmt, more in (("redacted", []), ("jsonl", []), ("surrogate", ["--seed", "s"])):
        assert tag_cli.main([str(tmp_path / "n1.txt"), "--quiet", "--output-format", fmt, *more,
                             "--output-dir", str(tmp_path / fmt)]) == 0
    assert made == [False, False, True]
    from crfdeid.io.jsonl import render  # a writer of spans writes no model's word: the same record without it
    assert render(full) == render(lean)


def test_a_spawned_worker_of_a_redacting_session_leaves_the_models_word_out_too(monkeypatch, shipped_model):
    from crfdeid.tagging import session as session_module
    parent = session_module.Session(shipped_model, "redacted", crf_evidence=False)
    monkeypatch.setattr(session_module, "_WORKER", None)
    session_module._init_worker(parent._spec())
    assert session_module._WORKER.chain_options == parent.chain_options == {"crf_evidence": False}

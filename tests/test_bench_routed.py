"""The benchmark on a routed model: the router's step and each member's stages timed, the notes each
member got counted, the outputs unchanged (the tiny routed model of ``routed_kit``; the shipped one,
whose specialty member votes with a prior, on two made-up notes)."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from routed_kit import NURSING, OPERATIVE

from crfdeid.cli import bench as bench_cli
from crfdeid.crf import Model
from crfdeid.document import Document
from crfdeid.experiments.bench import _describe
from crfdeid.experiments.bench.report import format_table, ratios
from crfdeid.experiments.bench.routed import MEMBER_STAGES
from crfdeid.experiments.bench.stages import ROUTED_STAGES, crfsuite_only, tag_end_to_end
from crfdeid.io import read, writer
from crfdeid.routing import RoutedModel
from crfdeid.synth import generate
from crfdeid.tagging.model import tokens_for

MACHINE = {"cpu": "c", "cores": 2, "ram_gb": 1, "load_average": [1]}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """``text:FOLDER`` of made-up notes of both kinds: the router sends some to each member."""
    folder = tmp_path_factory.mktemp("notes")
    docs = [d.text for d in generate(3, 5, "specialty") + generate(4, 5, "mix_icu")] + [OPERATIVE, NURSING]
    for i, text in enumerate(docs):
        (folder / f"n{i}.txt").write_text(text, encoding="utf-8")
    return f"text:{folder}"


def _routes(model, spec) -> Counter:
    return Counter(model.choose(doc.text) for doc in read(spec))


def _tokens_by_member(model, spec) -> Counter:
    got: Counter = Counter()
    for doc in read(spec):
        member = model.choose(doc.text)
        got[member] += len(tokens_for(doc.text, model.members[member].config["tokenizer"]["split_glued"]))
    return got


def test_each_member_gets_its_notes_tokens_and_timed_stages(routed_model, corpus):
    model = Model.load(routed_model[1])
    assert isinstance(model, RoutedModel)
    routes, tokens = _routes(model, corpus), _tokens_by_member(model, corpus)
    assert set(routes) == {"icu", "specialty"} and all(routes.values())  # both members tag
    decide = model.decide
    def slow_decide(text):  # the router reads these notes in under 0.5 ms, which rounds to 0.000 s
        time.sleep(0.001)
        return decide(text)
    model.decide = slow_decide  # type: ignore[method-assign]
    res = tag_end_to_end(model, corpus)
    members = res["members"]
    assert {name: m["documents"] for name, m in members.items()} == routes == model.counts
    assert {name: m["tokens"] for name, m in members.items()} == tokens
    assert res["documents"] == sum(routes.values()) and res["tokens"] == sum(tokens.values())
    assert list(res["stage_share"]) == list(ROUTED_STAGES) and res["stage_seconds"]["route"] > 0
    assert sum(res["stage_share"].values()) == pytest.approx(1.0, abs=0.01)
    for m in members.values():
        assert list(m["stage_seconds"]) == list(MEMBER_STAGES)
        assert all(m["stage_seconds"][s] > 0 for s in ("featurize", "crf", "rules"))
        assert sum(m["stage_share"].values()) == pytest.approx(1.0, abs=0.01)
        assert 0 < m["seconds"] < res["seconds"] and 0 < m["share_of_whole"] < 1
    # a member's stages are parts of the whole run's: their sums are within it (rounding aside)
    for stage in ("tokenize", "featurize", "crf", "decode", "rules"):
        inside = sum(m["stage_seconds"][stage] for m in members.values())
        assert inside == pytest.approx(res["stage_seconds"][stage], abs=0.002)
    assert sum(m["seconds"] for m in members.values()) <= res["seconds"] + 0.002


def test_timing_a_routed_model_changes_no_output_and_is_removed(routed_model, corpus, tmp_path):
    model = Model.load(routed_model[1])
    plain = tmp_path / "plain.jsonl"
    with writer("jsonl", plain) as out:
        for _, tagged in model.tag_each(read(corpus)):
            out.write(tagged)
    timed = tmp_path / "timed"
    timed.mkdir()
    tag_end_to_end(model, corpus, "jsonl", out_dir=timed)
    assert (timed / "tagged.jsonl").read_bytes() == plain.read_bytes()
    assert "choose" not in vars(model)
    for member in model.members.values():
        assert "tag_each" not in vars(member) and "scores_many" not in vars(member._backend.scorer)


def test_crfsuite_alone_tags_each_members_notes(routed_model, corpus):
    model = Model.load(routed_model[1])
    e2e, crf = tag_end_to_end(model, corpus), crfsuite_only(model, corpus)
    assert {name: m["tokens"] for name, m in crf["members"].items()} == _tokens_by_member(model, corpus)
    assert crf["tokens"] == e2e["tokens"] and crf["sequences"] == sum(m["sequences"] for m in crf["members"].values())
    assert crf["seconds"] == pytest.approx(sum(m["seconds"] for m in crf["members"].values()), abs=0.002)


def test_the_table_has_the_routers_row_and_a_section_per_member(routed_model, corpus):
    model = Model.load(routed_model[1])
    res = {"corpus": corpus, "machine": MACHINE, "tag_end_to_end": tag_end_to_end(model, corpus),
           "crfsuite_only": crfsuite_only(model, corpus)}
    res.update(ratios(res["tag_end_to_end"], res["crfsuite_only"], marginals=True))
    table = format_table(res)
    routes = _routes(model, corpus)
    for name in ("icu", "specialty"):
        assert f"  member {name}" in table and f"{routes[name]} notes" in table
    assert table.count("% of the member") == 2 * len(MEMBER_STAGES)
    assert "\n  route " in table
    one = dict(res, tag_end_to_end={k: v for k, v in res["tag_end_to_end"].items() if k != "members"})
    assert "member" not in format_table(dict(one, crfsuite_only={k: v for k, v in res["crfsuite_only"].items()
                                                                 if k != "members"}))
    assert _describe(model, "M")["members"]["icu"]["features"] == "no_dict"


def test_the_command_takes_a_routed_model(routed_model, monkeypatch, capsys):
    asked = []
    res = {"corpus": "x", "machine": MACHINE}
    monkeypatch.setattr(bench_cli, "run", lambda args, say: asked.append(args.model) or res)
    assert bench_cli.main(["--no-train", "--model", str(routed_model[1]), "--quiet"]) == 0
    assert asked == [str(routed_model[1])] and "corpus" in capsys.readouterr().out


def test_the_shipped_models_members_and_the_prior_are_timed_and_left_as_they_were(shipped_model):
    """The shipped file is routed; its specialty member averages a prior's marginals."""
    model = shipped_model
    if not isinstance(model, RoutedModel):
        pytest.skip("the shipped model is not routed")
    docs = [Document("op", OPERATIVE), Document("nurse", NURSING)]
    before = [model.tag(d).spans for d in docs]
    names = [model.choose(d.text) for d in docs]
    from crfdeid.experiments.bench import stages
    clock = stages._Clock()
    with stages._instrumented(model, clock):
        during = [tagged.spans for _, tagged in model.tag_each(docs)]
    assert during == before
    assert {name: got["documents"] for name, got in clock.by_member.items() if got["documents"]} == Counter(names)
    for name in set(names):
        assert clock.by_member[name]["featurize"] > 0 and clock.by_member[name]["crf"] > 0
    for member in model.members.values():
        assert "tag_each" not in vars(member)
        for part in stages._crf_parts(member._backend):
            assert "scores_many" not in vars(part.scorer)
    assert [model.tag(d).spans for d in docs] == before


def test_the_crfsuite_backend_times_each_members_tagger_and_puts_it_back(routed_model, corpus):
    model = Model.load(routed_model[1], backend="crfsuite")
    taggers = {name: m._backend.tagger for name, m in model.members.items()}
    before = [tagged.spans for _, tagged in model.tag_each(read(corpus))]
    res = tag_end_to_end(model, corpus)
    for name, m in res["members"].items():
        assert m["documents"] > 0 and m["stage_seconds"]["featurize"] > 0 and m["stage_seconds"]["crf"] > 0
        assert model.members[name]._backend.tagger is taggers[name]
        assert "featurize" not in vars(model.members[name].featurizer)
    assert [tagged.spans for _, tagged in model.tag_each(read(corpus))] == before

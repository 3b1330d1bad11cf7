"""The post-CRF chain: registered span processors named in the config, Safe Harbor pinned last."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from routed_kit import shipped_crf

from crfdeid import schema
from crfdeid.config import load_config
from crfdeid.crf import Model
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError
from crfdeid.io import read
from crfdeid.recognizers import clinical, hygiene, phrases, safeharbor
from crfdeid.recognizers.chain import HYGIENE, TAIL, Note, build_chain, chain_of, legacy_entries, register
from crfdeid.recognizers.rules import overlay
from crfdeid.text.tokenize import for_tagging, to_token_bounds


@register("test_allow_list.v1")
@dataclass(frozen=True)
class AllowList:
    """Drops spans whose text the caller allows (``options["allow"]``) or the document does (``meta``)."""

    def __call__(self, note: Note, spans):
        allowed = {*note.options.get("allow", ()), *note.meta.get("allow", ())}
        return [sp for sp in spans if note.text[sp.start:sp.end] not in allowed]


def _hard_wired(text, spans, rules: bool, date_check=True, english=True, own_labels=False, split=True):
    """The chain as crfdeid wrote it before it was data (``_with_rules`` and ``final_spans``): the oracle."""
    if rules:
        if english:
            spans = clinical.drop_clinical(text, spans)
        spans = overlay(text, spans, date_check=date_check)
    kept = clinical.drop_clinical(text, spans) if english else list(spans)
    kept = hygiene.drop_junk(text, kept, stop_words=english)  # issue 26: no span that cannot be PHI
    kept = kept if own_labels else hygiene.drop_young_ages(text, kept)
    kept = hygiene.trim_punctuation(text, kept) if english and not own_labels else kept  # issue 34
    found = safeharbor.apply(text, kept, keep_predicted=own_labels)
    found = phrases.apply(text, found) if english and not own_labels else found  # issue 50
    return to_token_bounds(text, found, split)


NOTES = [d.text for d in read("synth:25,11")] + [d.text for d in read("synth:25,12,ward")] + [
    "Pt. seen with a walker by Dr. Lee; Foley in place, BP 80/60, age: 94, MRN 00482913.",
    "CP 4/10 at 2030, Drs Okafor and Lindqvist, Tues 9/3, fax 617-555-0199, B. Varga.",
]


@pytest.fixture(scope="module")
def default_model(shipped_model):
    return shipped_crf(shipped_model)  # its CRF, if the shipped file is routed


@pytest.mark.parametrize("rules, date_check", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("english", [True, False])
def test_legacy_chain_gives_what_the_hard_wired_chain_gave(default_model, rules, date_check, english):
    chain = build_chain(legacy_entries({"enabled": rules, "date_check": date_check}))
    for text in NOTES:
        item = default_model._item(text)
        labels, p_out, _ = default_model._label([item], 0.95)[0]
        spans = list(default_model._crf_spans(item[1], labels, p_out))
        note = Note(for_tagging(text), english=english)
        assert chain.run(note, spans) == _hard_wired(note.text, spans, rules, date_check, english)


def test_the_tagged_spans_are_those_of_the_hard_wired_chain(default_model):
    for text in NOTES:
        item = default_model._item(text)
        labels, p_out, _ = default_model._label([item], default_model.config["decoding"]["o_threshold"])[0]
        crf = list(default_model._crf_spans(item[1], labels, p_out))
        assert default_model.tag_text(text).spans == _hard_wired(item[0], crf, rules=True)


def test_a_model_saved_without_postprocess_runs_the_chain_its_rules_imply(default_model):
    assert "postprocess" not in default_model.manifest["config"] or default_model.config["postprocess"] is None
    assert default_model.chain.names() == ["clinical_filter.v1", "rules.v1", "name_extension.v1",
                                           "clinical_filter.v1", *HYGIENE, *TAIL]
    assert chain_of(load_config({})).names() == ["clinical_filter.v1", *HYGIENE, *TAIL]


def test_the_clinical_filter_judges_each_span_once_per_note(default_model, monkeypatch):
    calls = []
    why = clinical.why_clinical
    monkeypatch.setattr(clinical, "why_clinical", lambda text, sp: calls.append(sp) or why(text, sp))
    for text in NOTES:
        calls.clear()
        default_model.tag_text(text)
        assert len(calls) == len(set(calls))
    assert calls  # the filter ran


def test_safe_harbor_and_token_bounds_end_every_chain_and_cannot_move():
    assert build_chain([]).names() == list(TAIL)
    assert build_chain(["clinical_filter.v1", *TAIL]).names() == ["clinical_filter.v1", *TAIL]
    for entries in (["safe_harbor.v1"], ["token_bounds.v1"], [*TAIL, "clinical_filter.v1"],
                    ["safe_harbor.v1", "clinical_filter.v1", "token_bounds.v1"], list(reversed(TAIL))):
        with pytest.raises(ConfigError, match="end every chain"):
            build_chain(entries)
    with pytest.raises(ConfigError, match="take no arguments"):
        build_chain([{"name": "safe_harbor.v1", "keep_predicted": True}, "token_bounds.v1"])
    with pytest.raises(ConfigError, match="pinned"):
        build_chain([]).with_processor("safe_harbor.v1")


def test_unknown_processors_and_arguments_say_what_is_allowed():
    with pytest.raises(ConfigError, match=r"unknown span processor 'rule.v1'; known: .*clinical_filter.v1.*rules.v1"):
        build_chain(["rule.v1"])
    with pytest.raises(ConfigError, match=r"unknown argument\(s\) date of rules.v1; allowed: date_check"):
        build_chain([{"name": "rules.v1", "date": False}])
    with pytest.raises(ConfigError, match="allowed: \\(none\\)"):
        build_chain([{"name": "clinical_filter.v1", "strict": True}])
    with pytest.raises(ConfigError, match="date_check must be true or false"):
        build_chain([{"name": "rules.v1", "date_check": "no"}])
    with pytest.raises(ConfigError, match="a name or a mapping"):
        build_chain([{"date_check": True}])


def test_english_and_i2b2_processors_are_refused_elsewhere():
    with pytest.raises(ConfigError, match="rules.v1 is English"):
        build_chain(["rules.v1"], english=False)
    with pytest.raises(ConfigError, match="name_extension.v1 writes i2b2 2014 labels"):
        build_chain(["name_extension.v1"], i2b2=False)


def test_the_config_names_the_chain_and_the_resolved_config_shows_it_whole(tmp_path):
    cfg = load_config({"postprocess": ["clinical_filter.v1", {"name": "rules.v1"}]})
    assert cfg["postprocess"] == ["clinical_filter.v1", {"name": "rules.v1", "date_check": True}, *TAIL]
    assert load_config(cfg)["postprocess"] == cfg["postprocess"]  # a saved config loads as it was
    path = tmp_path / "c.yaml"
    path.write_text("postprocess: [rules.v1, safe_harbor.v1]\n")
    with pytest.raises(ConfigError, match="c.yaml.*end every chain"):
        load_config(path)
    with pytest.raises(ConfigError, match="name rules.v1 in postprocess instead"):
        load_config({"postprocess": [], "rules": {"enabled": True}})
    with pytest.raises(ConfigError, match="must be a list"):
        load_config({"postprocess": "rules.v1"})


def test_rules_beside_a_postprocess_list_is_refused_naming_both():
    # rules is the shorthand of a config without postprocess: beside a list it was not read
    for rules, shown in (({"date_check": False}, "date_check: false"), ({"enabled": True}, "enabled: true")):
        with pytest.raises(ConfigError, match=rf"rules and postprocess both configure the post-CRF chain: "
                                              rf"rules \({shown}\).*name rules.v1 in postprocess instead"):
            load_config({"postprocess": [{"name": "rules.v1"}], "rules": rules})
    # the defaults, which every resolved config holds, configure nothing: a saved config loads as it was
    cfg = load_config({"postprocess": ["clinical_filter.v1"]})
    assert cfg["rules"] == {"enabled": False, "date_check": True} and load_config(cfg) == cfg
    # the shorthand alone is the chain it implies
    assert chain_of(load_config({"rules": {"enabled": True, "date_check": False}})).entries()[1] == \
        {"name": "rules.v1", "date_check": False}


def test_a_model_saved_with_both_sections_loads_and_tags_by_its_list(default_model, tmp_path):
    # written before both were refused: it tagged by its postprocess list, and still does
    from crfdeid.tagging import modelfile
    config = {**default_model.manifest["config"], "rules": {"enabled": False, "date_check": False},
              "postprocess": legacy_entries({"enabled": True})}
    path = tmp_path / "both.model"
    path.write_bytes(modelfile.to_bytes(default_model._crf, {**default_model.manifest, "config": config},
                                        default_model.labels))
    both = Model.load(path)
    assert both.chain.entries() == default_model.chain.entries()
    assert [both.tag_text(t).spans for t in NOTES[:10]] == [default_model.tag_text(t).spans for t in NOTES[:10]]


def test_a_model_follows_its_configured_chain(default_model):
    text = "Seen by Dr. Lee on 03/14/2098, age: 94."
    model = Model.from_bytes(default_model.to_bytes())
    model.config = {**model.config, "postprocess": ["clinical_filter.v1"]}
    model.chain = chain_of(model.config)
    with_rules = {(s.start, s.end) for s in default_model.tag_text(text).spans}
    without = {(s.start, s.end) for s in model.tag_text(text).spans}
    assert (text.index("94"), text.index("94") + 2) in without  # the Safe Harbor layer still runs
    assert without <= with_rules


def test_processors_receive_per_call_options_and_document_meta(default_model):
    model = Model.from_bytes(default_model.to_bytes())
    model.chain = model.chain.with_processor("test_allow_list.v1")
    assert model.chain.names()[-3:] == ["test_allow_list.v1", *TAIL]
    text = "Seen by Dr. Lee on 03/14/2098."
    assert [text[s.start:s.end] for s in model.tag_text(text).spans] == ["Lee", "03/14/2098"]
    assert [text[s.start:s.end] for s in model.tag_text(text, options={"allow": ["Lee"]}).spans] == ["03/14/2098"]
    # (a full date is a Safe Harbor form since 2026-11-25: no allow list removes it)
    docs = [Document("a", text, meta={"allow": ["Lee"]}), Document("b", text)]
    got = [[text[s.start:s.end] for s in d.spans] for d in model.tag_many(docs)]
    assert got == [["03/14/2098"], ["Lee", "03/14/2098"]]
    got = [[text[s.start:s.end] for s in d.spans] for d in model.tag_many(docs[1:], options={"allow": ["Lee"]})]
    assert got == [["03/14/2098"]]
    assert all("allow" in d.meta for d in model.tag_many(docs[:1]))  # meta passed through untouched


def test_the_filter_keeps_spans_of_other_languages_and_safe_harbor_keeps_own_labels():
    text = "Murphy sign negative, MRN 00482913"
    spans = [make_span(0, 6, "DOCTOR"), make_span(22, 34, "PATIENT")]
    chain = build_chain(["clinical_filter.v1"])
    english = chain.run(Note(text), spans)
    assert [(s.start, s.subtype) for s in english] == [(26, "MEDICALRECORD")]  # the label "MRN" left outside
    other = chain.run(Note(text, english=False), spans)
    assert [(s.start, s.subtype) for s in other] == [(0, "DOCTOR"), (22, "MEDICALRECORD")]
    own = schema.get({"labels": {"NAME": {}, "ID": {}}})
    kept = chain.run(Note(text, english=False, scheme=own), [make_span(22, 34, "PATIENT")])
    assert [(s.start, s.subtype) for s in kept] == [(22, "PATIENT")]


def test_a_chain_set_on_a_model_survives_pickling(default_model):
    import pickle
    model = Model.from_bytes(default_model.to_bytes())
    model.chain = model.chain.with_processor("test_allow_list.v1")
    copy = pickle.loads(pickle.dumps(model))
    assert copy.chain.names() == model.chain.names()
    assert pickle.loads(pickle.dumps(default_model)).chain.names() == default_model.chain.names()

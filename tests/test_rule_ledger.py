"""The rule ledger's switches (docs/rules.md): a unit switched off while the block runs, restored after."""

from crfdeid.experiments import ledger
from crfdeid.recognizers import phrases, rules, values
from crfdeid.recognizers.chain import build_chain
from crfdeid.recognizers.steps import Note

PHONE = "Call 617-555-0199 today."


def test_a_rule_of_the_table_is_taken_out_and_put_back():
    units = ledger._units()
    assert [s.subtype for s in rules.find(PHONE)] == ["PHONE"]
    with ledger.switched_off(units["rule phone"]):
        assert rules.find(PHONE) == []
    assert [s.subtype for s in rules.find(PHONE)] == ["PHONE"]


def test_a_place_pattern_and_a_function_are_switched_off_and_restored():
    units = ledger._units()
    text = "GP: Millbeck Surgery."
    assert phrases.find(text)
    with ledger.switched_off(units["phrases named"]):
        assert phrases.find(text) == []
    with ledger.switched_off(units["values (all reasons)"]):
        assert values.why_value("MRN: 1", rules.make_span(0, 3, "PATIENT")) is None
    assert phrases.find(text) and values.why_value("MRN: 1", rules.make_span(0, 3, "PATIENT")) == "label"


def test_a_step_is_left_out_of_every_chain_while_switched_off():
    chain = build_chain(["clinical_filter.v1"])
    note = Note("seen with a walker")
    walker = [rules.make_span(12, 18, "PATIENT")]
    assert chain.run(note, walker) == []
    with ledger.switched_off(ledger._units()["step clinical_filter.v1"]):
        assert [(s.start, s.end) for s in chain.run(Note(note.text), walker)] == [(12, 18)]
    assert chain.run(Note(note.text), walker) == []


def test_every_unit_names_a_target_that_exists():
    for name in ledger.known_units():
        with ledger.switched_off(ledger._units()[name]):
            pass


# Each unit kept for the leak regression tests (ledger.HELD_BACK) finds its case, and finds it no more
# switched off: the held-back evidence it rests on (docs/rules.md).
HELD_BACK_CASES = {
    "rule title_doctor": ("Seen by Dr. Lee on 7/22/2098.", "Lee", []),
    "rule date_numeric": ("Pt Jane Doe seen 3/4/2021.", "3/4/2021", []),
    "rule sign_off": ("will follow up.\n-- ann, front desk", "ann", []),
    "rule street_named": ("picks up meds at walgreens on main st", "main st", []),
    "rule name_particle": ("Pt Abdulrahman bin Khalid Al-Qahtani seen today.", "Khalid", []),
    "rule hospital_acronym": ("f/u w/ pcp dr o'brien @ mgh next wk.", "mgh", []),
    "rule title_doctor_lower": ("f/u w/ pcp dr o'brien @ mgh next wk.", "o'brien", []),
    "rule state_name": ("moved from ohio", "ohio", []),
    "rules states after cities": ("lives in Springfield, Mass. now", "Mass.", []),
    "names plain name words": ("Seen with Margaret O'Connell today.", "Margaret", [(19, 28, "PATIENT")]),
}


def _covers(text: str, word: str, given: list) -> bool:
    start = text.index(word)
    spans = rules.overlay(text, [rules.make_span(*g) for g in given])
    return any(s.start <= start and start + len(word) <= s.end for s in spans)


def test_every_held_back_unit_is_a_unit_and_finds_its_case_only_when_on():
    assert set(HELD_BACK_CASES) == set(ledger.HELD_BACK) and set(ledger.HELD_BACK) <= set(ledger.known_units())
    for name, case in HELD_BACK_CASES.items():
        assert _covers(*case), name
        with ledger.switched_off(ledger._units()[name]):
            assert not _covers(*case), name
        assert _covers(*case), name
        assert "[kept: the leak regression tests need it]" in ledger.line(name, {"sets": {}})


def test_the_ledger_scores_each_casing_and_output_as_made_up_does():
    """``--casing``/``--outputs`` (diet14): each set's figures per casing and output, the same as
    ``experiments made-up`` gives for those notes in that casing."""
    from crfdeid.experiments import casings, madeup, madeup_outputs
    from crfdeid.tagging.session import SPANS, Session

    path = madeup.NOTE_SETS["dev9"]
    res = ledger.run([], {"dev9": path}, None, casing_names=("as-written", "upper"), outputs=("redacted", "surrogate"))
    figs = res["runs"]["baseline"]["sets"]
    assert set(figs) == {"dev9", "dev9 as-written surrogate", "dev9 upper redacted", "dev9 upper surrogate"}
    upper = madeup_outputs.run(casings.recased(madeup.read_notes(path), "upper"), Session(None, SPANS).model,
                               mining=[False], outputs=["surrogate"])["runs"]["mining off"]["surrogate"]
    for key in ("identifiers_left_in_spans", "phrases_changed", "falsified", "false_spans"):
        assert figs["dev9 upper surrogate"][key] == upper[key], key
    assert figs["dev9"]["falsified"] == 0  # redacted output writes no value

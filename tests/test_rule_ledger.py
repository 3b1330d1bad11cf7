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

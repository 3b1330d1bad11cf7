"""The Safe Harbor layer: fixed-form HIPAA identifiers caught by every model, whatever its config."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.document import Document, make_span
from crfdeid.io import read
from crfdeid.recognizers import safeharbor
from crfdeid.recognizers.safeharbor import apply, find
from crfdeid.tagging import model as model_module

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text, surface, subtype", [
    ("Age: 94", "94", "AGE"),
    ("AGE:101.", "101", "AGE"),
    ("pt is a 94 yo F", "94", "AGE"),
    ("94yo man", "94", "AGE"),
    ("a 94 y/o woman", "94", "AGE"),
    ("94 y.o. male", "94", "AGE"),
    ("94-year-old woman", "94", "AGE"),
    ("a 96 year old", "96", "AGE"),
    ("she is 97 years of age", "97", "AGE"),
    ("aged 101", "101", "AGE"),
    ("He is a 92M with", "92", "AGE"),
    ("a ninety-four year old man", "ninety-four", "AGE"),
    ("One hundred and one year old", "One hundred and one", "AGE"),
    ("a woman in her 90s", "90s", "AGE"),
    ("MRN 00482913", "00482913", "MEDICALRECORD"),
    ("seen (MRN 00482913) today", "00482913", "MEDICALRECORD"),
    ("MRN:00482913", "00482913", "MEDICALRECORD"),
    ("MR# 123", "123", "MEDICALRECORD"),
    ("Medical record number: 448-2913", "448-2913", "MEDICALRECORD"),
    ("Unit No: 44829", "44829", "MEDICALRECORD"),
    ("Acct: 12-3456", "12-3456", "ACCOUNT"),
    ("account # 55120987", "55120987", "ACCOUNT"),
    ("Account AC-99812-Z.", "AC-99812-Z", "ACCOUNT"),
    ("Medicare # 1EG4-TE5-MK72", "1EG4-TE5-MK72", "HEALTHPLAN"),
    ("card 1EG4TE5MK72 on file", "1EG4TE5MK72", "HEALTHPLAN"),
    ("policy no. 5512XB", "5512XB", "HEALTHPLAN"),
    ("Member ID: W88213455", "W88213455", "HEALTHPLAN"),
    ("DL 4412345", "4412345", "LICENSE"),
    ("driver's license S530-4412-7781", "S530-4412-7781", "LICENSE"),
    ("VIN 1HGCM82633A004352", "1HGCM82633A004352", "VEHICLE"),
    ("pacemaker serial no. SN-44821", "SN-44821", "DEVICE"),
    # a lot, batch or serial number after its word in several languages (lots36), made up
    ("mesh 15 x 15 cm, lot HQX4471; tacks", "HQX4471", "DEVICE"),
    ("Tisseel batch VQ2K118   Bougie", "VQ2K118", "DEVICE"),
    ("Prismaflex serie PFX-CR-12345, set", "PFX-CR-12345", "DEVICE"),
    ("Airvo 2 nº série AV2-100447213.", "AV2-100447213", "DEVICE"),
    ("(lotto NS26K0199).", "NS26K0199", "DEVICE"),
    ("Servo-u SN 47001 PRVC", "47001", "DEVICE"),
    ("Olympus ENF-VH2 ser. nr 2418001, no", "2418001", "DEVICE"),
    ("sample LV-3381204 sent", "LV-3381204", "IDNUM"),
    ("Path specimen S98-22841", "S98-22841", "IDNUM"),
    ("ID: 55123", "55123", "IDNUM"),
    ("SSN 123-45-6789", "123-45-6789", "SSN"),
    ("SSN: 123456789", "123456789", "SSN"),
    ("call (617) 555-0199 now", "(617) 555-0199", "PHONE"),
    ("call +1 617 555 0199.", "+1 617 555 0199", "PHONE"),
    ("tel: 555-0199", "555-0199", "PHONE"),
    ("Pager #40917", "40917", "PHONE"),
    ("fax 617-555-0199", "617-555-0199", "FAX"),
    ("Fax: 555-0188", "555-0188", "FAX"),
    ("mail jo.lee@example.org today", "jo.lee@example.org", "EMAIL"),
    ("see https://example.org/x.", "https://example.org/x", "URL"),
    ("portal mychart.example.com today", "mychart.example.com", "URL"),
    ("host 10.0.12.7 down", "10.0.12.7", "IPADDR"),
    ("Baby Boy Smith delivered", "Smith", "PATIENT"),
    ("BABY GIRL HALVORSEN", "HALVORSEN", "PATIENT"),
    ("BB Quackenbush feeding", "Quackenbush", "PATIENT"),
    ("BG Halvorsen", "Halvorsen", "PATIENT"),
    ("Twitter @jramirez_wi.", "@jramirez_wi", "USERNAME"),
    ("on instagram as @zoe.m", "@zoe.m", "USERNAME"),
    ("username: zq_bush", "zq_bush", "USERNAME"),
    ("his user name is jlee88", "jlee88", "USERNAME"),
    ("Next appt Tues 9/3 w/ Dr. Lee", "9/3", "DATE"),
    ("seen Monday, 3/14/98.", "3/14/98", "DATE"),
    ("WED 12/31/2023", "12/31/2023", "DATE"),
    # labels of other countries (issue 50, the places round), made up
    ("Medicare: 2953 17483 1   DOB 12/08/1939", "2953 17483 1", "HEALTHPLAN"),  # AU, digits in groups
    ("OHIP: 4862 917 301 KT", "4862 917 301 KT", "HEALTHPLAN"),  # CA
    ("RAMQ: DELG 3204 1512", "DELG 3204 1512", "HEALTHPLAN"),
    ("PhilHealth No.: 12-050337219-4", "12-050337219-4", "HEALTHPLAN"),  # PH
    ("NHIF No: 0483 2291, OP No", "0483 2291", "HEALTHPLAN"),  # KE
    ("nhis no nh-lag-440187. - dr obi", "nh-lag-440187", "HEALTHPLAN"),  # NG, lower case
    ("HMO No: GHM/LAG/220417", "GHM/LAG/220417", "HEALTHPLAN"),
    ("Our ref: CMHT/22719   Date", "CMHT/22719", "MEDICALRECORD"),  # Scotland
    ("OP No: UF/2025/3317", "UF/2025/3317", "MEDICALRECORD"),  # KE
    ("Hosp No: LCS/25/08841", "LCS/25/08841", "MEDICALRECORD"),  # NG
    ("Reg No: JJ/4418   Date", "JJ/4418", "MEDICALRECORD"),  # IN
    ("UHID: SVH2511047", "SVH2511047", "MEDICALRECORD"),
    ("NRIC: S7103388J", "S7103388J", "IDNUM"),  # SG
    ("Payroll No: RH20671", "RH20671", "IDNUM"),  # UK
    ("card no. BCH-0091-4472.", "BCH-0091-4472", "IDNUM"),
])
def test_each_form_is_found(text, surface, subtype):
    got = [(text[s.start:s.end], s.subtype) for s in find(text)]
    assert (surface, subtype) in got


@pytest.mark.parametrize("text", [
    "Docetaxel 75 mg/m2 given", "Vitamin D 2000 IU daily", "given at 0200 and 1400", "K 4.1, Na 139, Cr 1.2",
    "BP 120/80, HR 94, RR 18, sats 94% on 2L", "sats in the 90s", "SBP 90s-100s", "age 94 days",
    "94 units of insulin", "Hct 29.4 -> 31.2", "at 12:30", "glucose 120 mg/dl",
    "LR 1000 ml, out 940 ml", "BG Stable", "BG 145", "BG RN", "Baby Boy born at 39 weeks",
    "I/O 1200/940", "PEG 3350 17 g", "ICD-10 code", "lot 4.1.2", "ID consult", "MR 2+ on echo",
    "CVP 9-12", "PSV 10/5", "500-1000 cc", "0.5-1.0 mg", "T 98.6", "Wt 94 kg", "94 yrs smoking? no",
    "O2 SAT 9/10", "sat 95/100", "SAT 13/4", "wed 1/2 NS", "given @ 0200", "login issues resolved",
    "unable to handle @ home", "mail to @ home", "on account of pain 8/10", "account for 2 episodes",
    # look-alikes of the labels of other countries: no identifier after them
    "Medicare 2 visits a week", "op no 2 in the list", "AcrySof IQ SN60WF +21.5 D", "SNOT-22 54",
    "improved a lot 2 days ago", "lot 7 of 9", "ref no 5", "Our ref 12/3", "policy 10 mg",
    "reg 2 units insulin", "IP 3/7 then home", "CHI 2 weeks ago", "card 2 of 3", "NHS 111 advice",
    "HbA1c 82 mmol/mol", "staff 2 on the ward",
])
def test_doses_lab_values_times_and_dates_are_not_identifiers(text):
    assert find(text) == []


def test_apply_only_adds_and_joins_overlaps():
    text = "MRN 00482913 fax 617-555-0199 and Dr. Lee"
    crf = [make_span(4, 8, "PATIENT"), make_span(17, 29, "FAX"), make_span(38, 41, "DOCTOR")]
    out = apply(text, crf)
    assert [(text[s.start:s.end], s.subtype) for s in out] == [
        ("00482913", "MEDICALRECORD"),   # another category: the layer's subtype
        ("617-555-0199", "FAX"),         # the same category: the predicted subtype stays
        ("Lee", "DOCTOR")]               # overlapping nothing found: unchanged
    wider = apply("call 617-555-0199 x12", [make_span(5, 21, "PHONE")])
    assert [(s.start, s.end) for s in wider] == [(5, 21)]  # a wider predicted span is never cut
    assert apply("nothing here", crf) == sorted(crf)


@pytest.fixture(scope="module")
def tiny_without_rules(tmp_path_factory):
    """A model trained with the rule overlay off, saved and loaded back from its file."""
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:12,7"], "crf": {"max_iterations": 5}, "rules": {"enabled": False}})
    return Model.load(train_model(None, cfg).save(tmp_path_factory.mktemp("sh") / "tiny.model"))


NOTE = ("Baby Boy Quackenbush, Age: 94, seen (MRN 00482913).\nSample LV-3381204 sent; call 617-555-0199.\n"
        "A 96-year-old, Acct: 7712-0042, DL 4412345, jo@example.org.\n")
EXPECTED = {"Quackenbush": "PATIENT", "94": "AGE", "00482913": "MEDICALRECORD", "LV-3381204": "IDNUM",
            "617-555-0199": "PHONE", "96": "AGE", "7712-0042": "ACCOUNT", "4412345": "LICENSE",
            "jo@example.org": "EMAIL"}


def _covered(doc: Document) -> set:
    return {i for s in doc.spans for i in range(s.start, s.end)}


@pytest.mark.parametrize("which", ["shipped", "trained without rules"])
@pytest.mark.parametrize("backend", ["numpy", "crfsuite"])
def test_every_model_catches_the_fixed_forms(which, backend, tiny_without_rules):
    model = Model.load(None if which == "shipped" else tiny_without_rules.path, backend=backend)
    for tagged in (model.tag_text(NOTE), next(model.tag_many([Document("d", NOTE)]))):
        covered = _covered(tagged)
        for surface in EXPECTED:
            start = NOTE.index(surface)
            assert set(range(start, start + len(surface))) <= covered, surface


def test_the_layer_runs_on_notes_tagged_a_piece_at_a_time(tiny_without_rules, monkeypatch):
    monkeypatch.setattr(model_module, "LONG_NOTE_CHARS", 60)
    tagged = tiny_without_rules.tag_text(NOTE * 3)
    start = NOTE.index("00482913") + 2 * len(NOTE)
    assert set(range(start, start + 8)) <= _covered(tagged)


def test_no_false_positive_on_synthetic_notes():
    """Every span the layer finds in 150 synthetic notes is gold PHI (the look-alike doses,
    lab values, eponyms and times of the generator included)."""
    for doc in read("synth:150,21"):
        for name, sp in safeharbor.matches(doc.text):
            assert any(sp.overlaps(g) for g in doc.spans), (doc.doc_id, name, sp.start)


@pytest.mark.physionet
def test_no_false_positive_on_the_development_patients(physionet_docs):
    """On the PhysioNet dev notes outside the locked test, the layer finds nothing that is not PHI."""
    from crfdeid.io.splits import read_groups, select_groups
    locked = read_groups(ROOT / "configs" / "splits" / "physionet-locked.txt")
    false = [(doc.doc_id, name, sp.start) for doc in select_groups(physionet_docs, locked, keep=False)
             for name, sp in safeharbor.matches(doc.text) if not any(sp.overlaps(g) for g in doc.spans)]
    assert false == []

"""Oracle test: a fixed synthetic gold/system pair whose figures were counted by hand.

Fixture ``tests/data/scoring/{gold,pred}`` (i2b2 XML, synthetic):

doc 100-01 "Patient John Smith seen by Dr Ann Lee on 03/04/2091, age 67, MRN 4455-1."
  gold   a PATIENT "John Smith"  b DOCTOR "Ann Lee"  c DATE "03/04/2091"
         d AGE "67"              e MEDICALRECORD "4455-1"
  system a' = a (exact)          b' DOCTOR "Ann Le" (end -1)
         c' DATE "03/04/2091," (end +1)   (nothing for d)
         e' IDNUM "4455-1" (same extent, wrong subtype)
         x  DOCTOR "Patient" (spurious)
doc 100-02 "Seen in Boston, ref 99812."
  gold   CITY "Boston", IDNUM "99812"     system IDNUM "99812" (exact)
doc 101-01 "No identifiers here."  no annotation on either side.

Per-document precision/recall behind the macro figures are in the comments;
a document with nothing on a side scores 0 for that side (official script).
"""

from __future__ import annotations

import pytest

from crfdeid.io import read
from crfdeid.scoring import analyse_errors, evaluate


@pytest.fixture(scope="module")
def pair(data_dir):
    gold = list(read(f"i2b2:{data_dir / 'scoring' / 'gold'}"))
    pred = list(read(f"i2b2:{data_dir / 'scoring' / 'pred'}"))
    return gold, pred


@pytest.fixture(scope="module")
def report(pair):
    return evaluate(*pair)


# (metric, tp, fp, fn, micro P, micro R, micro F1, macro P, macro R, macro F1)
ORACLE = [
    # strict: 100-01 tp 1 (a) fp 4 (b' c' e' x) fn 4 (b c d e) -> P .2 R .2;
    #         100-02 tp 1 fp 0 fn 1 -> P 1 R .5; 101-01 -> 0 0.
    # micro P 2/6, R 2/7, F1 4/13; macro P 1.2/3 = .4, R .7/3, F1 = 2PR/(P+R) = 28/95
    ("strict", 2, 4, 5, 0.3333, 0.2857, 0.3077, 0.4000, 0.2333, 0.2947),
    # relaxed: 100-01 a, b (end diff 1), c (diff 1) found; e is not (subtype) -> 3/5 both ways;
    #          100-02 P 1 R .5. micro P 4/6 R 4/7 F1 8/13; macro P 1.6/3 R 1.1/3 F1 .4346
    ("relaxed", 4, 2, 3, 0.6667, 0.5714, 0.6154, 0.5333, 0.3667, 0.4346),
    # token: 100-01 gold runs John Smith Ann Lee 03 04 2091 67 4455 1 (10);
    #        system runs John Smith Ann Le 03 04 2091 4455 1 (IDNUM) Patient (10);
    #        typed matches John Smith Ann 03 04 2091 -> tp 6 fp 4 fn 4 (P .6 R .6);
    #        100-02 runs Boston, 99812 vs 99812 -> tp 1 fn 1. micro 7/11, 7/12, F1 14/23
    ("token", 7, 4, 5, 0.6364, 0.5833, 0.6087, 0.5333, 0.3667, 0.4346),
    # HIPAA (no DOCTOR, no IDNUM): 100-01 gold a c d e, system a' c' -> tp 1 fp 1 fn 3 (P .5 R .25);
    #        100-02 gold CITY, system nothing -> fn 1. macro P .5/3, R .25/3, F1 1/9
    ("hipaa_strict", 1, 1, 4, 0.5000, 0.2000, 0.2857, 0.1667, 0.0833, 0.1111),
    # 100-01 a and c found, system a' c' correct -> P 1 R .5; micro R 2/5, F1 4/7; macro F1 2/9
    ("hipaa_relaxed", 2, 0, 3, 1.0000, 0.4000, 0.5714, 0.3333, 0.1667, 0.2222),
    # 100-01 gold runs John Smith 03 04 2091 67 4455 1 (8), system John Smith 03 04 2091 (5, all hit)
    # -> P 1 R 5/8; 100-02 Boston missed. micro R 5/9, F1 10/14; macro P 1/3 R 5/24 F1 10/39
    ("hipaa_token", 5, 0, 4, 1.0000, 0.5556, 0.7143, 0.3333, 0.2083, 0.2564),
    # binary strict: 100-01 offsets a and e (e' has e's offsets) match -> tp 2 fp 3 fn 3 (P .4 R .4);
    #        100-02 tp 1 fn 1. micro P 3/6 R 3/7 F1 6/13; macro P 1.4/3 R .9/3 F1 42/115
    ("binary_strict", 3, 3, 4, 0.5000, 0.4286, 0.4615, 0.4667, 0.3000, 0.3652),
    # binary token: 100-01 runs match John Smith Ann 03 04 2091 4455 1 -> tp 8, fp Le Patient,
    #        fn Lee 67 (P .8 R .8); 100-02 tp 1 fn 1. micro 9/11, 9/12, F1 18/23; macro F1 78/155
    ("binary_token", 9, 2, 3, 0.8182, 0.7500, 0.7826, 0.6000, 0.4333, 0.5032),
    # binary HIPAA strict equals typed HIPAA strict here (no type mix-ups inside the HIPAA view)
    ("binary_hipaa_strict", 1, 1, 4, 0.5000, 0.2000, 0.2857, 0.1667, 0.0833, 0.1111),
    ("binary_hipaa_token", 5, 0, 4, 1.0000, 0.5556, 0.7143, 0.3333, 0.2083, 0.2564),
    # parent strict (parent category and offsets, no subtype): 100-01 a and e' (MEDICALRECORD
    # vs IDNUM, both ID) match -> tp 2 fp 3 (b' c' x) fn 3 (b c d); 100-02 tp 1 fn 1: the
    # binary strict figures, as no two parents share an extent here
    ("parent_strict", 3, 3, 4, 0.5000, 0.4286, 0.4615, 0.4667, 0.3000, 0.3652),
]


@pytest.mark.parametrize("metric,tp,fp,fn,mp,mr,mf,Mp,Mr,Mf", ORACLE, ids=[o[0] for o in ORACLE])
def test_official_figures(report, metric, tp, fp, fn, mp, mr, mf, Mp, Mr, Mf):
    micro, macro = report.micro[metric], report.macro[metric]
    assert (micro.tp, micro.fp, micro.fn) == (tp, fp, fn)
    assert (round(micro.precision, 4), round(micro.recall, 4), round(micro.f1, 4)) == (mp, mr, mf)
    assert (round(macro.precision, 4), round(macro.recall, 4), round(macro.f1, 4)) == (Mp, Mr, Mf)


def test_macro_standard_deviation(report):
    # strict per-document precision .2, 1, 0: mean .4, population SD sqrt(.56/3) = .4320
    assert round(report.macro["strict"].precision_sd, 4) == 0.4320
    assert report.macro["strict"].docs == 3


def test_idnum_switch(pair):
    # With IDNUM as HIPAA: 100-01 system a' c' e' vs gold a c d e -> tp 1 fp 2 fn 3 (P 1/3 R 1/4);
    # 100-02 IDNUM exact, CITY missed -> tp 1 fn 1 (P 1 R .5). micro P 2/4, R 2/6, F1 .4;
    # macro P (1/3 + 1)/3 = .4444, R .75/3 = .25, F1 2PR/(P+R) = .32
    r = evaluate(*pair, include_idnum=True)
    s, m = r.micro["hipaa_strict"], r.macro["hipaa_strict"]
    assert (s.tp, s.fp, s.fn) == (2, 2, 4)
    assert (round(s.precision, 4), round(s.recall, 4), round(s.f1, 4)) == (0.5, 0.3333, 0.4)
    assert (round(m.precision, 4), round(m.recall, 4), round(m.f1, 4)) == (0.4444, 0.25, 0.32)


def test_per_category(report):
    # NAME strict: gold a b, system a' b' x -> tp 1 fp 2 fn 1; token: gold John Smith Ann Lee,
    # system John Smith Ann Le Patient -> tp 3 fp 2 fn 1.
    name = report.by_category["NAME"]
    assert (name["strict"].tp, name["strict"].fp, name["strict"].fn) == (1, 2, 1)
    assert (name["token"].tp, name["token"].fp, name["token"].fn) == (3, 2, 1)
    # ID strict: MEDICALRECORD vs IDNUM miss in 100-01, IDNUM hit in 100-02
    idb = report.by_category["ID"]["strict"]
    assert (idb.tp, idb.fp, idb.fn) == (1, 1, 1)
    # ID parent strict: MEDICALRECORD vs IDNUM on one extent is a match at the parent level
    idp = report.by_category["ID"]["parent_strict"]
    assert (idp.tp, idp.fp, idp.fn) == (2, 0, 0)
    # macro over all three documents: NAME strict P 1/3 (100-01), 0, 0 -> 1/9
    assert round(report.by_category_macro["NAME"]["strict"].precision, 4) == 0.1111
    assert report.by_category["LOCATION"]["token"].recall == 0.0


def test_per_subtype_counts(report):
    # DOCTOR: gold b; system b' and x. Relaxed: b found (agree 1), b' correct, x not -> P .5 R 1
    doc = report.by_subtype["DOCTOR"]
    assert (doc["strict"].tp + doc["strict"].fn, doc["strict"].tp_sys + doc["strict"].fp,
            doc["strict"].tp) == (1, 2, 0)
    assert (doc["relaxed"].precision, doc["relaxed"].recall) == (0.5, 1.0)
    assert "AGE" in report.by_subtype and report.by_subtype["AGE"]["token"].fn == 1


def test_leak(report):
    # Gold extents 7; fully covered: a, c (c' is longer), e (by IDNUM e'), 99812 -> 4/7.
    # Leaked letters/digits: "e" of Lee (1), "67" (2), "Boston" (6) = 9 of 41.
    lk = report.leak
    assert (lk.removed, lk.total, lk.leaked_chars, lk.phi_chars) == (4, 7, 9, 41)
    assert round(lk.fully_removed, 4) == 0.5714


def test_error_analysis(pair):
    # b short, c long, e type (MEDICALRECORD -> IDNUM), d and Boston missing, x spurious;
    # correct: a and 99812. 6 errors, missing 2/6 = 33.33 %.
    ea = analyse_errors(*pair)
    assert ea.correct == 2
    assert {c: n for c, n in ea.counts.items() if n} == {
        "short": 1, "long": 1, "type": 1, "missing": 2, "spurious": 1}
    assert round(ea.percent("missing"), 2) == 33.33
    assert dict(ea.confusion) == {("MEDICALRECORD", "IDNUM"): 1}


def test_per_category_hipaa_blocks(report):
    # The official script's per-category HIPAA blocks. NAME under HIPAA is PATIENT only: gold a,
    # system a' (exact) in 100-01; 100-02 and 101-01 have no NAME HIPAA item on either side.
    # strict tp 1 (micro 1/1/1), token John Smith tp 2; macro P = R = (1 + 0 + 0)/3.
    for metric, tp in (("hipaa_strict", 1), ("hipaa_token", 2)):
        micro, macro = report.by_category["NAME"][metric], report.by_category_macro["NAME"][metric]
        assert (micro.tp, micro.fp, micro.fn, micro.f1) == (tp, 0, 0, 1.0)
        assert (round(macro.precision, 4), round(macro.recall, 4), round(macro.f1, 4)) == (0.3333, 0.3333, 0.3333)
    # ID under HIPAA (IDNUM left out): gold MEDICALRECORD e, the system's IDNUM e' is not HIPAA
    # -> tp 0 fn 1; PROFESSION has no HIPAA label, so no block.
    idh = report.by_category["ID"]["hipaa_strict"]
    assert (idh.tp, idh.fp, idh.fn) == (0, 0, 1)
    assert "hipaa_strict" not in report.by_category["PROFESSION"]
    data = report.to_dict()["by_category"]["NAME"]
    assert set(data["macro"]) >= {"hipaa_token", "hipaa_strict"}

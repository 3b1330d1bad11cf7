"""The surrogate checks on the shared PhysioNet dev corpus (skipped where it is absent)."""

import datetime as dt
import re
from collections import defaultdict

import pytest

from crfdeid.cli.corpus import main as corpus_main
from crfdeid.deid.check import check
from crfdeid.deid.spans import plain_words, propagate
from crfdeid.deid.surrogate import Surrogator
from crfdeid.io import read
from crfdeid.text.tokenize import tokenize


@pytest.mark.slow
def test_physionet_surrogate_corpus_is_releasable(physionet_docs):
    docs = [propagate(d) for d in physionet_docs]
    s = Surrogator(seed=13)
    for d in docs:
        s.learn(d)
    pairs, fallbacks = [], {}
    for d in docs:
        pairs.append((d, s.surrogate(d)))
        fallbacks[d.doc_id] = s.last_exempt
    rep = check(pairs, fallbacks, s.age_keeps)
    assert rep.notes == 1622 and rep.spans >= 1220
    assert rep.leaks == 0, "an original PHI string is still in its note"
    assert rep.run_leaks == 0 and s.counts["generator_errors"] == 0
    assert rep.misaligned == 0 and rep.span_text_mismatch == 0
    assert rep.full_dates > 30 and rep.interval_violations == 0
    assert rep.unchanged_spans == 0


_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_FULL_DATE = [  # (pattern, order of year/month/day groups), a parser of its own, not crfdeid.deid.dates
    (re.compile(r"(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})"), "mdy"),
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), "ymd"),
    (re.compile(r"([a-z]{3})[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})"), "Mdy"),
]


def _full_date(s: str):
    for pattern, order in _FULL_DATE:
        m = pattern.fullmatch(s.strip().lower())
        if m:
            parts = dict(zip(order, m.groups()))
            month = _MONTHS.get(parts["M"]) if "M" in parts else int(parts["m"])
            year = int(parts["y"]) + (2000 if len(parts["y"]) == 2 else 0)  # '05 -> 2005, '97 -> 2097
            try:
                return dt.date(year, month, int(parts["d"]))
            except (TypeError, ValueError):
                return None
    return None


def _is_word(text: str, start: int, end: int) -> bool:
    return not (start > 0 and text[start - 1].isalnum()) and not (end < len(text) and text[end].isalnum())


@pytest.mark.slow
def test_written_surrogate_corpus_passes_an_independent_recheck(physionet_dir, physionet_docs, tmp_path):
    """Re-check the XML that `corpus surrogate` writes with code of its own (not crfdeid.deid.check)."""
    assert corpus_main(["surrogate", f"physionet:{physionet_dir}", "--out", str(tmp_path),
                        "--seed", "13", "-q"]) == 0
    new = {d.doc_id: d for d in read(f"i2b2:{tmp_path}")}
    assert sorted(new) == sorted(d.doc_id for d in physionet_docs)
    shifts, compared = defaultdict(set), 0
    for orig in physionet_docs:
        doc = new[orig.doc_id]
        low, olow = doc.text.lower(), orig.text.lower()
        date_only = defaultdict(lambda: True)
        capitalised = defaultdict(lambda: True)  # every annotated spelling of a name has a capital
        for sp in orig.spans:
            date_only[orig.surface(sp).strip().lower()] &= sp.subtype == "DATE"
            capitalised[orig.surface(sp).strip().lower()] &= sp.category == "NAME" and \
                not orig.surface(sp).strip().islower()
        for phi in {orig.surface(sp).strip().lower() for sp in orig.spans}:
            for m in re.finditer(re.escape(phi), low) if len(phi) >= 3 else ():
                where = f"note {orig.doc_id}, offset {m.start()}"
                if date_only[phi] and any(sp.subtype == "DATE" and sp.start <= m.start() and m.end() <= sp.end
                                          for sp in doc.spans):
                    continue  # a shifted date may read like another original date: the offset is secret
                if capitalised[phi] and phi in plain_words() and doc.text[m.start():m.end()].islower() \
                        and not any(sp.start < m.end() and m.start() < sp.end for sp in doc.spans):
                    continue  # "he will call" beside a patient Will: the word, left as written
                assert not _is_word(low, m.start(), m.end()), f"original PHI left as a word: {where}"
                if not any(sp.start < m.end() and m.start() < sp.end for sp in doc.spans):
                    # inside a longer non-PHI word: that word must have been in the original already
                    assert any(not any(sp.start < o.end() and o.start() < sp.end for sp in orig.spans)
                               for o in re.finditer(re.escape(phi), olow)), where
        tokens = tokenize(doc.text)
        starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
        assert all(sp.start in starts and sp.end in ends for sp in doc.spans), orig.doc_id
        before = [sp for sp in sorted(orig.spans) if sp.subtype == "DATE"]
        after = [sp for sp in doc.spans if sp.subtype == "DATE"]
        if len(before) == len(after):  # a propagated date would break the pairing: skip that note
            for a, b in zip(before, after):
                da, db = _full_date(orig.surface(a)), _full_date(doc.surface(b))
                if da and db and abs(da.year - db.year) > 50:  # a two-digit year across a century
                    db = db.replace(year=db.year + (100 if db < da else -100))
                if da or db:
                    shifts[orig.group].add((db - da).days if da and db else None)
                    compared += 1
    assert compared >= 30, "too few full dates compared"
    assert all(len(v) == 1 and None not in v for v in shifts.values()), "a patient's dates moved apart"

"""Surrogates on an annotated corpus: per-patient date intervals and the no-shared-run rule.

    python bench/deid_timeline.py [--corpus physionet:../shared/corpora/physionet-dev] \\
        [--seed 13 | --key-file secret.key]

Surrogates every note of the corpus with its gold spans (unannotated repeats
propagated, all notes of a patient learnt first, as ``corpus surrogate`` does), then
counts, with code of its own where it can:

* dates: every date group whose original and surrogate both parse as full dates
  (year, month, day) gives an offset; a patient whose dates give more than one offset
  has lost a pairwise interval. Dates without a year, month/year forms, bare years and
  weekdays are compared with :func:`crfdeid.deid.dates.moved_by` against the patient's
  offset. Date spans no date pattern explains are counted by what they became;
* runs: for every span other than a date, whether its surrogate holds a letter/digit
  run of two or more characters of its original (folded as the guard folds, ages of
  89 or less and age words aside).

Prints aggregate counts only (JSON), never note text.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.deid import Surrogator, dates, guard, propagate  # noqa: E402
from crfdeid.deid.dategroups import date_groups, region, year_hints  # noqa: E402
from crfdeid.deid.key import read_key_file  # noqa: E402
from crfdeid.deid.spans import deid_spans  # noqa: E402
from crfdeid.errors import CrfdeidError  # noqa: E402
from crfdeid.io import read  # noqa: E402


def _full(text: str) -> list[dt.date]:
    return dates.full_dates(text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", default="physionet:../shared/corpora/physionet-dev")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--seed", default="13", help="public seed (default 13)")
    key.add_argument("--key-file", help="secret key file instead of the seed")
    args = p.parse_args(argv)
    docs = [propagate(d) for d in read(args.corpus)]
    s = (Surrogator(key=read_key_file(args.key_file)) if args.key_file else Surrogator(seed=args.seed))
    start = time.process_time()
    for d in docs:
        s.learn(d)
    counts: Counter = Counter()
    offsets: dict[str, set[int]] = defaultdict(set)
    for d in docs:
        try:
            new = s.surrogate(d)
        except CrfdeidError:
            counts["notes_failed"] += 1
            continue
        counts["notes"] += 1
        st = s.state(d.group)
        spans = deid_spans(d)
        exempt = set(s.last_exempt)
        by_old = dict(zip(spans, new.spans))
        groups = date_groups(d.text, spans)
        for g, year in zip(groups, year_hints(d.text, groups, st.years)):
            ng = [by_old[sp] for sp in g]
            old_reg, before, after = region(d.text, g)
            new_reg = region(new.text, ng)[0]
            if any(sp in exempt for sp in g):
                for sp, nsp in zip(g, ng):
                    if sp in exempt:
                        counts["date_spans_not_shifted:" + _became(new.surface(nsp))] += 1
                continue
            old_full, new_full = _full(old_reg), _full(new_reg)
            if old_full and len(old_full) == len(new_full):
                for was, now in zip(old_full, new_full):
                    if abs((now - was).days) > 18262:  # a two-digit year read in the other century
                        now = now.replace(year=now.year + (100 if now < was else -100))
                    offsets[d.group].add((now - was).days)
                    counts["full_dates"] += 1
                continue
            old_p, new_p = dates.parse(old_reg, before, after)[0], dates.parse(new_reg, before, after)[0]
            ok = len(old_p) == len(new_p) and all(
                dates.moved_by(old_reg, a, new_reg, b, st.shift_days, year) for a, b in zip(old_p, new_p))
            counts["partial_dates"] += len(old_p)
            counts["partial_dates_off"] += 0 if ok else len(old_p)
        for sp, nsp in zip(spans, new.spans):
            if sp.subtype == "DATE":
                continue
            counts["other_spans"] += 1
            keep = s.age_keeps if sp.subtype == "AGE" or sp in exempt else None
            if guard.Units.of(d.surface(sp), keep=keep).survivor(new.surface(nsp)) is not None:
                counts["other_spans_sharing_a_run"] += 1
    pairs = sum(len(v) for v in offsets.values())
    out = {
        "corpus": args.corpus,
        "notes": counts["notes"], "notes_failed": counts["notes_failed"],
        "patients_with_full_dates": len(offsets),
        "full_dates": counts["full_dates"],
        "patients_whose_full_dates_moved_apart": sum(len(v) > 1 for v in offsets.values()),
        "distinct_offsets_over_patients": pairs,
        "partial_dates_compared": counts["partial_dates"],
        "partial_dates_not_on_the_patient_offset": counts["partial_dates_off"],
        "date_spans_not_shifted": {k.split(":", 1)[1]: v for k, v in sorted(counts.items())
                                   if k.startswith("date_spans_not_shifted:")},
        "dates_unparsed_named_in_summary": s.summary()["dates_unparsed"],
        "other_spans": counts["other_spans"],
        "other_spans_sharing_a_run": counts["other_spans_sharing_a_run"],
        "surrogator": {k: v for k, v in s.summary().items() if k != "dates_unparsed_at"},
        "cpu_seconds": round(time.process_time() - start, 2),
    }
    print(json.dumps(out, indent=2))
    return 0


def _became(text: str) -> str:
    return "placeholder" if text.startswith("[**") else "random"


if __name__ == "__main__":
    sys.exit(main())

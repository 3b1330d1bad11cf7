"""Where a model's false positives come from: the decoding path, the step and the word class of
each false-positive token (``python -m crfdeid experiments zero-shot --fp-paths``).

A false-positive token is a binary-token key of the scorer (a ``[A-Za-z0-9]+`` run of a predicted
span, :func:`crfdeid.scoring.keys.token_keys`) that no gold span holds, so the counts add up to the
scorer's ``fp``. Each is put on one decoding path:

- ``rule STEP``: its span was first found by a post-CRF step (``rules.v1``, ``name_extension.v1``...),
  read from the ``explain`` trace (docs/architecture.md, "Provenance");
- ``viterbi``: its span was found by the model and Viterbi decoding alone (the same note tagged
  with ``o_threshold=None``) holds it in a span the model found;
- ``month/day threshold``: a month/day shape (:func:`crfdeid.tagging.decoding.month_day_tokens`) the
  configured ``month_day_threshold`` made PHI;
- ``P(O) threshold``: any other token the configured ``o_threshold`` made PHI.

The word class says what a word is to the shipped lists: ``plain`` (an entry of ``common_words`` or
the clinical lists), ``name/place`` (a name or place list, which ``o_words_except`` leaves to the
threshold), both, or neither; ``number`` and the case. Counts only, never note text.
"""

from __future__ import annotations

from collections import Counter

from .. import gazetteers
from ..document import Document
from ..scoring.keys import token_keys
from ..tagging.decoding import month_day_tokens
from ..text.tokenize import tokenize

#: The shipped models' ``decoding.o_words_lists`` (configs/icu.yaml): plain English and clinical words.
PLAIN_LISTS = ("common_words", "icd10_words", "drug_names", "eponyms", "brand_names", "clinical_abbrevs",
               "clinical_words")
#: Their ``decoding.o_words_except``: names and places the threshold may still make PHI.
NAME_LISTS = ("first_male", "first_female", "surnames", "surnames_rare", "nicknames", "cities", "countries",
              "states", "state_abbrevs", "months", "days", "holidays", "hospital_words", "organization_words",
              "street_suffixes")


def word_class(word: str) -> str:
    """A word's class for the breakdown: number, or list membership and case.

    >>> word_class("12"), word_class("bowel"), word_class("Kowalski"), word_class("Xqzt")
    ('number', 'plain lower', 'name/place Cap', 'unlisted Cap')
    """
    if any(ch.isdigit() for ch in word):
        return "number"
    low = word.lower()
    plain, named = low in gazetteers.words(PLAIN_LISTS), low in gazetteers.words(NAME_LISTS)
    kind = "plain+name/place" if plain and named else "plain" if plain else "name/place" if named else "unlisted"
    case = "UPPER" if word.isupper() and len(word) > 1 else "Cap" if word[:1].isupper() else "lower"
    return f"{kind} {case}"


def _first_step(tagged: Document, index: int) -> str:
    steps = ((tagged.meta.get("explain") or {}).get("spans") or [])
    return steps[index][0]["step"] if index < len(steps) and steps[index] else "crf"


def _path(tagged: Document, viterbi: Document, key: tuple, month_day: set) -> tuple[str, str]:
    """``(path, predicted subtype)`` of the false-positive token ``key`` (``(start, end)``)."""
    a, b = key
    i, sp = next((i, s) for i, s in enumerate(tagged.spans) if s.start <= a and b <= s.end)
    step = _first_step(tagged, i)
    if step != "crf" and not step.startswith("companion"):
        return f"rule {step}", sp.subtype
    for j, v in enumerate(viterbi.spans):
        if v.start <= a and b <= v.end and _first_step(viterbi, j) == "crf":
            return "viterbi", sp.subtype
    if any(s <= a and b <= e for s, e in month_day):
        return "month/day threshold", sp.subtype
    return "P(O) threshold", sp.subtype


def run(gold: list[Document], model) -> dict:
    """False-positive tokens of ``model`` (configured decoding) on ``gold``: ``{"fp", "by_path",
    "by_path_subtype", "by_word_class"}`` (counts)."""
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in gold]
    tagged = list(model.tag_many(blank, options={"explain": True}))
    viterbi = list(model.tag_many(blank, o_threshold=None, options={"explain": True}))
    by_path: Counter = Counter()
    by_sub: Counter = Counter()
    by_class: Counter = Counter()
    for g, t, v in zip(gold, tagged, viterbi):
        want = {k for sp in g.spans for k in token_keys(sp, g.text, binary=True)}
        got = {k for sp in t.spans for k in token_keys(sp, g.text, binary=True)}
        toks = tokenize(g.text)
        month_day = {(tok.start, tok.end) for tok, m in zip(toks, month_day_tokens(toks)) if m}
        for key in sorted(got - want):
            path, sub = _path(t, v, key, month_day)
            by_path[path] += 1
            by_sub[f"{path} | {sub}"] += 1
            by_class[f"{path} | {word_class(g.text[key[0]:key[1]])}"] += 1
    return {"fp": sum(by_path.values()), "by_path": dict(by_path.most_common()),
            "by_path_subtype": dict(by_sub.most_common()), "by_word_class": dict(by_class.most_common())}


def report(out: dict, top: int = 12) -> list[str]:
    """The lines the command prints (counts, no text)."""
    lines = [f"false-positive tokens {out['fp']}, by decoding path: "
             + ", ".join(f"{k} {v}" for k, v in out["by_path"].items())]
    for name in ("by_path_subtype", "by_word_class"):
        lines.append(f"{name.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in list(out[name].items())[:top]))
    return lines

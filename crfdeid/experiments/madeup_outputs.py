"""Made-up notes of other countries and styles through redacted and surrogate output (issue 50).

``python -m crfdeid experiments made-up --notes SET`` (``dev`` to ``dev11``, ``short``, ``check`` to ``checkN``,
``forms9``, ``legacy``, a PATH) reads a set of made-up notes (:mod:`crfdeid.experiments.madeup`: PHI marked
``[[SUBTYPE|text]]``, phrases that must survive ``{{kind|text}}``), tags them as one batch through
:class:`~crfdeid.tagging.session.Session` (the path of ``python -m crfdeid tag``) with site mining off and on,
renders every note with the writers of ``tag --output-format redacted`` and ``surrogate`` (a fixed public seed, so
two runs agree) and reads the output back:

* which characters of the note each output replaced (:func:`replaced`: the text between the output's spans is
  found again, in order, in the note; the writers copy it unchanged);
* **identifiers left**: tokens with a letter or digit of gold Safe Harbor PHI (every subtype but
  STATE, COUNTRY, PROFESSION) that no replaced stretch touches, per subtype and per note (and identifiers,
  gold spans with at least one such token); and **gold identifiers left in the tagged spans**, the rule
  diets' count (:func:`crfdeid.experiments.casings.identifiers_left`: an identifier of any subtype with a
  letter or digit in no span the tagger predicted), with the names right after ``Pt`` by their type;
* **phrases changed**: must-survive phrases a replaced stretch overlaps (their text differs in the output), per
  kind and per note;
* **values changed**: of those, the phrases with a digit whose digits in the output differ (in
  surrogate output ``other`` counts those written with other digits: another clinical value,
  the worst case; the rest lost their digits to a placeholder);
* **falsified**: of the phrases changed, those whose output text differs from the note's and
  holds a made-up value, words or digits (a replaced stretch written as a surrogate, not as a
  ``[**...**]`` placeholder): a carcinoma's name become a made-up name, ``LVEDD`` a doctor, per
  kind (counted in surrogate output; a placeholder is honest, so redacted output has none). Each output
  span is judged on the note's characters it replaced (:func:`_pieces`), not the stretch it is joined
  into: a placeholder over the phrase beside a made-up phone is no made-up value (gate15b, 2026-11-27);
* **false spans**: replaced stretches that overlap no gold PHI span, per subtype;
* **words changed per 1,000**: tokens with a letter or digit outside every gold PHI span that a replaced stretch
  touches, per 1,000 such tokens (the transcriptions' measure of issue 58: words of a note without PHI that the
  output changed);
* **placeholders written**: output spans written as a ``[**...**]`` placeholder (in surrogate output, and
  of them the spans not confidently an identifier of their type, :mod:`crfdeid.deid.confident`, and of
  those the spans of a clinical form, :mod:`crfdeid.deid.forms`; the first counted by type too);
* **identifiers as placeholders**: of the gold Safe Harbor identifiers the output replaced (a replaced
  stretch touches them), those written wholly as placeholders: the realism a stricter surrogate gate
  costs (every one in redacted output; in surrogate output a real identifier that got no surrogate).

An annotated corpus (``--corpus FORMAT:PATH``, no phrases marked) is measured the same way: identifiers
left, false spans, placeholders written and identifiers as placeholders.

A note that fails (a writer refuses it: fail closed) is named and not scored. Counts and note ids only, never note text.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Iterable

from ..deid.writers import became
from ..document import Document, make_span
from ..errors import ConfigError, CrfdeidError, LocatedError
from ..recognizers.fixedforms import digits
from ..site import mining as mining_module
from ..tagging.session import SPANS, Session
from ..text.tokenize import tokenize
from .casings import identifiers_left, names_after_pt
from .madeup import NOT_SAFE_HARBOR

#: The public seed of the surrogate output (demonstrations and measurements only).
SEED = "crfdeid-made-up-notes"
#: A writer's placeholder (:data:`crfdeid.deid.policies.PLACEHOLDER`): honest, no made-up value.
_PLACEHOLDER = re.compile(r"\[\*\*[^*\]]*\*\*\]")
#: The outputs measured, as ``tag --output-format`` names them.
OUTPUTS = ("redacted", "surrogate")
#: :class:`~crfdeid.tagging.session.Session` keywords that are no session options: set by :func:`run`
#: itself, objects (a site, a grouper) that a command line does not give, or what the writers need.
_NOT_OPTIONS = frozenset({"model", "output_format", "options", "key", "seed", "site_mining", "site", "grouper",
                          "crf_evidence"})  # the writers measured read the model's word: never left out


class AlignmentError(LocatedError):
    """An output whose text outside its spans is not the note's: a writer changed unmarked text."""


def replaced(text: str, out: Document, tagged=None) -> list[tuple[int, int]]:
    """The stretches ``[start, end)`` of ``text`` that the output ``out`` replaced, in order.

    The writers copy the text between spans unchanged (:func:`crfdeid.deid.spans.replace_spans`),
    so the note reads as gap, replaced stretch, gap... with the output's gaps; the stretches are
    found by one anchored match (adjacent output spans make one stretch; where the text reads two
    ways, a gap's text recurring inside a replaced stretch, the shortest stretches first are taken).
    ``tagged``: the spans the writer was given (in ``text``); when they leave exactly the
    output's gaps they are the stretches, and the text need not be read (the comma inside
    ``3318 Larkspur Court, Apt 2B`` before ``, Tacoma`` is the street's, not a gap's).

    >>> from crfdeid.document import make_span
    >>> out = Document("1", "Seen by [**DOCTOR**] on [**DATE**].",
    ...                [make_span(8, 20, "DOCTOR"), make_span(24, 34, "DATE")])
    >>> replaced("Seen by Dr Lee on 7/22.", out)
    [(8, 14), (18, 22)]
    """
    gaps: list[str] = []
    pos = 0
    for sp in out.spans:
        if sp.start < pos:
            raise AlignmentError("output spans overlap", doc_id=out.doc_id, offset=sp.start)
        if sp.start > pos or not gaps:
            gaps.append(out.text[pos:sp.start])
        pos = sp.end
    gaps.append(out.text[pos:])
    if tagged:
        mine = _stretches(tagged)
        edges = [0, *(x for st in mine for x in st), len(text)]
        if [text[edges[i]:edges[i + 1]] for i in range(0, len(edges), 2)] == gaps:
            return mine
    m = re.fullmatch("(.+?)".join(re.escape(g) for g in gaps), text, re.DOTALL)
    if m is None:
        raise AlignmentError("the output's text between its spans is not the note's", doc_id=out.doc_id)
    return [m.span(i) for i in range(1, m.re.groups + 1)]


def _stretches(spans) -> list[tuple[int, int]]:
    """Sorted spans as stretches, adjacent ones joined (as an output's adjacent spans make one)."""
    out: list[tuple[int, int]] = []
    for sp in sorted(spans):
        if out and sp.start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], sp.end))
        else:
            out.append((sp.start, sp.end))
    return out


def _hits(a: int, b: int, stretches: list[tuple[int, int]]) -> bool:
    return any(s < b and a < e for s, e in stretches)


def _out_region(a: int, b: int, stretches: list[tuple[int, int]], out: Document) -> str:
    """The output text of the note's ``[a, b)``: a replaced stretch it touches counts whole."""
    pairs = list(zip(stretches, _merged(out)))

    def where(x: int, end: bool) -> int:
        delta = 0
        for (s, e), sp in pairs:
            if s < x < e or (x == s and not end) or (x == e and end):
                return sp.start if x == s or (s < x < e and not end) else sp.end
            if e <= x:
                delta = sp.end - e
        return x + delta
    return out.text[where(a, False):where(b, True)]


def _merged(out: Document) -> list:
    """The output's spans with adjacent ones joined (as :func:`replaced` returns them)."""
    merged: list = []
    for sp in out.spans:
        if merged and merged[-1].end == sp.start:
            merged[-1] = type(sp)(merged[-1].start, sp.end, merged[-1].category, merged[-1].subtype)
        else:
            merged.append(sp)
    return merged


def _words(text: str) -> list:
    """The tokens of ``text`` with a letter or digit: what an identifier left can leak (a comma or a
    slash between two replaced parts of a street leaks nothing).

    >>> [text[t.start:t.end] for text in ["3/2, 18 Kilmarnock Terrace"] for t in _words(text)]
    ['3', '2', '18', 'Kilmarnock', 'Terrace']
    """
    return [t for t in tokenize(text) if any(c.isalnum() for c in text[t.start:t.end])]


def _pieces(stretches: list[tuple[int, int]], out: Document, tagged=None) -> list[tuple[int, int, str]]:
    """Each output span as ``(start, end, text)``: the note's characters it replaced and what it wrote.

    Adjacent output spans make one replaced stretch (:func:`replaced`); with ``tagged`` (the spans the
    writer was given) holding as many spans in the stretch as the output, each output span is judged on its
    own span of the note (a placeholder joined to the made-up phone right after it is no made-up value);
    otherwise every span of the stretch stands for the whole stretch.

    >>> out = Document("1", "[**CITY**]4420 x", [make_span(0, 10, "CITY"), make_span(10, 14, "PHONE")])
    >>> _pieces([(0, 10)], out, [make_span(0, 6, "CITY"), make_span(6, 10, "PHONE")])
    [(0, 6, '[**CITY**]'), (6, 10, '4420')]
    >>> _pieces([(0, 10)], out)
    [(0, 10, '[**CITY**]'), (0, 10, '4420')]
    """
    given = sorted((sp.start, sp.end) for sp in tagged or ())
    pieces = []
    for (s, e), m in zip(stretches, _merged(out)):
        outs = [sp for sp in out.spans if m.start <= sp.start and sp.end <= m.end]
        inside = [(a, b) for a, b in given if s <= a and b <= e]
        if len(outs) > 1 and len(inside) == len(outs):
            pieces += [(a, b, out.text[sp.start:sp.end]) for (a, b), sp in zip(inside, outs)]
        else:
            pieces += [(s, e, out.text[sp.start:sp.end]) for sp in outs]
    return pieces


def _made_up(a: int, b: int, pieces: list[tuple[int, int, str]]) -> bool:
    """Whether an output span over ``[a, b)`` (:func:`_pieces`) was written as a made-up value (no placeholder)."""
    return any(s < b and a < e and not _PLACEHOLDER.fullmatch(text) for s, e, text in pieces)


def score_note(gold: Document, out: Document, tagged=None, made_up: bool = True) -> dict:
    """One note's counts in one output (``out``: the writer's document, spans in its text;
    ``tagged``: the spans it was written from, :func:`replaced`; ``made_up``: the writer may
    write made-up values, so ``falsified`` is counted).

    >>> from crfdeid.document import make_span
    >>> gold = Document("1", "LVEDD 5.9 cm, GCS 15", [], {"keep": [[0, 12, "value"], [14, 20, "score"]]})
    >>> out = Document("1", "Ann Lee 5.9 cm, [**DOCTOR**] 15",
    ...                [make_span(0, 7, "DOCTOR"), make_span(16, 28, "DOCTOR")])
    >>> r = score_note(gold, out)
    >>> r["changed"], r["falsified"]
    ({'value': 1, 'score': 1}, {'value': 1})
    """
    stretches = replaced(gold.text, out, tagged)
    pieces = _pieces(stretches, out, tagged)
    left: Counter = Counter()
    left_spans: Counter = Counter()
    written = held = 0
    for sp in gold.spans:
        if sp.subtype in NOT_SAFE_HARBOR:
            continue
        missed = sum(not _hits(sp.start + t.start, sp.start + t.end, stretches)
                     for t in _words(gold.text[sp.start:sp.end]))
        left[sp.subtype] += missed
        left_spans[sp.subtype] += missed > 0
        outs = [t for s, e, t in pieces if s < sp.end and sp.start < e]
        written += bool(outs)
        held += bool(outs) and all(_PLACEHOLDER.fullmatch(o) for o in outs)
    changed: Counter = Counter()
    falsified: Counter = Counter()
    values = other = 0
    for a, b, kind in gold.meta.get("keep", ()):
        if not _hits(a, b, stretches):
            continue
        changed[kind] += 1
        region = _out_region(a, b, stretches, out)
        falsified[kind] += made_up and region != gold.text[a:b] and _made_up(a, b, pieces)
        was, now = digits(gold.text[a:b]), digits(region)
        if was and was != now:
            values += 1
            other += bool(now)
    false: Counter = Counter()
    for (s, e), sp in zip(stretches, _merged(out)):
        if not any(g.start < e and s < g.end for g in gold.spans):
            false[sp.subtype] += 1
    placeholders = sum(bool(_PLACEHOLDER.fullmatch(out.text[sp.start:sp.end])) for sp in out.spans)
    plain = [t for t in _words(gold.text) if not any(g.start < t.end and t.start < g.end for g in gold.spans)]
    words_changed = sum(_hits(t.start, t.end, stretches) for t in plain)
    return {"words": len(plain), "words_changed": words_changed,
            "left": dict(left), "left_identifiers": dict(left_spans), "changed": dict(changed),
            "falsified": {k: n for k, n in falsified.items() if n}, "values_changed": values,
            "values_other": other, "false": dict(false), "placeholders": placeholders,
            "identifiers_replaced": written, "identifiers_as_placeholders": held}


def gold_counts(gold: list[Document]) -> dict:
    """What the notes hold: Safe Harbor tokens and identifiers, phrases by kind, phrases with digits."""
    tokens: Counter = Counter()
    idents: Counter = Counter()
    kinds: Counter = Counter()
    with_digits = 0
    for d in gold:
        for sp in d.spans:
            if sp.subtype not in NOT_SAFE_HARBOR:
                tokens[sp.subtype] += len(_words(d.text[sp.start:sp.end]))
                idents[sp.subtype] += 1
        for a, b, kind in d.meta.get("keep", ()):
            kinds[kind] += 1
            with_digits += bool(digits(d.text[a:b]))
    return {"notes": len(gold), "identifier_tokens": sum(tokens.values()), "identifiers": sum(idents.values()),
            "identifier_tokens_by_subtype": dict(sorted(tokens.items())),
            "phrases": sum(kinds.values()), "phrases_by_kind": dict(sorted(kinds.items())),
            "phrases_with_digits": with_digits,
            "other_phi_spans": sum(sp.subtype in NOT_SAFE_HARBOR for d in gold for sp in d.spans),
            "all_spans": sum(len(d.spans) for d in gold)}


def _total(per_note: dict[str, dict]) -> dict:
    out: dict = {"identifier_tokens_left": 0, "identifiers_left": 0, "identifiers_left_in_spans": 0,
                 "phrases_changed": 0, "falsified": 0,
                 "values_changed": 0, "values_other": 0, "false_spans": 0, "placeholders": 0,
                 "words": 0, "words_changed": 0, "identifiers_replaced": 0, "identifiers_as_placeholders": 0}
    by: dict[str, Counter] = {"left_by_subtype": Counter(), "identifiers_left_by_subtype": Counter(),
                              "changed_by_kind": Counter(), "falsified_by_kind": Counter(),
                              "false_by_subtype": Counter(), "names_after_pt": Counter()}
    for r in per_note.values():
        out["identifier_tokens_left"] += sum(r["left"].values())
        out["identifiers_left"] += sum(r["left_identifiers"].values())
        out["identifiers_left_in_spans"] += r.get("identifiers_left_in_spans", 0)
        out["phrases_changed"] += sum(r["changed"].values())
        out["falsified"] += sum(r["falsified"].values())
        out["values_changed"] += r["values_changed"]
        out["values_other"] += r["values_other"]
        out["false_spans"] += sum(r["false"].values())
        out["placeholders"] += r.get("placeholders", 0)
        out["words"] += r.get("words", 0)
        out["words_changed"] += r.get("words_changed", 0)
        out["identifiers_replaced"] += r.get("identifiers_replaced", 0)
        out["identifiers_as_placeholders"] += r.get("identifiers_as_placeholders", 0)
        by["left_by_subtype"].update(r["left"])
        by["identifiers_left_by_subtype"].update(r["left_identifiers"])
        by["changed_by_kind"].update(r["changed"])
        by["falsified_by_kind"].update(r["falsified"])
        by["false_by_subtype"].update(r["false"])
        by["names_after_pt"].update(r.get("names_after_pt", {}))
    out.update({k: {s: n for s, n in sorted(c.items()) if n} for k, c in by.items()})
    return out


def run(gold: list[Document], model=None, *, mining: Iterable[bool] = (False, True),
        outputs: Iterable[str] = OUTPUTS, seed: str = SEED, writer_options: dict | None = None,
        session_options: dict | None = None) -> dict:
    """Every note tagged as one batch per mining setting, rendered in every output, and scored.

    Parameters
    ----------
    gold : list of Document
        Made-up notes with gold spans and ``meta['keep']`` (:func:`crfdeid.experiments.madeup.read_notes`).
    model : TaggingModel, str or Path, optional
        A loaded model or a model file (default: the shipped model), loaded once.
    mining : iterable of bool
        Site mining settings, each a run over all the notes.
    outputs : iterable of str
        Output styles (``redacted``, ``surrogate``, ``masked``).
    seed : str
        The surrogates' public seed.
    writer_options : dict, optional
        Options of every writer, as ``tag -o KEY=VALUE`` takes them.
    session_options : dict, optional
        Keyword arguments of :class:`~crfdeid.tagging.session.Session` (``o_threshold``,
        ``o_words``, ``site``...; the hook for tag options a branch adds, e.g. a date order).

    Returns
    -------
    dict
        ``gold`` (:func:`gold_counts`) and ``runs``: ``"mining off"``/``"mining on"`` -> output
        -> totals (:func:`score_note` summed), ``by_note`` and ``failed`` (note ids); and
        ``mining_applies`` (False: the model is one site mining leaves alone, :func:`crfdeid.site.mining.mines`);
        with a routed model, ``routes`` (member -> notes it tagged) and ``route_by_note`` (note id -> member).
    """
    session_options = dict(session_options or {})
    allowed = sorted(set(inspect.signature(Session).parameters) - _NOT_OPTIONS)
    unknown = sorted(set(session_options) - set(allowed))
    if unknown:
        raise ConfigError(f"unknown session option(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")
    base = Session(model, SPANS, **session_options)
    # the patient key kept (an annotated corpus's notes share a patient's surrogates), nothing else
    blank = [Document(d.doc_id, d.text, [], {k: d.meta[k] for k in ("patient",) if k in d.meta}) for d in gold]
    runs: dict = {}
    routes: dict = {}
    for on in mining:
        tagger = Session(base.model, SPANS, site_mining=on, **session_options)
        results = list(tagger.tag(blank))
        routes = {doc_id: tagged.meta["route"] for doc_id, tagged, err in results
                  if err is None and "route" in tagged.meta}  # a routed model's member of each note
        per_out: dict = {}
        for fmt in outputs:
            writer = Session(base.model, fmt, options={**(writer_options or {}),
                                                       **({"seed": seed} if fmt == "surrogate" else {})}).writer()
            by_note, failed = {}, []
            for g, (doc_id, tagged, err) in zip(gold, results):
                try:
                    out = writer.transform(tagged) if err is None else None
                except CrfdeidError:  # the writer refuses the note (a LeakError...): not written
                    out = None
                if out is None:
                    failed.append(doc_id)  # not written (fail closed), so not scored
                else:
                    # an AlignmentError is the measurement's: raised
                    by_note[doc_id] = score_note(g, out, _written_spans(doc_id, tagged), made_up=fmt == "surrogate")
                    by_note[doc_id]["identifiers_left_in_spans"] = identifiers_left(g, tagged.spans)
                    by_note[doc_id]["names_after_pt"] = dict(names_after_pt(tagged.text, tagged.spans))
            per_out[fmt] = {**_total(by_note), "failed": failed, "by_note": by_note}
            if hasattr(writer, "surrogator"):  # spans not confidently an identifier of their type (counts)
                summary = writer.surrogator.summary()
                per_out[fmt]["not_confident"] = summary["not_confident_spans"]
                per_out[fmt]["clinical_forms"] = summary["clinical_forms"]  # of them, a clinical form's (forms.py)
                per_out[fmt]["not_confident_by_type"] = summary["not_confident_by_type"]
                per_out[fmt]["narrow_gates"] = summary["narrow_gates"]  # of them, by narrow gate (gates.py)
        runs[f"mining {'on' if on else 'off'}"] = per_out
    out = {"gold": gold_counts(gold), "runs": runs, "mining_applies": mining_module.mines(base.model)}
    if routes:
        out["routes"] = dict(sorted(Counter(routes.values()).items()))
        out["route_by_note"] = routes
    return out


def _written_spans(doc_id: str, tagged: Document) -> list:
    """The spans the writer wrote of ``tagged`` (its repeats included: :func:`crfdeid.deid.writers.became`), the
    stretches :func:`replaced` aligns on; the tagged spans when the writer kept none. Aligned on the tagged spans
    alone, a repeat beside a span reads as a gap and the stretches shift (``[**HOSPITAL**] (225) 610-8514`` read as
    a phrase's word written as a phone number)."""
    written = became(doc_id)
    if not written:
        return tagged.spans
    return [make_span(a, b, "OTHER") for a, b in written]


def _per_mille(n: int, d: int) -> str:
    """``n`` per 1,000 of ``d``, one decimal (``-`` when ``d`` is 0).

    >>> _per_mille(3, 2000), _per_mille(0, 0)
    ('1.5', '-')
    """
    return f"{1000 * n / d:.1f}" if d else "-"


def report(res: dict) -> list[str]:
    """The lines the command prints: totals per run and output, then per note (ids and counts)."""
    g = res["gold"]
    lines = [f"{g['notes']} notes: {g['identifier_tokens']} Safe Harbor PHI tokens in {g['identifiers']} "
             f"identifiers, {g['phrases']} phrases that must survive ({g['phrases_with_digits']} with digits)"]
    if res.get("routes"):
        lines.append("notes by member: " + ", ".join(f"{k} {v}" for k, v in res["routes"].items()))
    if not res.get("mining_applies", True) and "mining on" in res["runs"]:
        lines.append("site mining does not apply to this model: mining on is mining off")
    for run_name, outs in res["runs"].items():
        for fmt, r in outs.items():
            pct = lambda n, d: f"{100 * n / d:.1f} %" if d else "-"  # noqa: E731
            lines.append(
                f"{run_name}, {fmt}: identifier tokens left {r['identifier_tokens_left']} of "
                f"{g['identifier_tokens']} ({pct(r['identifier_tokens_left'], g['identifier_tokens'])}), "
                f"identifiers left {r['identifiers_left']} of {g['identifiers']}; gold identifiers of any type "
                f"with a letter or digit in no tagged span {r['identifiers_left_in_spans']} of {g['all_spans']}; "
                f"phrases changed {r['phrases_changed']} of {g['phrases']} ({pct(r['phrases_changed'], g['phrases'])}),"
                f" falsified {r['falsified']}; values changed {r['values_changed']} of {g['phrases_with_digits']} "
                f"(other digits written {r['values_other']}); false spans {r['false_spans']}; words changed "
                f"{_per_mille(r['words_changed'], r['words'])} per 1,000 outside PHI; failed notes {len(r['failed'])}"
                + (f" ({', '.join(r['failed'])})" if r["failed"] else "")
                + f"; placeholders written {r['placeholders']}"
                + (f" ({r['not_confident']} not confidently an identifier, {r.get('clinical_forms', 0)} of them "
                   "a clinical form)" if "not_confident" in r else "")
                + f"; identifiers as placeholders {r['identifiers_as_placeholders']} of {r['identifiers_replaced']} "
                  "replaced")
            for key in ("identifiers_left_by_subtype", "left_by_subtype", "changed_by_kind", "falsified_by_kind",
                        "false_by_subtype", "not_confident_by_type", "narrow_gates", "names_after_pt"):
                if r.get(key):
                    lines.append(f"  {key.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in r[key].items()))
    return lines


def note_lines(res: dict, run_name: str, fmt: str) -> list[str]:
    """Per note of one run and output: identifier tokens left, phrases changed, values, false spans."""
    lines = []
    for doc_id, r in res["runs"][run_name][fmt]["by_note"].items():
        left, changed, false = (sum(r[k].values()) for k in ("left", "changed", "false"))
        lines.append(f"{doc_id:24s} left {left:2d}  changed {changed:2d}  falsified {sum(r['falsified'].values()):2d}  "
                     f"values {r['values_changed']:2d} (other {r['values_other']})  false {false:2d}"
                     + (f"  {res['route_by_note'][doc_id]}" if doc_id in res.get("route_by_note", {}) else ""))
    return lines

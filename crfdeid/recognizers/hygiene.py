"""Spans that cannot be PHI: only punctuation, one letter or stop words; ages under 90.

A tagger that has read few notes like the ones it tags marks ``s``, ``a``, ``the``, ``,``
or ``S:`` (a one-letter SOAP heading); redacting them hides nothing and breaks the note.
:func:`drop_junk` drops a predicted span whose tokens (runs of letters or digits) are
none, or one letter in all, or all stop words (the ``stop_words`` list), with two
exceptions that keep what belongs to a name:

* an **initial**: one letter right after a title (``mr I``, ``MS S.``), or one letter
  before a span with at most a full stop and two spaces between (``J. Smith``, ``d ross``;
  not a lower-case ``a``), or an upper-case letter or a letter with its full stop after a
  span (``Smith, J.``, ``ROBERT V. DEGIORGIO``; not the possessive ``s`` of ``Smith's``);
* a **joint**: stop words or punctuation between two spans that are kept, on one line with
  at most two spaces on each side (``of`` of ``U of MD``);
* a **state's code** after a place and a comma (``OR`` of ``Portland, OR``).

:func:`drop_young_ages` drops AGE spans whose numbers are all 89 or less (``78`` of
``78M``): under HIPAA Safe Harbor only ages of 90 and over are identifiers, the
project's models are trained so (the synthetic notes, the PhysioNet gold standard) and
its surrogates keep such ages. The i2b2 2014 annotation guidelines mark every age,
so a model of the i2b2 scheme trained on that corpus would tag them; the tagger drops
them for the i2b2 scheme only (a model with labels of its own keeps its ages).

The one-letter rule is the i2b2 2014 labels' (a one-letter name, date or place is junk or an
initial); a corpus with labels of its own may mark one letter as PHI (a sex field written ``H``
or ``M``): its models keep one-letter spans, and the stop-word rule is for English notes only.

Both run after the rule overlay and before the Safe Harbor layer, which adds back any
identifier of its forms (an age of 90 and over written as an age is one).

>>> from crfdeid.document import make_span
>>> text = "S: pt and Dr. J. Smith's wife, 78M"
>>> spans = [make_span(0, 2, "PATIENT"), make_span(6, 9, "DATE"), make_span(14, 16, "DOCTOR"),
...          make_span(17, 22, "DOCTOR"), make_span(23, 24, "DOCTOR"), make_span(31, 34, "AGE")]
>>> [text[s.start:s.end] for s in drop_young_ages(text, drop_junk(text, spans))]
['J.', 'Smith']
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache, partial

from ..document import Span
from ..site.match import TOKEN  # one definition of a note's tokens
from ..text.tokenize import ABBREVIATIONS
from .ruledata import lists, table

_R = table("hygiene").namespace()  # the patterns and words (crfdeid/_data/rules/hygiene.tsv)


_stop_words = partial(lists, "stop_words")


def prepare() -> None:
    """Load the stop-word list (a model does this at load)."""
    _stop_words()


def kind(text: str, sp: Span, stop_words: bool = True, letters: bool = True) -> str | None:
    """``letter`` (with ``letters``), ``junk`` (punctuation, or with ``stop_words`` stop words), ``row`` (with
    ``letters``: a span the model found, of no date's or age's type, over two or more cells parted by ``|`` or a tab,
    each a plain number of four digits or fewer or a blood pressure of 40-299 first: ``168 | 183``, ``112/64 | 114``,
    never the day-first ``24/11 | 25/11``; a UK or Canadian postcode holds letters; the layer adds back a cell's
    forms) or None (a span that may be PHI). Evidence for ``row`` (rows31, docs/history/check31-rule.md): on the 38
    development sets of other countries (day-first dates, UK and other postcodes, lower- and upper-case notes) the
    shipped model's 34 such spans held 162 phrases and no identifier, identifiers left the same in all three casings
    on every draw; on check31, written after it, 69 fewer phrases changed, the same identifiers left in all three."""
    toks = TOKEN.findall(text, sp.start, sp.end)
    if not toks:
        return "junk"
    if letters and sp.subtype not in ("DATE", "AGE") and _R.ROW.fullmatch(text[sp.start:sp.end].strip(" \t|")):
        return "row"
    if any(t.isdecimal() for t in toks):
        return None
    if sum(len(t) for t in toks) == 1:
        return "letter" if letters else None
    return "junk" if stop_words and all(t.lower() in _stop_words() for t in toks) else None


def _initial(text: str, sp: Span, prev: Span | None, nxt: Span | None) -> bool:
    """Whether the one-letter span ``sp`` is an initial of the name next to it."""
    if _R.TITLE_BEFORE.search(text, max(0, sp.start - 8), sp.start):
        return True
    letter = next((c for c in text[sp.start:sp.end] if c.isalnum()), None)
    if letter is None:  # a lone combining mark (after an emoji, say) is no initial
        return False
    dotted = text.startswith(".", sp.end) or "." in text[sp.start:sp.end]
    if nxt is not None and _R.GAP_AFTER_INITIAL.fullmatch(text, sp.end, nxt.start) and \
            (letter != "a" or dotted):
        return True
    if prev is not None and _R.GAP_BEFORE_INITIAL.fullmatch(text, prev.end, sp.start):
        possessive = letter in "sS" and text[sp.start - 1:sp.start] in ("'", "’")
        return not possessive and (letter.isupper() or dotted)
    return False


def drop_junk(text: str, spans, stop_words: bool = True, letters: bool = True) -> list[Span]:
    """``spans`` without those that are only punctuation, (with ``letters``, the i2b2 2014 labels)
    one letter or (with ``stop_words``, the English list) stop words (module docstring: initials
    and joints are kept)."""
    spans = sorted(spans)
    kinds = [kind(text, sp, stop_words, letters) for sp in spans]
    if not any(kinds):
        return spans
    keep = [k is None for k in kinds]
    for i, k in enumerate(kinds):  # joints first: their neighbours may be initials ("U of MD")
        if k == "junk" and 0 < i < len(spans) - 1 and kinds[i - 1] != "junk" and kinds[i + 1] != "junk":
            keep[i] = bool(_R.JOINT_GAP.fullmatch(text, spans[i - 1].end, spans[i].start)
                           and _R.JOINT_GAP.fullmatch(text, spans[i].end, spans[i + 1].start))
    for i, k in enumerate(kinds):  # a state's code after a place ("Portland, OR", "OR" a stop word)
        if k == "junk" and i and spans[i].subtype == "STATE" and spans[i - 1].category == "LOCATION":
            keep[i] = bool(_R.CODE_GAP.fullmatch(text, spans[i - 1].end, spans[i].start))
    for i, k in enumerate(kinds):
        if k == "letter":
            prev = spans[i - 1] if i and keep[i - 1] else None
            nxt = spans[i + 1] if i + 1 < len(spans) and keep[i + 1] else None
            keep[i] = _initial(text, spans[i], prev, nxt)
    return [sp for sp, k in zip(spans, keep) if k]


_PUNCT = ".,;:!?"
_OPEN = {")": "(", "]": "[", "}": "{"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def trim_punctuation(text: str, spans) -> list[Span]:
    """``spans`` without the punctuation at their ends: the full stop of ``Keene.``, a comma or
    colon after a name, a bracket the span does not open or close. A full stop that belongs
    to its word is kept: an initial's (``K.``), an abbreviation's (``St.``, ``Jr.``:
    :data:`crfdeid.text.tokenize.ABBREVIATIONS`) and a dotted one's (``N.H.``). A span of
    nothing else is dropped.

    A lower-case stop word at an end of a span of several words is left outside too (``through``
    of ``arranged through Bayline Home Care``), except the particles of names (``de``, ``van``,
    ``bin``...). Evidence: no gold PHI phrase of the PhysioNet development notes (1,221) starts
    or ends with a lower-case stop word (2026-11-25, ``id-phi.phrase``), nor any of the 585 of the
    made-up notes of the US, UK, Australia, Ireland, India, New Zealand, Canada and South Africa
    (``crfdeid/experiments/data``, lower-case notes among them); the i2b2 2014 guidelines
    leave function words outside a span; what is left outside is a function word, never an
    identifier.

    >>> from crfdeid.document import make_span
    >>> text = "Seen by Dr. Keene. Lives on Main St. PT through Bayline Home Care"
    >>> [text[s.start:s.end] for s in trim_punctuation(text, [make_span(12, 18, "DOCTOR"),
    ...     make_span(28, 36, "STREET"), make_span(40, 65, "HOSPITAL")])]
    ['Keene', 'Main St.', 'Bayline Home Care']
    """
    out = []
    for sp in spans:
        start, end = sp.start, sp.end
        while True:
            was = (start, end)
            while end > start and _loose_end(text, start, end):
                end -= 1
                while end > start and text[end - 1] in " \t":
                    end -= 1
            while start < end and _loose_start(text, start, end):
                start += 1
                while start < end and text[start] in " \t":
                    start += 1
            start, end = _trim_stop_words(text, start, end)
            if (start, end) == was:
                break
        if start < end:
            out.append(sp if (start, end) == (sp.start, sp.end) else replace(sp, start=start, end=end))
    return out


@lru_cache(maxsize=1)
def _edge_words() -> frozenset:
    return (_stop_words() | _R.EDGE_WORDS) - _R.PARTICLES


def _trim_stop_words(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without the lower-case stop words (not name particles) at its ends."""
    stops = _edge_words()
    while (m := _R.FIRST_WORD.match(text, start, end)) and m.group(1) in stops:
        start = m.end()
    while (m := _R.LAST_WORD.search(text, start, end)) and m.group(1) in stops:
        end = m.start()
    return start, end


def _loose_end(text: str, start: int, end: int) -> bool:
    ch = text[end - 1]
    if ch in _OPEN:
        return text.count(_OPEN[ch], start, end) < text.count(ch, start, end)
    if ch != ".":
        return ch in _PUNCT
    m = _R.WORD_DOT.search(text, start, end)
    if m is None:
        return True
    word = m.group()[:-1]
    return not (len(word) == 1 or "." in word or word.lower() in ABBREVIATIONS)


def _loose_start(text: str, start: int, end: int) -> bool:
    ch = text[start]
    if ch in _CLOSE:
        return text.count(_CLOSE[ch], start, end) < text.count(ch, start, end)
    return ch in _PUNCT or ch in _OPEN


def drop_young_ages(text: str, spans) -> list[Span]:
    """``spans`` without the AGE spans whose numbers are all 89 or less (a span without
    digits, ``ninety``, is kept)."""
    out = []
    for sp in spans:
        if sp.subtype == "AGE":
            numbers = [int(n) for n in _R.DIGITS.findall(text, sp.start, sp.end)]
            if numbers and max(numbers) <= 89:
                continue
        out.append(sp)
    return out

"""Shapes of their own in lines written without a capital (a feature set's ``caseless: true``).

In a note written as usual a lower-case word is almost never a name, so the CRF learns that the
shapes ``x``, ``xxxx`` (own and of the neighbours) argue against PHI, and a name or a place in a
note written all in lower case (``transferred from mercy hospital``, ``lives in dorset``) loses
that argument with nothing to weigh against it (docs/synth.md, "Lower-case notes"). With
``caseless: true`` a feature set gives the tokens of a line that holds a lower-case letter and no
capital their shape attributes under a head of their own (``lc|shape:xxxx``, ``-1:lc|sshape:x``):
the CRF weighs shapes in such lines apart from shapes in lines written with capitals, so the notes
as written keep the weights they had and the lower-case lines learn theirs. Every other attribute
(the lower-cased word, the word lists, the triggers, the bigrams) is the same in both.

The featurizer caches attributes per word type; a token of a caseless line is looked up under its
word with :data:`MARK` before it (:func:`word_keys`), so the word-type caches of the featurizer and
of the numpy scorer keep working unchanged.

``caseless: [lower, upper]`` does the same for lines written in capitals (a capital and no
lower-case letter): their tokens' shapes and case flags take the head ``uc|`` (word keys start
with :data:`UPPER_MARK`), so an upper-case note's names no longer share the weights of the
acronyms (``CABG``, ``COPD``) of lines written with both cases. ``true`` is ``[lower]``.
"""

from __future__ import annotations

#: What a word key of a token in a caseless line starts with (tokens hold no control character:
#: :func:`crfdeid.text.tokenize.for_tagging` makes them spaces).
MARK = "\x00"

#: The same for a token of an upper-case line (``caseless: [lower, upper]``).
UPPER_MARK = "\x01"

#: Heads of the attributes that carry a word's case, and the head they take in a caseless line.
#: The case flags (``has_cap``, ``init_cap``, ``all_caps``) never stand in a line without a
#: capital, so they change nothing there; in an upper-case line every word has them.
CASE_HEADS = ("shape:", "sshape:", "has_cap", "init_cap", "all_caps")
HEAD = "lc|"
UPPER_HEAD = "uc|"

#: The line kinds ``caseless`` may name, and the mark each gives its tokens' word keys.
KINDS = {"lower": MARK, "upper": UPPER_MARK}
_HEAD_OF = {MARK: HEAD, UPPER_MARK: UPPER_HEAD}


def line_kind(words) -> str | None:
    """``"lower"`` (a lower-case letter, no capital), ``"upper"`` (a capital, no lower-case letter)
    or None (both, or no cased letter).

    >>> line_kind(["lives", "in", "dorset"]), line_kind(["BP", "120/80"]), line_kind(["12:30"])
    ('lower', 'upper', None)
    """
    joined = "".join(words)
    low, up = joined.lower(), joined.upper()
    if low == up:
        return None
    return "lower" if joined == low else "upper" if joined == up else None


def word_keys(text: str, tokens, words: list[str], kinds=("lower",)) -> list[str]:
    """``words`` (the tokens' texts) with the mark of their line's kind before those of lines of
    ``kinds`` (:data:`KINDS`).

    >>> from crfdeid.text.tokenize import tokenize
    >>> text = "Seen by Dr Lee\\nlives in dorset\\n12:30\\nDR LEE"
    >>> toks = tokenize(text)
    >>> show = lambda keys: [k.replace(MARK, "~").replace(UPPER_MARK, "^") for k in keys]
    >>> show(word_keys(text, toks, [t.text for t in toks]))
    ['Seen', 'by', 'Dr', 'Lee', '~lives', '~in', '~dorset', '12', ':', '30', 'DR', 'LEE']
    >>> show(word_keys(text, toks, [t.text for t in toks], ("lower", "upper")))[-5:]
    ['12', ':', '30', '^DR', '^LEE']
    """
    out = list(words)
    a = 0
    n = len(tokens)
    for i in range(1, n + 1):
        if i == n or "\n" in text[tokens[i - 1].end:tokens[i].start]:
            kind = line_kind(words[a:i])
            if kind is not None and kind in kinds:
                mark = KINDS[kind]
                out[a:i] = [mark + w for w in words[a:i]]
            a = i
    return out


def marked(attributes: list[str], mark: str = MARK) -> list[str]:
    """``attributes`` with the head of ``mark`` (``lc|``, ``uc|``) before those of :data:`CASE_HEADS`.

    >>> marked(["lower:dorset", "shape:xxxxxx", "sshape:x", "g:city"])
    ['lower:dorset', 'lc|shape:xxxxxx', 'lc|sshape:x', 'g:city']
    >>> marked(["lower:lee", "shape:XXX", "has_cap", "init_cap", "all_caps"], UPPER_MARK)
    ['lower:lee', 'uc|shape:XXX', 'uc|has_cap', 'uc|init_cap', 'uc|all_caps']
    """
    head = _HEAD_OF[mark]
    return [head + a if a.startswith(CASE_HEADS) else a for a in attributes]


def kinds_of(value) -> tuple[str, ...]:
    """The line kinds a feature set's ``caseless`` value names (``true`` is ``("lower",)``).

    >>> kinds_of(True), kinds_of(False), kinds_of(["upper", "lower"])
    (('lower',), (), ('lower', 'upper'))
    """
    if value is True:
        return ("lower",)
    if not value:
        return ()
    if isinstance(value, str) or not all(k in KINDS for k in value):
        raise ValueError(f"caseless must be true, false or a list of {', '.join(KINDS)}, not {value!r}")
    return tuple(k for k in KINDS if k in value)

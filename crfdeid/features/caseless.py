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
"""

from __future__ import annotations

#: What a word key of a token in a caseless line starts with (tokens hold no control character:
#: :func:`crfdeid.text.tokenize.for_tagging` makes them spaces).
MARK = "\x00"

#: Heads of the attributes that carry a word's case, and the head they take in a caseless line.
CASE_HEADS = ("shape:", "sshape:")
HEAD = "lc|"


def _caseless_line(words) -> bool:
    joined = "".join(words)
    return joined.lower() == joined and joined.upper() != joined


def word_keys(text: str, tokens, words: list[str]) -> list[str]:
    """``words`` (the tokens' texts) with :data:`MARK` before those of caseless lines.

    >>> from crfdeid.text.tokenize import tokenize
    >>> text = "Seen by Dr Lee\\nlives in dorset\\n12:30"
    >>> [k.replace(MARK, "~") for k in word_keys(text, tokenize(text), [t.text for t in tokenize(text)])]
    ['Seen', 'by', 'Dr', 'Lee', '~lives', '~in', '~dorset', '12', ':', '30']
    """
    out = list(words)
    a = 0
    n = len(tokens)
    for i in range(1, n + 1):
        if i == n or "\n" in text[tokens[i - 1].end:tokens[i].start]:
            if _caseless_line(words[a:i]):
                out[a:i] = [MARK + w for w in words[a:i]]
            a = i
    return out


def marked(attributes: list[str]) -> list[str]:
    """``attributes`` with :data:`HEAD` before those of :data:`CASE_HEADS`.

    >>> marked(["lower:dorset", "shape:xxxxxx", "sshape:x", "g:city"])
    ['lower:dorset', 'lc|shape:xxxxxx', 'lc|sshape:x', 'g:city']
    """
    return [HEAD + a if a.startswith(CASE_HEADS) else a for a in attributes]

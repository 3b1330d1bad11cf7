"""The featurizer: the template registries, feature-set resolution, per-type caching and the one +-window.

Templates register themselves by versioned name (``shape.v1``) in :data:`WORD_TEMPLATES`
or :data:`TOKEN_TEMPLATES`; their output is python-crfsuite's item format
(:func:`to_attributes`). Token templates that need the same value of a document (its
lines, its lower-cased tokens) compute it once (:func:`per_document`); the featurizer
forgets it when the document's templates have run.

A feature set (``features/*.yaml``) is plain data::

    name: full
    groups: {lexical: true, orthographic: true, pattern: true, dictionary: true, context: true}
    window: 2          # +-window over word templates
    token_window: 1    # +-window over token (document context) templates
    bigrams: true      # lower-cased bigrams with the previous and next token
    caseless: false    # shapes of their own in lines without a capital (true), and in lines
                       # without a lower-case letter too ([lower, upper]; crfdeid.features.caseless)

Each group names its templates (:data:`GROUPS`); ``extra_word``/``extra_token``
add registered templates by name, ``windowed`` overrides which word templates
are copied to the neighbours. :func:`resolve_feature_set` turns this into the
explicit lists (``word``, ``windowed``, ``token``) stored in every model.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import chain
from typing import Any, TypeVar

from ..errors import ConfigError, RegistryError
from ..registry import Registry
from ..settings import check_keys
from ..text.tokenize import tokenize
from . import caseless as _caseless

WORD_TEMPLATES = Registry("word feature template")
TOKEN_TEMPLATES = Registry("token feature template")


def to_attributes(feats: dict, prefix: str = "") -> list[str]:
    """python-crfsuite's item format as a list of attribute strings.

    A string value ``{"k": "v"}`` is the attribute ``k:v``; ``True`` is ``k``
    (``False``/``None``: no attribute); a nested mapping prefixes its keys. In
    python-crfsuite a number is the weight of attribute ``k``; crfdeid's attributes
    are binary, so a number is refused rather than read as a string.

    >>> to_attributes({"shape": "Xx", "title": True, "off": False, "gaz": {"city": True}})
    ['shape:Xx', 'title', 'gaz:city']
    >>> to_attributes({"len": 5})
    Traceback (most recent call last):
    ...
    crfdeid.errors.ConfigError: feature 'len' has the number 5: python-crfsuite reads numbers as weights, crfdeid's attributes are binary (give a string value, e.g. '5')
    """
    out = []
    for k, v in feats.items():
        if v is True:
            out.append(prefix + k)
        elif v is False or v is None:
            continue
        elif isinstance(v, dict):
            out.extend(to_attributes(v, f"{prefix}{k}:"))
        elif isinstance(v, str):
            out.append(f"{prefix}{k}:{v}")
        elif isinstance(v, (int, float)):
            raise ConfigError(f"feature {prefix + k!r} has the number {v!r}: python-crfsuite reads numbers "
                              f"as weights, crfdeid's attributes are binary (give a string value, e.g. '{v}')")
        else:
            raise ConfigError(f"feature {prefix + k!r} has a {type(v).__name__} value; "
                              "expected a string, true/false or a mapping")
    return out


_MEMOS: list = []  # the [text, tokens, result] of every per_document function
_T = TypeVar("_T")


def per_document(fn: Callable[[str, Any], _T]) -> Callable[[str, Any], _T]:
    """Remember ``fn(text, tokens)`` for the last document it saw (the same ``text`` and ``tokens`` objects).

    The result is shared between callers, which must not change it; :func:`forget`
    drops it (and the document) once the document's templates have run.
    """
    last: list = [None, None, None]
    _MEMOS.append(last)

    @functools.wraps(fn)
    def shared(text, tokens):
        if last[0] is not text or last[1] is not tokens:
            last[:] = text, tokens, fn(text, tokens)
        return last[2]
    return shared


def forget() -> None:
    """Drop what :func:`per_document` functions remember (a large note is not kept alive)."""
    for last in _MEMOS:
        last[:] = None, None, None


#: Feature groups (He et al. 2015, table 2): word templates, which of them are
#: windowed, token templates.
GROUPS = {
    "lexical": {"word": ["word.v1", "lower.v1", "prefix.v1", "suffix.v1"],
                "windowed": ["lower.v1"], "token": []},
    "orthographic": {"word": ["shape.v1", "short_shape.v1", "length.v1", "flags.v1"],
                     "windowed": ["shape.v1"], "token": ["glued.v1"]},
    "pattern": {"word": ["digits.v1", "word_patterns.v1"], "windowed": ["digits.v1"],
                "token": ["text_patterns.v1"]},
    "dictionary": {"word": ["gazetteer.v1", "rank.v1"], "windowed": ["gazetteer.v1"],
                   "token": ["gazetteer_phrases.v1"]},
    "context": {"word": [], "windowed": [], "token": ["line.v1", "section.v1", "triggers.v1",
                                                      "triggers_after.v1", "case_context.v1"]},
}

FEATURE_SET_KEYS: dict[str, Any] = {
    "name": None, "groups": {}, "window": 2, "token_window": 1, "bigrams": True, "caseless": False,
    "extra_word": [], "extra_token": [], "windowed": None,
    # Filled in by resolution; accepted on input so a resolved set resolves to itself.
    "word": None, "token": None,
}
_CACHE_LIMIT = 1_000_000
_CASE_MARKS = tuple(_caseless.KINDS.values())


def resolve_feature_set(spec: dict, path=None) -> dict:
    """Validate a feature-set mapping and fill in the explicit template lists.

    Raises
    ------
    ConfigError
        Unknown keys, groups or template names (the message lists the allowed ones).

    >>> fs = resolve_feature_set({"groups": {"lexical": True}, "window": 1})
    >>> fs["word"], fs["windowed"], fs["token"]
    (['word.v1', 'lower.v1', 'prefix.v1', 'suffix.v1'], ['lower.v1'], [])
    """
    if not isinstance(spec, dict):
        raise ConfigError(f"a feature set must be a mapping, not {type(spec).__name__}", path=path)
    check_keys(spec, FEATURE_SET_KEYS, "feature-set", path)
    fs = {k: spec.get(k, v) for k, v in FEATURE_SET_KEYS.items()}
    groups = dict(fs["groups"] or {})
    bad = set(groups) - set(GROUPS)
    if bad:
        raise ConfigError(f"unknown feature group(s) {', '.join(sorted(bad))}; "
                          f"known: {', '.join(GROUPS)}", path=path)
    for key in ("window", "token_window"):
        if not isinstance(fs[key], int) or isinstance(fs[key], bool) or not 0 <= fs[key] <= 10:
            raise ConfigError(f"feature-set {key} must be an integer 0-10, not {fs[key]!r}", path=path)
    on = [g for g in GROUPS if groups.get(g)]
    word = [t for g in on for t in GROUPS[g]["word"]] + list(fs["extra_word"] or [])
    token = [t for g in on for t in GROUPS[g]["token"]] + list(fs["extra_token"] or [])
    resolved = all(spec.get(k) is not None for k in ("word", "token", "windowed"))
    if resolved or (spec.get("word") is not None and not groups):
        # Explicit lists win over groups: a model keeps the templates it was trained
        # with even after a group gains new ones.
        word, token = list(spec["word"]), list(spec.get("token") or [])
    windowed = fs["windowed"]
    if windowed is None:
        windowed = [t for g in on for t in GROUPS[g]["windowed"]] if groups else list(word)
    for names, reg in ((word, WORD_TEMPLATES), (token, TOKEN_TEMPLATES), (windowed, WORD_TEMPLATES)):
        for name in names:
            try:
                reg.get(name)
            except RegistryError as exc:
                raise ConfigError(str(exc), path=path) from None
    if set(windowed) - set(word):
        raise ConfigError(f"windowed template(s) {', '.join(sorted(set(windowed) - set(word)))} "
                          "are not among the word templates", path=path)
    fs.update(groups={g: bool(groups.get(g)) for g in GROUPS}, word=_dedupe(word),
              token=_dedupe(token), windowed=_dedupe(windowed),
              bigrams=bool(fs["bigrams"]) and ("lexical" in on or not on))
    try:
        kinds = _caseless.kinds_of(fs.pop("caseless"))
    except ValueError as exc:
        raise ConfigError(str(exc), path=path) from None
    if kinds:  # left out when off: a model saved before the key loads as it was saved
        fs["caseless"] = True if kinds == ("lower",) else list(kinds)
    return fs


def window_prefix(offset: int, attribute: str) -> str:
    """An attribute as seen from ``offset`` tokens away.

    >>> window_prefix(-2, "shape:Xx"), window_prefix(1, "pat:date")
    ('-2:shape:Xx', '+1:pat:date')
    """
    return f"{offset:+d}:{attribute}"


def _dedupe(names):
    return list(dict.fromkeys(names))


def _bind(template, resources):
    """``template`` reading ``resources``' lists when it reads lists at all (``bind``)."""
    bind = getattr(template, "bind", None)
    return template if resources is None or bind is None else bind(resources)


class Featurizer:
    """Turn tokens into lists of CRFsuite attribute strings, one list per token.

    Parameters
    ----------
    feature_set : dict
        A feature-set mapping (resolved here with :func:`resolve_feature_set`).
    resources : Resources, optional
        Word lists and trigger words (:mod:`crfdeid.resources`; a config's ``resources``):
        templates that read lists (those with a ``bind`` attribute) are bound to them.
        Default: the shipped English ones.
    columns : sequence of callables, optional
        More token columns, called as token templates are, after them (the committee's
        decisions, :mod:`crfdeid.recognizers.committee`).
    """

    def __init__(self, feature_set: dict, resources=None, columns=()):
        fs = resolve_feature_set(feature_set)
        self.feature_set = fs
        self.window = fs["window"]
        self.token_window = fs["token_window"]
        self.bigrams = fs["bigrams"]
        self.caseless = _caseless.kinds_of(fs.get("caseless", False))
        bound = resources is not None and not resources.is_default
        self._word = [_bind(WORD_TEMPLATES.get(n), resources if bound else None) for n in fs["word"]]
        self._windowed_at = [fs["word"].index(n) for n in fs["windowed"]]
        self._token = [_bind(TOKEN_TEMPLATES.get(n), resources if bound else None)
                       for n in fs["token"]] + list(columns)
        self._offsets = [o for o in range(-self.window, self.window + 1) if o]
        self._base: dict = {}
        self._near: dict = {o: {} for o in self._offsets}
        self._pad = {o: window_prefix(o, "BOS" if o < 0 else "EOS") for o in self._offsets}
        self._tok_near: dict = {}

    # -- per word type, cached ------------------------------------------------
    def word_attributes(self, word: str) -> list[str]:
        """Attributes of a word at offset 0 (uncached; the windowed ones are not made)."""
        return self._attributes(word, windowed=False)[0]

    def neighbour_attributes(self, word: str, offset: int) -> list[str]:
        """Attributes a word contributes to the token ``offset`` positions away (uncached)."""
        return self.window_attributes(word)[offset]

    def window_attributes(self, word: str) -> dict:
        """``{offset: attributes}`` a word contributes to every token of its window (uncached).

        Offset 0 is the word's own token; each windowed template runs once.
        """
        mine, windowed = self.type_attributes(word)
        out = {0: mine}
        for o in self._offsets:  # to_attributes(f, prefix) == prefix + each of to_attributes(f)
            out[o] = [window_prefix(o, a) for a in windowed]
        return out

    def type_attributes(self, word: str) -> tuple[list[str], list[str]]:
        """A word's own attributes, and the windowed templates' ones before the offset prefix.

        Every template runs once (uncached). A word key of :meth:`word_keys` marked caseless gives
        its word's attributes with the case-bearing ones under their own head.
        """
        return self._attributes(word, windowed=True)

    def _attributes(self, word: str, windowed: bool) -> tuple[list[str], list[str]]:
        """:meth:`type_attributes` (without the windowed ones unless ``windowed``): one place for the marks."""
        if word[:1] in _CASE_MARKS:
            mine, near = self._attributes(word[1:], windowed)
            return _caseless.marked(mine, word[0]), _caseless.marked(near, word[0])
        per = [to_attributes(t(word)) for t in self._word]
        return list(chain.from_iterable(per)), [a for j in self._windowed_at for a in per[j]] if windowed else []

    @property
    def has_token_columns(self) -> bool:
        """Whether any token template or column runs (token attributes exist)."""
        return bool(self._token)

    @property
    def offsets(self) -> list[int]:
        """Word-window offsets other than 0, in attribute order."""
        return list(self._offsets)

    def pad_attribute(self, offset: int) -> str:
        """The attribute of the position just outside the text at ``offset`` (``-1:BOS``)."""
        return self._pad[offset]

    def word_keys(self, text: str, tokens, words: list[str]) -> list[str]:
        """The word-type keys of a document's tokens: their texts (``words``), marked in the lines of
        the kinds the feature set's ``caseless`` names."""
        return _caseless.word_keys(text, tokens, words, self.caseless) if self.caseless else words

    def _cached(self, words):
        base = self._base
        if len(base) > _CACHE_LIMIT or len(self._tok_near) > _CACHE_LIMIT:
            self.clear_cache()
            base = self._base
        for w in set(words):
            if w not in base:
                attrs = self.window_attributes(w)
                base[w] = attrs[0]
                for o in self._offsets:
                    self._near[o][w] = attrs[o]

    def clear_cache(self) -> None:
        """Forget cached word types (memory stays bounded on endless streams)."""
        self._base = {}
        self._near = {o: {} for o in self._offsets}
        self._tok_near = {}

    # -- per document ---------------------------------------------------------
    def featurize(self, text: str, tokens, cache: bool = True) -> list[list[str]]:
        """Attribute lists for every token of a document.

        Parameters
        ----------
        text : str
            The document text (token templates look at it).
        tokens : sequence of Token
        cache : bool
            Use the per-type cache (``False`` recomputes everything; same result).
        """
        texts = [t.text for t in tokens]
        words = self.word_keys(text, tokens, texts)
        n = len(words)
        if cache:
            self._cached(words)
            base, near = self._base, self._near
        else:
            every = {w: self.window_attributes(w) for w in set(words)}  # each template once a word type
            base = {w: attrs[0] for w, attrs in every.items()}
            near = {o: {w: attrs[o] for w, attrs in every.items()} for o in self._offsets}
        if not n:
            return []
        # One column per source (the word, each neighbour offset, bigrams, token
        # context), joined per token by one C-level chain: no per-token Python loop.
        cols = [[base[w] for w in words]]
        for o in self._offsets:
            nb, m = near[o], abs(o)
            col: list[tuple[str, ...]]
            if m > n:
                col = [()] * n
            elif o < 0:  # token i sees word i - m; "BOS" when that is position -1
                col = [()] * (m - 1) + [(self._pad[o],)] + [nb[w] for w in words[:n - m]]
            else:  # token i sees word i + m; "EOS" when that is position n
                col = [nb[w] for w in words[m:]] + [(self._pad[o],)] + [()] * (m - 1)
            cols.append(col)
        if self.bigrams:
            cols.append(self.bigram_attributes(texts))
        if self._token:
            cols.append(self._token_columns(text, tokens))
        return [list(chain.from_iterable(z)) for z in zip(*cols)]

    @staticmethod
    def bigram_pairs(words, lowered=None) -> list[tuple[str, str]]:
        """The lower-cased adjacent word pairs, ``<s>`` and ``</s>`` at the ends (``n + 1`` pairs).

        ``lowered``: the words already lower-cased, where they are at hand.
        """
        low = ["<s>"]
        low += [w.lower() for w in words] if lowered is None else lowered
        low.append("</s>")
        return list(zip(low, low[1:]))

    #: Heads of a pair's attribute on its right word and on its left word.
    BIGRAM_HEADS = ("bi-1:", "bi+1:")

    @classmethod
    def bigram_pair_attributes(cls, left: str, right: str) -> tuple[str, ...]:
        """A pair's attributes on its right word (``bi-1:left|right``) and on its left word (``bi+1:...``)."""
        return tuple(f"{head}{left}|{right}" for head in cls.BIGRAM_HEADS)

    @classmethod
    def bigram_pairs_of(cls, attribute: str) -> list[tuple[int, str, str]]:
        """``(k, left, right)`` for every word pair whose ``k``-th bigram attribute is ``attribute``.

        >>> Featurizer.bigram_pairs_of("bi+1:a|b"), Featurizer.bigram_pairs_of("lower:a")
        ([(1, 'a', 'b')], [])
        """
        for k, head in enumerate(cls.BIGRAM_HEADS):
            if attribute.startswith(head):
                body = attribute[len(head):]
                return [(k, body[:i], body[i + 1:]) for i, c in enumerate(body) if c == "|"]
        return []

    def bigram_attributes(self, words) -> list[tuple[str, str]]:
        """Per token: lower-cased bigrams with the previous and the next word."""
        attrs = [self.bigram_pair_attributes(a, b) for a, b in self.bigram_pairs(words)]
        return [(before[0], after[1]) for before, after in zip(attrs, attrs[1:])]

    def token_keys(self, text: str, tokens) -> list[tuple]:
        """Per token: the token templates' attributes as a tuple of one tuple per template.

        A hashable key (equal keys, equal attributes) built without a per-token
        loop; :meth:`token_attributes` flattens it.
        """
        try:
            cols = [tmpl(text, tokens) for tmpl in self._token]
        finally:
            forget()  # what the templates shared for this document
        return list(zip(*cols))  # token templates give tuples (tests/test_token_templates.py)

    def token_attributes(self, text: str, tokens) -> list[tuple]:
        """Per token: the token templates' own attributes, before the token window."""
        return [tuple(chain.from_iterable(k)) for k in self.token_keys(text, tokens)]

    @staticmethod
    def token_neighbour_attributes(attrs, offset: int) -> list[str]:
        """Token attributes ``attrs`` as seen from the token ``offset`` positions away."""
        return [window_prefix(offset, a) for a in attrs] if offset else list(attrs)

    def _token_columns(self, text, tokens):
        n = len(tokens)
        attrs = self.token_attributes(text, tokens)
        tw = self.token_window
        if not tw:
            return attrs
        # Own and neighbours' token attributes together, cached per window of
        # attribute tuples: most windows repeat (same section, mid-line...).
        cache = self._tok_near
        pad = [()] * tw
        padded = pad + attrs + pad
        width = 2 * tw + 1
        out = []
        for i in range(n):
            key = tuple(padded[i:i + width])
            got = cache.get(key)
            if got is None:
                got = cache[key] = self._token_window_attributes(key)
            out.append(got)
        return out

    def _token_window_attributes(self, key) -> list[str]:
        tw = self.token_window
        got = list(key[tw])
        for o in range(1, tw + 1):
            got.extend(self.token_neighbour_attributes(key[tw - o], -o))
            got.extend(self.token_neighbour_attributes(key[tw + o], o))
        return got

    def prepare(self) -> None:
        """Run every template once, so that what they load lazily (gazetteers) is loaded now."""
        self.featurize_text("Prepared at 10:30 by Dr. Lee.")
        self.clear_cache()

    def featurize_text(self, text: str) -> list[list[str]]:
        """Tokenize with the default tokenizer and featurize (a convenience for examples)."""
        return self.featurize(text, tokenize(text))

"""A committee of recognizers beside the CRF, combined in one of two ways (Tafvizi 2011).

The config's ``committee`` section names the members (:mod:`crfdeid.recognizers.base`)
and how their decisions reach the labels::

    committee:
      combine: mega.v1          # or multi.v1; null: no committee
      members: [rules.v1, lexicon.v1, {name: presidio.v1}]
      folds: 3                  # multi.v1: cross-fitting folds of the training notes

* ``mega.v1`` (Tafvizi's *Mega-deidentifier*, a union of features): each member's decision
  on a token becomes a CRF attribute, ``cm:<member>:B-DATE`` (and ``cm:votes:N`` for the
  number of members that mark it), copied to the neighbours by the feature set's token
  window; the CRF learns how far to trust each member in each context.
* ``multi.v1`` (the *Multi-deidentifier*, a learned stacking of decisions): a CRF trained
  without the members, then a logistic regression over the CRF's per-token category
  probabilities and the members' decisions (confidence, at offsets -1, 0, +1). The
  regression is trained on CRF probabilities of notes that CRF never saw (cross-fitted:
  each fold's notes are scored by a CRF trained on the other folds), see
  :mod:`crfdeid.recognizers.stacking`.

>>> c = Committee({"combine": "mega.v1", "members": ["rules.v1"], "folds": 3})
>>> from crfdeid.text.tokenize import tokenize
>>> text = "Dr. Lee on 03/14/2098"
>>> c.attributes(text, tokenize(text))[2:5]
[('cm:rules.v1:B-DOCTOR', 'cm:votes:1'), (), ('cm:rules.v1:B-DATE', 'cm:votes:1')]
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from operator import attrgetter

from ..errors import ConfigError
from ..settings import Section, section
from .base import build_recognizer, check_available, spec_of

#: How decisions are combined (``None``: no committee).
COMBINERS = ("mega.v1", "multi.v1")
#: Texts whose member decisions are remembered (cross-validation tags each note many times).
_MEMO_SIZE = 8192
_memo: dict = {}
_START = attrgetter("start")


@section("committee")
@dataclass
class CommitteeSettings(Section):
    """The ``committee`` section: ``combine`` (``null``: no committee), ``members`` (recognizers,
    names or ``{name: ..., **options}``) and the cross-fitting ``folds`` of ``multi.v1``."""

    combine: str | None = field(default=None, metadata={"choices": COMBINERS})
    members: list = field(default_factory=list)
    folds: int = field(default=3, metadata={"min": 2})

    def check(self, config, path) -> dict:
        """Every member known and its optional extra installed (the error names the extra)."""
        members = self.members or []
        if not isinstance(members, list):
            raise ConfigError("committee.members must be a list of recognizers", path=path)
        specs = [check_available(m, path) for m in members]
        if self.combine is not None and not specs:
            raise ConfigError(f"committee.combine {self.combine} needs at least one member", path=path)
        return {"combine": self.combine, "members": specs, "folds": self.folds}


def validate(section, path=None) -> dict:
    """The ``committee`` section checked and resolved (:class:`CommitteeSettings`).

    Raises
    ------
    ConfigError
        Unknown key or combination (listing the known ones), an unknown member, a member
        whose optional extra is not installed (naming the extra), or bad ``folds``.
    """
    return CommitteeSettings.resolve(section, {}, "committee", path)


def member_keys(specs) -> list[str]:
    """Attribute names of the members: their names, ``#2``, ``#3``... for repeats.

    >>> member_keys(["rules.v1", "spacy.v1", {"name": "spacy.v1", "pipeline": "x"}])
    ['rules.v1', 'spacy.v1', 'spacy.v1#2']
    """
    seen: dict = {}
    out = []
    for spec in specs:
        name = spec_of(spec)["name"]
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


class Committee:
    """The members of a config's ``committee`` section and their per-token decisions.

    Parameters
    ----------
    section : dict
        A validated ``committee`` section (:func:`validate`).
    """

    def __init__(self, section: dict):
        self.combine = section.get("combine")
        self.specs = [spec_of(m) for m in section.get("members") or []]
        self.keys = member_keys(self.specs)
        self.folds: int = int(section.get("folds") or 3)
        self._members: list | None = None

    @property
    def members(self) -> list:
        """The recognizers, built on first use."""
        if self._members is None:
            self._members = [build_recognizer(s) for s in self.specs]
        return self._members

    def prepare(self) -> None:
        """Build the members and load what they load lazily."""
        for m in self.members:
            m.prepare()

    def detections(self, text: str) -> list[list]:
        """Each member's detections in ``text`` (remembered per text for repeated tagging)."""
        out = []
        for spec, member in zip(self.specs, self.members):
            key = (json.dumps(spec, sort_keys=True), text)
            got = _memo.get(key)
            if got is None:
                if len(_memo) >= _MEMO_SIZE:
                    _memo.clear()
                got = _memo[key] = member.find(text)
            out.append(got)
        return out

    def token_decisions(self, text: str, tokens) -> list[list[tuple]]:
        """Per member, per token: ``(prefix, subtype, confidence)`` (``prefix`` B or I) or None."""
        per_member = []
        for found in self.detections(text):
            row: list = [None] * len(tokens)
            for det in found:
                i = bisect.bisect_right(tokens, det.span.start, key=_START) - 1
                i = max(i, 0)
                if i < len(tokens) and tokens[i].end <= det.span.start:
                    i += 1  # the span starts in white space after token i
                first = True
                while i < len(tokens) and tokens[i].start < det.span.end:
                    row[i] = ("B" if first else "I", det.span.subtype, det.confidence)
                    first = False
                    i += 1
            per_member.append(row)
        return per_member

    def attributes(self, text: str, tokens) -> list[tuple]:
        """The ``mega.v1`` token column: per token, the members' decisions as attributes."""
        decisions = self.token_decisions(text, tokens)
        out = []
        for i in range(len(tokens)):
            attrs = [f"cm:{key}:{d[0]}-{d[1]}" for key, row in zip(self.keys, decisions)
                     if (d := row[i]) is not None]
            if attrs:
                attrs.append(f"cm:votes:{len(attrs)}")
            out.append(tuple(attrs))
        return out

    def columns(self) -> list:
        """Token columns the featurizer adds (``mega.v1``: :meth:`attributes`; otherwise none)."""
        return [self.attributes] if self.combine == "mega.v1" else []


def from_config(config: dict) -> Committee | None:
    """The committee of a resolved config, or None when it combines nothing."""
    section = config.get("committee") or {}
    return Committee(section) if section.get("combine") else None

"""Keyed, reproducible randomness and shape helpers shared by the surrogate generators.

Every random choice is drawn from ``random.Random`` seeded with
``HMAC-SHA256(key, purpose | patient | normalised original | attempt)``, so the
same key gives the same surrogate for the same original of the same patient in
any batch, in any order, on any machine; without the key nothing can be
recomputed.

>>> k = Keyed.from_seed(13)
>>> k.rng("x", "p1").random() == Keyed.from_seed(13).rng("x", "p1").random()
True
>>> apply_case("SMITH", "jones"), apply_case("smith", "Jones"), apply_case("Smith", "JONES")
('JONES', 'jones', 'Jones')
"""

from __future__ import annotations

import hashlib
import hmac
import random
import string
import unicodedata

_SEP = "\x1f"


class Keyed:
    """A source of random generators derived from a secret key."""

    def __init__(self, key: bytes | str):
        self.key = key.encode("utf-8") if isinstance(key, str) else bytes(key)

    @classmethod
    def from_seed(cls, seed: int | str) -> Keyed:
        """A key derived from a public seed (reproducible, but anyone with the seed can redo it)."""
        return cls(f"crfdeid-seed:{seed}")

    def digest(self, *parts) -> bytes:
        """HMAC-SHA256 of the parts joined by a separator."""
        msg = _SEP.join(str(p) for p in parts).encode("utf-8")
        return hmac.new(self.key, msg, hashlib.sha256).digest()

    def rng(self, *parts) -> random.Random:
        """A ``random.Random`` seeded by :meth:`digest` of ``parts``."""
        return random.Random(int.from_bytes(self.digest(*parts), "big"))


def normalize(text: str) -> str:
    """Case- and space-folded form used as the identity of an original PHI string."""
    return " ".join(text.lower().split())


def apply_case(src: str, new: str) -> str:
    """``new`` with the capitalisation pattern of ``src`` (ALL CAPS, lower, Title)."""
    letters = [c for c in src if c.isalpha()]
    if not letters:
        return new
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return new.upper()
    if all(c.islower() for c in letters):
        return new.lower()
    if letters[0].isupper():
        if new.isupper() or new.islower():
            return new[:1].upper() + new[1:].lower()
        return new[:1].upper() + new[1:]
    return new


def random_like(src: str, rng: random.Random, keep=frozenset()) -> str:
    """Same shape as ``src``: digits -> random ASCII digits, letters -> random ASCII letters.

    Letters of every script become ASCII letters, upper case where the original
    is upper case (lower case otherwise); digits of every script (and other
    numeric characters) become ASCII digits; combining marks are dropped (``ë`` is one letter). Characters in
    ``keep`` and every other character are kept as they are.

    >>> len(random_like("Zoë-Øster 12", random.Random(1)))
    12
    """
    out = []
    for c in src:
        if c in keep:
            out.append(c)
        elif c.isalpha():
            out.append(rng.choice(string.ascii_uppercase if c.isupper() else string.ascii_lowercase))
        elif c.isnumeric():  # digits of any script, and numbers such as ¼ or Ⅻ
            out.append(rng.choice(string.digits))
        elif unicodedata.category(c)[0] != "M":
            out.append(c)
    return "".join(out)


def derangement(alphabet: str, rng: random.Random) -> dict:
    """A random one-to-one mapping of ``alphabet`` onto itself with no fixed point."""
    letters = list(alphabet)
    while True:
        perm = letters[:]
        rng.shuffle(perm)
        if all(a != b for a, b in zip(letters, perm)):
            return dict(zip(letters, perm))

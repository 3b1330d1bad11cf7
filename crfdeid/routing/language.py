"""The routed model's language gate: a member that learnt one language reads only notes mostly in it.

The shipped ICU member learnt from English notes alone, and the router's weights are English words
(:mod:`crfdeid.routing.router`): a note in another language holds none of them, so the router leaves it
with its default member, the ICU one, which has never read such text. On the made-up development notes
it left 22 % of the identifiers of the notes it was given, the specialty member (trained on identifier
lines of other countries) 12 % of the same notes (docs/synth.md, "The router's language gate").

The gate reads the words of a note (alphabetic, three letters or more, lower case; the first
:data:`~crfdeid.text.language.LIMIT`) and the share of them in a word list of the member's
language (``english_words``: English's 50,000 most frequent words, from wordfreq,
``gazetteers/english_words.py``). A note of at least ``min_words`` such words with a share under
``min_share`` is not the member's: it goes to the other member, whatever the router's P. Shorter notes
are left to the router (a few words tell no language). The setting is data in the model file's
manifest (the router's entry ``language``); nothing of a note is kept.

>>> gate = LanguageGate("icu", min_words=5)
>>> gate.refuses("Paciente de 72 años, ingresa por disnea; antecedentes de hipertensión arterial.")
True
>>> gate.refuses("Patient resting comfortably, vital signs stable overnight, family at bedside.")
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from ..errors import ModelError
from ..text.language import MIN_SHARE, MIN_WORDS, WORD_LISTS, mostly_not


@dataclass(frozen=True)
class LanguageGate:
    """The member ``member`` reads a note only when at least ``min_share`` of its words (of at least
    ``min_words``) are in the list ``words``; it is the router's entry ``language``."""

    member: str
    words: str = "english_words"
    min_share: float = MIN_SHARE
    min_words: int = MIN_WORDS

    def refuses(self, text: str) -> bool:
        """Whether ``text`` is a note of enough words, too few of them in the member's language."""
        return mostly_not(text, self.words, self.min_share, self.min_words)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data, members: tuple[str, str], path=None) -> LanguageGate:
        """The gate of a router entry's ``language``, checked against the router's two members.

        Raises
        ------
        ModelError
            Another member, an unknown word list, or values of the wrong kind.
        """
        keys = {"member", "words", "min_share", "min_words"}
        ok = isinstance(data, Mapping) and set(data) == keys and data["member"] in members \
            and data["words"] in WORD_LISTS and isinstance(data["min_share"], (int, float)) \
            and not isinstance(data["min_share"], bool) and 0 <= data["min_share"] <= 1 \
            and isinstance(data["min_words"], int) and not isinstance(data["min_words"], bool) \
            and data["min_words"] >= 1
        if not ok:
            raise ModelError("corrupt router entry: its language gate (member, words, min_share, min_words)",
                             path=path)
        return cls(data["member"], data["words"], float(data["min_share"]), data["min_words"])

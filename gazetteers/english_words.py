"""Regenerate crfdeid/_data/english_words.txt: English's 50,000 most frequent alphabetic words, read by the routed
model's language gate (crfdeid/routing/language.py).

The ICU member of the shipped routed model learnt from English notes only; a note whose words are mostly not
English (a note of another country, in its language) is outside what it knows, and the gate sends it to the other
member (docs/synth.md, "The router's language gate"). The share of a note's words in this list tells the two apart:
the ICU member's own training notes hold at least 0.56 of them, notes in other languages far fewer.

Source: PyPI 'wordfreq' (data CC BY-SA 4.0, Robyn Speer et al.; code Apache-2.0): ``top_n_list('en', 100000)``,
its alphabetic words, lower case, the first :data:`N`. Run: python gazetteers/english_words.py
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

N = 50000
OUT = Path(__file__).resolve().parent.parent / "crfdeid" / "_data" / "english_words.txt"


def main() -> None:
    import wordfreq  # the list's source: only its rebuild needs it

    seen: dict[str, None] = {}
    for w in wordfreq.top_n_list("en", 2 * N):
        if w.isalpha():
            seen.setdefault(w.lower(), None)
    words = list(seen)[:N]
    lines = ["# crfdeid data: English's most frequent alphabetic words, by frequency (the routed model's "
             "language gate)",
             f"# source: PyPI 'wordfreq' {version('wordfreq')} top_n_list('en', {2 * N}): alphabetic words, "
             f"lower case, the first {N}",
             "# licence: wordfreq data CC BY-SA 4.0 (Robyn Speer et al.); code Apache-2.0",
             "# regenerate: python gazetteers/english_words.py",
             f"# entries: {len(words)}"]
    OUT.write_text("\n".join(lines + words) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Regenerate crfdeid/_data/name_words_other.txt: the words of crfdeid's name lists that are frequent words of
another language (``alla``, ``nada``, ``karena``, ``vida``), read by crfdeid/deid/otherlang.py.

A listed name that is also a frequent word says nothing alone of a person (a note's ``alla`` is Italian's "to the"
before it is anyone's surname): crfdeid/deid/confident_type.py already reads English's frequent words so
(``common_words``); this list does the same for the languages of the notes of other countries crfdeid is measured on.

Source: PyPI 'wordfreq' (data CC BY-SA 4.0, Robyn Speer et al.; code Apache-2.0): ``top_n_list(lang, 3000)`` of
each language of :data:`LANGUAGES`, alphabetic words of three letters or more, folded (lower case, accents removed),
less English's 10,000 most frequent words (``common_words``, read so already), kept when a name list holds them
(``first_male``, ``first_female``, ``surnames``, ``surnames_rare``). Run: python gazetteers/name_words_other.py
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

from crfdeid.deid.evidence import fold

#: wordfreq's languages written in Latin letters whose notes the made-up sets hold (Vietnamese left out: its
#: frequent words are its surnames, ``nguyen``, ``tran``, ``pham``, so they would hold no evidence of a name).
LANGUAGES = ("es", "pt", "fr", "it", "de", "nl", "pl", "tr", "id", "ms", "da", "sv", "nb", "fi", "sh", "cs", "sk",
             "sl", "ro", "hu", "ca", "fil")
TOP = 3000
HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "crfdeid" / "_data" / "name_words_other.txt"
NAME_LISTS = ("first_male", "first_female", "surnames", "surnames_rare")


def _entries(name: str) -> list[str]:
    lines = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def main() -> None:
    import wordfreq  # the list's source: only its rebuild needs it

    english = {fold(w) for w in _entries("common_words")}
    listed = {fold(w) for n in NAME_LISTS for w in _entries(n)}
    by_word: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        for w in wordfreq.top_n_list(lang, TOP):
            f = fold(w)
            if w.isalpha() and len(w) >= 3 and f in listed and f not in english:
                langs = by_word.setdefault(f, [])
                langs += [lang] if lang not in langs else []
    lines = ["# crfdeid data: words of the name lists that are frequent words of another language (word, tab, "
             "languages)",
             f"# source: PyPI 'wordfreq' {version('wordfreq')} top_n_list(lang, {TOP}) of {', '.join(LANGUAGES)}: "
             "alphabetic words of three letters or more, folded, less the common_words list, in the name lists "
             f"({', '.join(NAME_LISTS)})",
             "# licence: wordfreq data CC BY-SA 4.0 (Robyn Speer et al.); code Apache-2.0",
             "# regenerate: python gazetteers/name_words_other.py"]
    lines += [f"{w}\t{' '.join(langs)}" for w, langs in sorted(by_word.items())]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

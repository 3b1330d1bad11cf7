"""Regenerate crfdeid/_data/world_words.txt: frequent words of eight European languages for the
``clinical_wide`` synthetic notes (crfdeid/synth/widelines.py; issue 58 items 1-2, synth21).

Source: PyPI 'wordfreq' (data CC BY-SA 4.0, Robyn Speer et al.; code Apache-2.0), ``top_n_list(LANG, N)``
of each language: alphabetic words of three letters or more that no name or place list of crfdeid holds
(first names, surnames, nicknames, cities, countries, states, the European people, streets and towns of
crfdeid/_data/europe_places.txt, the words of the European hospitals' and organisations' names of
crfdeid/synth/social.py), no English word of ``common_words.txt``, no month or weekday name of
the eight languages (written below: a date's words stay PHI) and whose length casing keeps. No entry comes
from a note. Kept in crfdeid/_data (not gazetteers/) so that no feature list of a trained model changes.
Run: python gazetteers/world_words.py
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "crfdeid" / "_data" / "world_words.txt"
LANGUAGES = ("es", "pt", "it", "fr", "de", "nl", "pl", "sv")
TOP_N = 3000
#: Month and weekday names (and their usual abbreviations) of the eight languages: never written plain.
DATE_WORDS = """
enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre lunes martes
miércoles jueves viernes sábado domingo janeiro fevereiro março maio junho julho setembro outubro novembro dezembro
segunda terça quarta quinta sexta gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre lunedì
martedì mercoledì giovedì venerdì sabato janvier février mars avril juin juillet août septembre octobre novembre
décembre lundi mardi mercredi jeudi vendredi samedi dimanche januar februar märz mai juni juli oktober dezember
montag dienstag mittwoch donnerstag freitag samstag sonntag sonnabend januari februari maart mei augustus
maandag dinsdag woensdag donderdag vrijdag zaterdag zondag styczeń luty marzec kwiecień maj czerwiec lipiec
sierpień wrzesień październik listopad grudzień stycznia lutego marca kwietnia maja czerwca lipca sierpnia
września października listopada grudnia poniedziałek wtorek środa czwartek piątek sobota niedziela april augusti
måndag tisdag onsdag torsdag fredag lördag söndag ene feb abr ago sept dic fev dez gen mag giu lug ott
""".split()
_LETTERS = re.compile(r"[^\W\d_]+")


def _list(name: str) -> set[str]:
    lines = (ROOT / "gazetteers" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return {w.lower() for line in lines if line and not line.startswith("#") for w in _LETTERS.findall(line)}


def main() -> None:
    import wordfreq
    names = set().union(*(_list(n) for n in ("first_male", "first_female", "surnames", "surnames_rare",
                                             "nicknames", "cities", "countries", "states", "common_words")))
    europe = (ROOT / "crfdeid" / "_data" / "europe_places.txt").read_text(encoding="utf-8").splitlines()
    names |= {w.lower() for line in europe if line and not line.startswith("#")
              for w in _LETTERS.findall(line.split("\t")[-1])}
    names |= set(DATE_WORDS)
    import sys
    sys.path.insert(0, str(ROOT))
    from crfdeid.synth.social import HOSPITALS, ORGS  # the words of European hospitals' and organisations' names
    names |= {w.lower() for forms in (*HOSPITALS.values(), *ORGS.values()) for f in forms for w in _LETTERS.findall(f)}
    lines = ["# crfdeid synthetic data: frequent words of eight European languages (language code, tab, word)",
             f"# source: PyPI 'wordfreq' {version('wordfreq')} top_n_list(LANG, {TOP_N}) for {', '.join(LANGUAGES)}: "
             "alphabetic words of three letters or more in no name, place, English-word or date list of crfdeid "
             "and no word of its European hospitals' and organisations' names",
             "# licence: wordfreq data CC BY-SA 4.0 (Robyn Speer et al.); code Apache-2.0",
             "# regenerate: python gazetteers/world_words.py"]
    for lang in LANGUAGES:
        for word in wordfreq.top_n_list(lang, TOP_N):
            if (len(word) >= 3 and word.isalpha() and word not in names
                    and len(word.upper()) == len(word) and len(word.upper().lower()) == len(word)):
                lines.append(f"{lang}\t{word}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

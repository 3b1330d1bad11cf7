"""Regenerate crfdeid/_data/spellings.txt: words spelt one way in US English and another in
British (and Commonwealth) English, the evidence a note's spelling gives of the order its
numeric dates are written in (crfdeid/text/dateorder.py: ``color``, ``hemorrhage`` -> month
first; ``colour``, ``haemorrhage`` -> day first).

Source: the spelling pairs of PyPI 'breame' (Apache-2.0). A word is kept only where it is not
also a spelling of the other variety: not a key of breame's other table; on the US side not in
the British SCOWL word list (Debian package wbritish, /usr/share/dict/british-english; SCOWL's
licence: copyright Kevin Atkinson, use and redistribution permitted with the notice; the list is
only read here) and not an ``-ize`` form (Oxford spelling writes ``-ize`` in Britain too); on
the British side not one of :data:`BOTH`. (SCOWL's American list is not used on that side: it
admits ``haemorrhage`` and ``anaemia`` as variants, which US notes do not write.)
Run: apt-get install wbritish && pip install breame && python gazetteers/spellings.py [OUT]
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import version
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "spellings.txt"
DICTS = Path("/usr/share/dict")
#: US forms that Oxford spelling also writes in Britain (``hospitalize``, ``organization``).
_OXFORD = re.compile(r"iz(?:e|ed|es|ing|ation|ations|er|ers)$")


#: British forms of breame's table that US writing uses too (written for crfdeid: a plural or verb
#: form both varieties share, or a spelling US dictionaries give as standard).
BOTH = frozenset("""accoutrements aesthete aesthetes aesthetic aesthetically aesthetics analogue analogues
analyses buses busing cancellation cancellations cancelled cancelling catalogue catalogued catalogues
cataloguing dialogue dialogues disc discs epilogue epilogues fillet filleted filleting fillets gases gauge
gauged gauges gauging judgement monologue monologues paralyses prologue prologues sheikh travelogue
travelogues videodisc videodiscs""".split())


def _dict(name: str) -> set[str]:
    return set((DICTS / name).read_text(encoding="utf-8").split())


def main(out: Path = OUT) -> None:
    from breame.data import spelling_constants as spellings  # the list's source: only its rebuild needs it
    US, GB = spellings.AMERICAN_ENGLISH_SPELLINGS, spellings.BRITISH_ENGLISH_SPELLINGS
    british = _dict("british-english")
    us = sorted(w for w in US if w.isalpha() and w not in GB and w not in british and not _OXFORD.search(w))
    gb = sorted(w for w in GB if w.isalpha() and w not in US and w not in BOTH)
    lines = ["# crfdeid date-order evidence: words spelt differently in US and British English (variety, tab, word)",
             f"# source: PyPI 'breame' {version('breame')} spelling pairs, less the words the other variety also "
             "writes (breame's other table; SCOWL's British list via Debian wbritish; a list in the script) "
             "and US -ize forms",
             "# licence: Apache-2.0 (breame)",
             "# regenerate: python gazetteers/spellings.py"]
    lines += [f"US\t{w}" for w in us] + [f"GB\t{w}" for w in gb]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)

"""Regenerate crfdeid/_data/id_schemes.tsv: personal identifier schemes of many countries, their
names and abbreviations as a note's label words and numbers with valid check digits, for the
``specialty_ids`` and ``operative_ids`` synthetic notes (crfdeid/synth/idlines.py; issue 58 items 1-2).

Source: the country modules of PyPI 'python-stdnum' (LGPL-2.1+; its catalogue of national numbers):
for each module whose description names a person's number (identity, citizen, birth, social
security or insurance, health, tax numbers of individuals...; company, VAT, bank, postal and
payment numbers left out), the label words are the abbreviations and native name of the module's
first docstring line (``CPF (Cadastro de Pessoas Fisicas, Brazilian national identifier)`` ->
``CPF``, ``Cadastro de Pessoas Fisicas``, ``Brazilian national identifier``), and the numbers are the
module's own doctest examples with their digits and letters redrawn at random (fixed seed) and kept
only when the module's ``is_valid`` accepts them (the check digit completed by trying each value of
the last character). No entry comes from a note.
Run: python gazetteers/id_schemes.py
"""

from __future__ import annotations

import random
import re
import string
from importlib.metadata import version
from pathlib import Path

PER_SCHEME = 30
SEED = 58
OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "id_schemes.tsv"
#: A description naming a person's number (kept) ...
PERSONAL = re.compile(r"person|personal|individual|citizen|identity|identification|identifier|national|birth|"
                      r"social (?:security|insurance)|insurance|health|resident|foreigner|pupil|student|voter|"
                      r"passport|c[eé]dula|tax (?:number|code|file|identification)|taxpayer", re.I)
#: ... unless it names a firm's, a payment's or a thing's.
NOT_PERSONAL = re.compile(r"VAT|compan|business|\bentit|legal|postal|postleitzahl|excise|trade|bank|organi[sz]ation|"
                          r"enterprise|employer|merchant|corporate|vehicle|customs|securit(?:y|ies) identification|"
                          r"register|payment|receipt|routing|meter|energy|activity|real estate|drug|stock|association|"
                          r"memorandum|buyer|creditor|community|preparer|adoption|school identification|economic", re.I)
_EXAMPLE = re.compile(r">>> \w+\('([^'\n]{4,40})'")
_ASCII = re.compile(r"[A-Z0-9][A-Z0-9 ./-]*[A-Z0-9]")
SSN = re.compile(r"social (?:security|insurance)|\bSSN\b", re.I)


def latin(text: str) -> bool:
    """True when ``text`` is written in Latin letters (no Cyrillic, Greek, Arabic or CJK label words)."""
    return all(ord(c) < 0x250 for c in text)


def labels(first_line: str) -> list[str]:
    """The label words of a scheme from its module's first docstring line.

    >>> labels("CPF (Cadastro de Pessoas Fisicas, Brazilian national identifier).")
    ['CPF', 'Cadastro de Pessoas Fisicas', 'Brazilian national identifier']
    >>> labels("NN, NISS, RRN (Belgian national number).")
    ['NN', 'NISS', 'RRN', 'Belgian national number']
    """
    line = first_line.strip().rstrip(".")
    head, _, inner = line.partition(" (")
    inner = inner.rsplit(")", 1)[0]
    got = [x.strip() for x in head.split(",")] + [x.strip() for x in inner.split(",") if inner]
    got = [re.sub(r"^(?:sometimes|the) ", "", x) for x in got]
    return [x for x in dict.fromkeys(got) if " " in x or x.isupper() or any(c.isdigit() for c in x)
            or (latin(x) and not x.endswith(("an", "ish", "ese")))
            if x and latin(x) and len(x) <= 60 and '"' not in x]


def _valid(module, value: str) -> bool:
    """The module's ``is_valid``; a module that raises on a value it cannot place rejects it."""
    try:
        return bool(module.is_valid(value))
    except Exception:
        return False


def _redrawn(rng: random.Random, example: str, module) -> str | None:
    """``example`` with its digits and letters redrawn, the last character tried for a valid check."""
    chars = list(example)
    for i, c in enumerate(chars):
        if rng.random() < 0.6:
            if c.isdigit():
                chars[i] = rng.choice(string.digits)
            elif c.isascii() and c.isupper():
                chars[i] = rng.choice(string.ascii_uppercase)
    last = max((i for i, c in enumerate(chars) if c.isalnum()), default=None)
    if last is None:
        return None
    pool = string.digits + (string.ascii_uppercase if not chars[last].isdigit() else "")
    for c in rng.sample(pool, len(pool)):
        chars[last] = c
        candidate = "".join(chars)
        if _valid(module, candidate):
            return candidate
    return None


def _written(rng: random.Random, value: str, module) -> str:
    """``value`` as the module formats it (half the time, when it can) or compacted: a note writes both."""
    compact = module.compact(value)
    if hasattr(module, "format") and rng.random() < 0.5:
        try:
            return module.format(compact)
        except Exception:  # a module whose format needs more than the number
            return compact
    return compact


def numbers(module, rng: random.Random, n: int) -> list[str]:
    """Up to ``n`` distinct numbers the module accepts, redrawn from its doctest examples."""
    examples = [e for e in dict.fromkeys(_EXAMPLE.findall(module.__doc__ or "")) if _valid(module, e)]
    got: dict[str, None] = {}
    for _ in range(4000 if examples else 0):
        value = _redrawn(rng, rng.choice(examples), module)
        if value and value not in examples:
            value = _written(rng, value, module)
        if value and value not in examples and _ASCII.fullmatch(value) and _valid(module, value):
            got[value] = None
        if len(got) == n:
            break
    return list(got)


def main() -> None:
    from stdnum.util import get_number_modules  # the list's source: only its rebuild needs it
    rng = random.Random(SEED)
    rows = []
    for module in sorted(get_number_modules(), key=lambda m: m.__name__):
        parts = module.__name__.split(".")
        if len(parts) != 3 or len(parts[1].rstrip("_")) != 2:  # a country's module (stdnum.xx.name)
            continue
        first = (module.__doc__ or "").strip().splitlines()[0]
        if not PERSONAL.search(first) or NOT_PERSONAL.search(first):
            continue
        words, got = labels(first), numbers(module, rng, PER_SCHEME)
        if words and len(got) >= 5:
            subtype = "SSN" if SSN.search(first) else "IDNUM"
            rows.append("\t".join([module.__name__, parts[1].rstrip("_").upper(), subtype, "|".join(words),
                                   "|".join(got)]))
    lines = ["# crfdeid synthetic data: personal identifier schemes of many countries (issue 58 items 1-2)",
             "# module, tab, country, tab, subtype, tab, label words (|), tab, numbers with a valid check (|)",
             f"# source: the country modules of PyPI 'python-stdnum' {version('python-stdnum')}: label words from each"
             " module's first docstring line, numbers its doctest examples redrawn and checked by its is_valid,"
             f" seed {SEED}",
             "# licence: python-stdnum LGPL-2.1-or-later (the catalogue's names; the numbers are random draws)",
             "# regenerate: python gazetteers/id_schemes.py", *rows]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(rows)} schemes -> {OUT}")


if __name__ == "__main__":
    main()

"""Clinical vocabulary of the ``specialty`` notes, drawn from sourced lists (never PHI).

Each ``<slot>`` of :data:`VOCAB` draws from a gazetteer with a source header (ICD-10-CM codes,
descriptions, anatomical sites and devices: ``gazetteers/build_specialty.py``; drugs, brands,
eponyms, clinical words and abbreviations, scores, contrast agents: ``gazetteers/build.py``) or
writes a form by its published grammar: TNM stages (``pT2N1M0``), Gleason and ISUP grades,
BI-RADS, NYHA, White's classes of diabetes in pregnancy (``Class B2``), CPT-shaped codes
(five digits, numbers only: the descriptions are not free), HGVS variants
(``c.5266dupC (p.Gln1756Profs*74)``), quantities with UCUM-style units (``126 mg/dL``),
suture sizes (``3-0 Vicryl``), ward, bay and bed numbers (no Safe Harbor identifier).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from . import persona as ps
from .phrases import fill


def _list(name: str) -> tuple[str, ...]:
    return ps.term_pool(name, max_words=12)


@cache
def _icd() -> tuple[tuple[str, str], ...]:
    return tuple(tuple(e.split(" ", 1)) for e in _list("icd10_dx"))  # type: ignore[misc]


def _case(rng: random.Random, text: str, upper: float = 0.25, lower: float = 0.15) -> str:
    r = rng.random()
    return text.upper() if r < upper else text.lower() if r < upper + lower else text


def _dx(rng: random.Random) -> str:
    desc = rng.choice(_icd())[1]
    if rng.random() < 0.4:  # a problem list cuts a long description at its first comma
        desc = desc.split(",")[0]
    return _case(rng, desc)


def _code(rng: random.Random) -> str:
    return rng.choice(_icd())[0]


def _code_dx(rng: random.Random) -> str:
    code, desc = rng.choice(_icd())
    return rng.choice([f"{code} {desc}", f"{desc} ({code})", f"{code} - {desc}", f"{_case(rng, desc, 0.5, 0)} [{code}]",
                       f"ICD-10 {code}", f"ICD-10-CM: {code}"])


def _cpt(rng: random.Random) -> str:
    code = str(rng.choice([rng.randint(10004, 69990), rng.randint(70010, 79999), rng.randint(90281, 99607)]))
    modifier = rng.choice(["26", "TC", "50", "RT", "LT", "59"])
    return rng.choice([f"CPT {code}", f"CPT: {code}", f"CPT code {code}", code, f"{code}-{modifier}"])


def _tnm(rng: random.Random) -> str:
    t = rng.choice(["1", "1a", "1b", "1c", "1mi", "2", "2a", "2b", "3", "3a", "4", "4a", "4b", "is", "x"])
    n = rng.choice(["0", "1", "1a", "1mi", "2", "2a", "3", "x", "0(sn)", "0(i+)"])
    m = rng.choice(["0", "1", "1a", "x", "0"])
    pre = rng.choice(["p", "c", "yp", "", "p"])
    glue = rng.choice(["", "", " "])
    n_pre = pre if pre == "p" and rng.random() < 0.5 else ""
    m_pre = "c" if rng.random() < 0.2 else ""
    return f"{pre}T{t}{glue}{n_pre}N{n}{glue}{m_pre}M{m}"


#: Stage, grade and class forms (``{a|b}``, ``{1-5}``: :func:`~crfdeid.synth.phrases.fill`).
STAGE_FORMS = [
    "ISUP Grade Group {1-5}", "BI-RADS {0-6}", "BI-RADS {4A|4B|4C|3|2}", "NYHA {I|II|III|IV}",
    "NYHA class {I|II|III|IV}",
    "Class {A1|A2|B|B1|B2|C|D|F|R}", "White class {A1|A2|B|C|D}", "FIGO stage {IA|IB1|IB2|IIA|IIIC1|IVB}",
    "Grade {1-3}", "Nottingham grade {1-3} ({3-9}/9)", "Breslow {0|1|2|3}.{1-9} mm", "Clark level {II|III|IV}",
    "Stage {I|IA|IIB|IIIA|IIIC|IV}", "ASA {I|II|III|IV}", "Child-Pugh {A|B|C}", "Killip class {I|II|III}",
    "CCS class {1-4}", "Tanner stage {1-5}", "Gustilo {I|II|IIIA|IIIB}", "Salter-Harris {I|II|III|IV}", "Weber {A|B|C}",
    "Garden {I|II|III|IV}", "Kellgren-Lawrence grade {1-4}", "Lund-Mackay {0-24}", "Bishop score {2-11}",
    "G{1-6}P{0-4}",
    "Mallampati {I|II|III|IV}", "ECOG {0-4}", "{9|10}/9", "Ki-67 {1-90}%", "HER2 {0|1+|2+|3+}"]


def _stage(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:
        return _tnm(rng)
    if r < 0.35:
        a, b = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5)])
        return rng.choice([f"Gleason {a}+{b}={a + b}", f"Gleason score {a} + {b}", f"Gleason {a + b} ({a}+{b})"])
    return fill(rng, rng.choice(STAGE_FORMS))


def _number(rng: random.Random) -> str:
    return rng.choice([str(rng.randint(1, 400)), f"{rng.randint(0, 40)}.{rng.randint(0, 9)}",
                       f"{rng.randint(0, 9)}.{rng.randint(0, 99):02d}", str(rng.randint(1, 20))])


def _quantity(rng: random.Random) -> str:
    return f"{_number(rng)}{rng.choice([' ', ' ', ''])}{rng.choice(_list('units'))}"


def _measure(rng: random.Random) -> str:
    name = rng.choice(_list("measure_abbrevs"))
    return rng.choice([f"{name} {_quantity(rng)}", f"{name}: {_number(rng)}", f"{name} {_number(rng)}",
                       f"{name} = {_quantity(rng)}", f"{name} {rng.randint(1, 99)}%"])


def _suture(rng: random.Random) -> str:
    name = rng.choice(_list("sutures"))
    return rng.choice([name, f"{rng.choice(['0', '1', '2-0', '3-0', '4-0', '5-0', '6-0'])} {name}",
                       f"{name} {rng.choice(['2-0', '3-0', '4-0'])}", f"running {rng.choice(['3-0', '4-0'])} {name}"])


def _variant(rng: random.Random) -> str:
    aa = ["Ala", "Arg", "Asn", "Asp", "Cys", "Gln", "Glu", "Gly", "His", "Ile", "Leu", "Lys", "Met", "Phe", "Pro",
          "Ser", "Thr", "Trp", "Tyr", "Val"]
    pos, base = rng.randint(10, 9000), rng.choice("ACGT")
    c = rng.choice([f"c.{pos}{base}>{rng.choice('ACGT'.replace(base, ''))}", f"c.{pos}dup{base}",
                    f"c.{pos}_{pos + 1}del{base}{rng.choice('ACGT')}", f"c.{pos}+{rng.randint(1, 5)}G>A",
                    f"c.{pos}-{rng.randint(1, 20)}del"])
    p = rng.choice([f"p.{rng.choice(aa)}{pos // 3}{rng.choice(aa)}", f"p.{rng.choice(aa)}{pos // 3}Ter",
                    f"p.({rng.choice(aa)}{pos // 3}{rng.choice(aa)})", f"p.{rng.choice(aa)}{pos // 3}fs",
                    f"p.{rng.choice(aa)}{pos // 3}{rng.choice(aa)}fs*{rng.randint(2, 80)}"])
    ref = f"NM_{rng.randint(1000, 99999):06d}.{rng.randint(1, 6)}"
    gene = rng.choice(_list("gene_symbols"))
    return rng.choice([f"{c} ({p})", f"{c} {p}", f"{ref}:{c}", c, f"{ref}({gene}):{c} ({p})"])


def _ward(rng: random.Random) -> str:
    return rng.choice([f"Ward {rng.randint(1, 80)}", f"Bed {rng.randint(1, 40)}", f"Bay {rng.randint(1, 8)}",
                       f"bed {rng.randint(1, 30)}", f"Ward {rng.randint(1, 40)}{rng.choice('ABC')}",
                       f"Bay {rng.randint(1, 6)} Bed {rng.randint(1, 6)}", f"Theatre {rng.randint(1, 12)}",
                       f"OR {rng.randint(1, 20)}", f"Cath Lab {rng.randint(1, 4)}", f"Resus {rng.randint(1, 4)}"])


def _words(name: str, upper: float = 0.1) -> Callable[[random.Random], str]:
    return lambda rng: _case(rng, rng.choice(_list(name)), upper, 0.0)


def _site(rng: random.Random) -> str:
    return rng.choice(_list("anatomy_sites"))


def _drug(rng: random.Random) -> str:
    word = rng.choice(_list("drug_names"))
    return rng.choice([word, word.title(), word.upper()]) if word.islower() else word


#: ``<slot>`` -> a function drawing plain text (never PHI) from a sourced list or a grammar.
VOCAB: dict[str, Callable[[random.Random], str]] = {
    "dx": _dx, "icd": _code, "icd_dx": _code_dx, "cpt": _cpt, "stage": _stage, "qty": _quantity,
    "measure": _measure, "suture": _suture, "variant": _variant, "ward": _ward, "site": _site,
    "Site": lambda rng: _site(rng).capitalize(), "device": _words("devices", 0.0),
    "action": lambda rng: rng.choice(_list("procedure_actions")).lower(), "Action": _words("procedure_actions", 0.0),
    "drug": _drug, "brand": _words("brand_names", 0.15), "epo": _words("eponyms", 0.05),
    "epo2": _words("eponyms_more", 0.05), "cword": _words("clinical_words", 0.1),
    "abbr": _words("clinical_abbrevs", 0.3),
    "score": lambda rng: f"{rng.choice(_list('score_names'))} {rng.randint(0, 30)}",
    "contrast": lambda rng: f"{rng.choice(_list('contrast_agents'))} {rng.choice(['300', '350', '240', ''])}".strip(),
    "aepo": _words("anatomy_eponyms", 0.0), "gene": _words("gene_symbols", 0.0), "icdword": _words("icd10_words", 0.2),
}

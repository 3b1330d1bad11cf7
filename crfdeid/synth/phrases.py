"""Non-PHI ICU phrases with random numbers: the look-alikes a de-identifier must leave alone.

A phrase is a template: ``{60-110}`` draws an integer, ``{3.1-5.2}`` a number
with that many decimals, ``{SR|ST|AFIB}`` one alternative (possibly empty).
Vitals (``120/80``), ranges (``50-100CC/HR``), scores (``4/10``), doses
(``40MEQ``) and times (``@ 1230``) must vary so a model cannot memorize them.

>>> import random
>>> fill(random.Random(1), "HR {60-60}S {SR|SR}, K {3.5-3.5}")
'HR 60S SR, K 3.5'
"""

from __future__ import annotations

import random
import re

_SLOT = re.compile(r"\{([^{}]*)\}")
_RANGE = re.compile(r"^(\d+(?:\.(\d+))?)-(\d+(?:\.\d+)?)$")


def _draw(rng: random.Random, slot: str) -> str:
    m = _RANGE.match(slot)
    if not m:
        return rng.choice(slot.split("|"))
    lo, decimals, hi = m.group(1), m.group(2), m.group(3)
    if decimals:
        scale = 10 ** len(decimals)
        value = rng.randint(round(float(lo) * scale), round(float(hi) * scale)) / scale
        return f"{value:.{len(decimals)}f}"
    return str(rng.randint(int(lo), int(hi)))


def fill(rng: random.Random, phrase: str) -> str:
    """``phrase`` with every ``{...}`` slot drawn at random."""
    return _SLOT.sub(lambda m: _draw(rng, m.group(1)), phrase)


SYSTEMS = {
    "NEURO": [
        "PT ALERT, ORIENTED X{1-3}", "A+OX{1-3}", "MAE", "PERRL", "PERRLA {2-4}MM BRISK",
        "PUPILS {2-4}/{2-4} BRISK", "FOLLOWS COMMANDS", "FOLLOWS SIMPLE COMMANDS {INCONSISTENTLY|}",
        "SEDATED ON PROPOFOL {10-60}MCG/KG/MIN", "FENTANYL GTT @ {25-200}MCG/HR",
        "RESTLESS AT TIMES, ATIVAN {0.5-2.0}MG IV GIVEN WITH GOOD EFFECT", "NO FOCAL DEFICITS",
        "C/O HEADACHE, TYLENOL 650MG PO GIVEN", "GCS {3-15}", "OPENS EYES TO {VOICE|PAIN}",
        "MOVING ALL EXT", "CIWA {2-20}", "PARKINSON'S TREMOR NOTED {R|L} HAND", "DENIES PAIN",
        "PAIN {2-9}/10, {MORPHINE|DILAUDID} {1-4}MG IV X{1-2}", "HALDOL {1-5}MG IV X{1-3} FOR AGITATION",
        "SLEPT {2-6} HRS", "SLEPT {1|2|3}-{3|4|5} HRS", "MAY HAVE SIPS", "PT MAY BE DEPRESSED", "C/O INCISIONAL PAIN {3-8}/10, PERCOCET {1|2} TABS GIVEN",
        "MAE, WEAKER ON {L|R}", "NODS APPROPRIATELY", "SPEECH CLEAR"],
    "CV": [
        "HR {60-120}S {SR|ST|SB|AFIB}, {NO|RARE|OCC|FREQ} ECTOPY", "HR {55-130} {SR|ST|AF}",
        "BP {90-170}/{40-95}", "NBP {90-170}/{40-95}", "ABP {90-170}/{40-95} MAP {55-100}",
        "SBP {80-120}S-{130-180}S", "AFIB {60-130}S", "RARE PVC'S", "OCC PAC'S",
        "K {3.1-5.4}, REPLETED WITH {20|40|60}MEQ KCL {IV|PO}", "MG {1.4-2.4}, {1|2}GM MG SULFATE GIVEN",
        "CA {7.5-9.8}", "PULSES {PALPABLE|DOPPLERABLE} X{2-4}", "SWAN-GANZ IN PLACE, PAD {12-30}",
        "PAP {25-60}/{10-30}", "HR {50|60|70|80|90|100}-{100|110|120|130}", "SBP {90-130}-{140-180}",
        "HCT {25|28|30}-{30|32|35}", "IVF @ {75|100|125|150}CC/HR", "{250|500}CC NS BOLUS X{1-3}", "CO/CI {3.1-7.9}/{1.8-3.9}", "SVR {700-1600}", "CVP {3-18}",
        "LOPRESSOR {5|12.5|25|50}MG {IV|PO} GIVEN", "NTG GTT @ {0.5-3.0}MCG/KG/MIN",
        "HEPARIN GTT @ {700-1500} UNITS/HR, PTT {40-110}", "COUMADIN HELD FOR INR {2.5-6.0}",
        "A-LINE {R|L} {RADIAL|FEMORAL}", "+{1-3} PEDAL EDEMA", "EDEMA {1-3}+ LE",
        "LASIX {20|40|80}MG IV WITH {200-1200}CC UO", "MAP {55-90}", "NEO @ {0.5-3.0}MCG/KG/MIN",
        "LEVOPHED @ {0.02-0.30}MCG/KG/MIN", "TROP {0.01-2.50}, CK {50-900}", "HCT {22-38}, {1|2} UNITS PRBC GIVEN"],
    "RESP": [
        "LS {CLEAR|COARSE|DIMINISHED} {BILAT|AT BASES|THROUGHOUT}", "LUNGS CLEAR BILAT",
        "COARSE BS, SUCTIONED FOR {SM|MOD|LG} AMT {THICK|THIN} {TAN|WHITE|YELLOW} SPUTUM",
        "O2 SAT {88-100}% ON {2|3|4|6}L NC", "SATS {90-100}% ON {35|40|50|70}% {FM|FT|SHOVEL MASK}",
        "VENT SETTINGS {AC|SIMV} {400-700} X {10-20}, PEEP {5-12}, FIO2 {40|50|60}%",
        "ABG {7.21-7.49}/{30-60}/{60-200}", "RR {12-30}", "RR {14-20}-{22-34}", "RSBI {30-120}",
        "NEBS GIVEN BY RT", "CPAP {5|8|10}/PS {5-15} WELL TOLERATED", "EXTUBATED @ {08|09|10|11|12|13|14|15|16}{00|15|30|45} WITHOUT DIFFICULTY",
        "DIMINISHED BASES", "{20|30|40|60}PK/YR HX OF SMOKING", "CXR {DONE|PENDING|IMPROVED}",
        "IS {500-1500}CC", "IS {250|500|750}-{1000|1250|1500}CC", "SATS {88|90|92}-{95|98|100}%",
        "{2|3|4}-{4|5|6}L NC", "TV {350|400|450}-{500|550|600}", "ABG Q{4|6}-{6|8}H", "CT {R|L} WITH {10-200}CC SEROSANG DRAINAGE, NO AIR LEAK"],
    "GI": [
        "ABD {SOFT|DISTENDED|FIRM}, {NT/ND|+BS|HYPOACTIVE BS}", "+BS", "TOL {PO|CLEARS|SIPS}",
        "NPO EXCEPT MEDS", "TF {JEVITY|PROMOTE|NEPRO|IMPACT} @ {20-80}CC/HR, RESIDUALS <{10-60}CC",
        "NO BM THIS SHIFT", "{SM|MOD|LG} {BROWN|LIQUID} {GUAIAC NEG|GUAIAC +} STOOL", "COLACE/SENNA GIVEN",
        "NGT TO {LCS|LIS} DRAINING {50-400}CC {BILIOUS|GREEN|COFFEE GROUND} FLUID", "PROTONIX {40|80}MG IV",
        "FS {100|150|200}-{200|250|300}", "PERCOCET {1|2}-{2|3} TABS Q{4|6}H PRN", "FS {80-300}, COVERED WITH {2-10}U {REG|HUMALOG} PER RISS", "INSULIN GTT @ {1-12} UNITS/HR"],
    "GU": [
        "FOLEY DRAINING {CLEAR|AMBER|CLOUDY} YELLOW URINE {20-60}-{70-150}CC/HR", "UO {20-100}CC/HR",
        "VOIDING QS", "UO {100|200|300}-{400|500|1000}CC/SHIFT", "{1|2}-{2|3} LITERS NEG", "BUN/CR {10-90}/{0.6-4.5}", "I/O {+|-}{0.2-3.0}L", "FOLEY D/C'D @ 0{5-7}00",
        "DIURESING WELL", "LOS {+|-}{1-9}L", "CRRT RUNNING, PULLING {50-200}CC/HR"],
    "ID": [
        "TMAX {98.0-103.5}", "T {96.8-102.4} PO", "AFEBRILE", "WBC {3.1-25.0}",
        "{VANCO|ZOSYN|LEVOFLOX|FLAGYL|CEFEPIME} AS ORDERED", "{BLOOD|URINE|SPUTUM} CX X{1-2} SENT",
        "{MRSA|VRE|C.DIFF} SCREEN PENDING", "ON LEVAQUIN", "CONTACT PRECAUTIONS FOR {MRSA|VRE}"],
    "SKIN": [
        "INTACT", "{COCCYX|SACRUM|HEELS} REDDENED, DUODERM APPLIED", "TURNED Q{2|3}H", "BRADEN {9-20}",
        "SURGICAL INCISION CLEAN AND DRY", "{PICC|TLC|CORDIS} {R|L} {ARM|IJ|SC}, SITE WNL",
        "{18|20|22}G PIV {R|L} {HAND|FA|AC}", "STAGE {1-3} DECUB ON {COCCYX|L HEEL|R HIP}"],
    "HEME": ["HCT {22-40} STABLE", "PLT {30-400}", "INR {1.0-4.5}", "PTT {25-90}",
             "{1|2} UNITS FFP GIVEN", "ON SQ HEPARIN {5000} UNITS TID"],
}

PLAN = ["MAY NEED REINTUBATION", "MAY ADVANCE DIET IN AM", "FAMILY MAY VISIT AFTER {1|2|3}PM",
        "MAY D/C FOLEY IN AM", "KEEP SBP {90|100|110}-{120|130|140}", "UO GOAL {30|50}-{60|100}CC/HR",
        "TITRATE NEO TO MAP {55|60|65}-{70|75|80}", "FLUID BOLUS {250|500}-{500|1000}CC PRN",
        "CONT TO MONITOR", "CONT CURRENT PLAN", "WEAN VENT AS TOL", "? TRANSFER TO FLOOR IN AM",
        "FOLLOW UP AM LABS", "PAIN CONTROL", "DIURESE AS TOL", "SUPPORT PT/FAMILY",
        "CHECK K AND MG @ {18|19|20|21|22|23}{00|30}", "OOB TO CHAIR IN AM", "REPEAT HCT @ 0{1-6}00",
        "NEGATIVE {500-1500}CC GOAL", "MONITOR FS Q{4|6}H", "WEAN NEO FOR MAP >{60|65}"]

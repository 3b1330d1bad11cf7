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
    """``phrase`` with every ``{...}`` slot drawn at random (an empty alternative leaves no double space)."""
    return " ".join(_SLOT.sub(lambda m: _draw(rng, m.group(1)), phrase).split())


def fill_nested(rng: random.Random, phrase: str) -> str:
    """:func:`fill`, again until no ``{...}`` is left: alternatives that hold slots of their own.

    >>> "{" in fill_nested(random.Random(1), "{{6|7}/{8|9}|{9|10}/{11|12}} Fr")
    False
    """
    text = fill(rng, phrase)
    while "{" in text:
        text = fill(rng, text)
    return text


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
        "MAE, WEAKER ON {L|R}", "NODS APPROPRIATELY", "SPEECH CLEAR",
        "PROPOFOL {DECREASED|WEANED} FROM {20-60} TO {5-40}MCG", "FENTANYL UP TO {50-250}MCG/HR",
        "BACK TO BASELINE MENTAL STATUS", "MORE ALERT THAN BASELINE", "GCS UP TO {8-15}"],
    "CV": [
        "HR {60-120}S {SR|ST|SB|AFIB}, {NO|RARE|OCC|FREQ} ECTOPY", "HR {55-130} {SR|ST|AF}",
        "BP {90-170}/{40-95}", "NBP {90-170}/{40-95}", "ABP {90-170}/{40-95} MAP {55-100}",
        "SBP {80-120}S-{130-180}S", "AFIB {60-130}S", "RARE PVC'S", "OCC PAC'S",
        "K {3.1-5.4}, REPLETED WITH {20|40|60}MEQ KCL {IV|PO}", "MG {1.4-2.4}, {1|2}GM MG SULFATE GIVEN",
        "CA {7.5-9.8}", "PULSES {PALPABLE|DOPPLERABLE} X{2-4}", "SWAN-GANZ IN PLACE, PAD {12-30}",
        "PAP {25-60}/{10-30}", "PA {20-65}/{8-30}", "PAS {25-60}/{10-30}",
        "HR {50|60|70|80|90|100}-{100|110|120|130}", "SBP {90-130}-{140-180}",
        "HCT {25|28|30}-{30|32|35}", "IVF @ {75|100|125|150}CC/HR", "{250|500}CC NS BOLUS X{1-3}", "CO/CI {3.1-7.9}/{1.8-3.9}", "SVR {700-1600}", "CVP {3-18}",
        "LOPRESSOR {5|12.5|25|50}MG {IV|PO} GIVEN", "NTG GTT @ {0.5-3.0}MCG/KG/MIN",
        "HEPARIN GTT @ {700-1500} UNITS/HR, PTT {40-110}", "COUMADIN HELD FOR INR {2.5-6.0}",
        "A-LINE {R|L} {RADIAL|FEMORAL}", "+{1-3} PEDAL EDEMA", "EDEMA {1-3}+ LE",
        "LASIX {20|40|80}MG IV WITH {200-1200}CC UO", "MAP {55-90}", "NEO @ {0.5-3.0}MCG/KG/MIN",
        "LEVOPHED @ {0.02-0.30}MCG/KG/MIN", "TROP {0.01-2.50}, CK {50-900}", "HCT {22-38}, {1|2} UNITS PRBC GIVEN",
        # trends after to/from/BP and glued doses: numbers that look like dates or ids but are not
        "BP {DROPPED|DOWN|DECREASED} TO {66-95}/{30-55}{| WITH TURNING| AFTER LOPRESSOR| WHILE ASLEEP}",
        "SBP {UP|INCREASED} TO {150-200}{|S} {WITH AGITATION|WHEN AWAKE|}", "BP {70-95}/{30-55} TO {100-150}/{45-80}",
        "BP {100-160}/{40-90}-{120-180}/{50-95}", "HR {UP|DOWN} TO {38-160} {WITH SUCTIONING|WITH ACTIVITY|}",
        "HR {INCREASED|DECREASED} FROM {50-90} TO {95-150}", "NEO WEANED FROM {1.0-5.0} TO {0.1-0.9}MCG/KG/MIN",
        "LEVO TITRATED FROM {2-8} TO {3-12}MCG/MIN", "{1|2|3}UPRBC {GIVEN|TRANSFUSED|}", "{1|2}U PRBC",
        "{1|2}UFFP", "{15|20|30}MMKPHOS {IV|GIVEN|}", "{15|30}MM KPHOS", "KPHOS {15|30}MMOL IV",
        "{15|30}MMNAPHOS", "IVF D5 1/2 NS @ {50-150}CC/HR", "D5 1/2NS {WITH 20KCL|} @ {75|100|125}",
        "D51/2NS @ {50-125}", "1/2NS @ {75|100}CC/HR", "D5W @ KVO",
        "SBP IN {HIGH|LOW|MID} {80|90|100|110|120|130|140}'S",
        "HR IN {LOW|HIGH|} {50|60|70|80|90|100|110}'S", "BP BACK TO BASELINE", "CONVERTED TO {SR|NSR|AFIB}",
        "REMAINS IN {AFIB|SR|NSR|AFLUTTER}", "PLACE NEW A-LINE", "ALINE {DAMPENED|POSITIONAL}, MAY NEED NEW ALINE",
        "NEW ALINE PLACED {R|L} {RADIAL|FEM}", "CVP {3-18} FROM {3-18}", "K {3.1-4.0} TO {3.8-4.8} AFTER REPLETION"],
    "RESP": [
        "LS {CLEAR|COARSE|DIMINISHED} {BILAT|AT BASES|THROUGHOUT}", "LUNGS CLEAR BILAT",
        "COARSE BS, SUCTIONED FOR {SM|MOD|LG} AMT {THICK|THIN} {TAN|WHITE|YELLOW} SPUTUM",
        "O2 SAT {88-100}% ON {2|3|4|6}L NC", "SATS {90-100}% ON {35|40|50|70}% {FM|FT|SHOVEL MASK}",
        "VENT SETTINGS {AC|SIMV} {400-700} X {10-20}, PEEP {5-12}, FIO2 {40|50|60}%",
        "ABG {7.21-7.49}/{30-60}/{60-200}", "RR {12-30}", "RR {14-20}-{22-34}", "RSBI {30-120}",
        "NEBS GIVEN BY RT", "CPAP {5|8|10}/PS {5-15} WELL TOLERATED", "EXTUBATED @ {08|09|10|11|12|13|14|15|16}{00|15|30|45} WITHOUT DIFFICULTY",
        "DIMINISHED BASES", "{20|30|40|60}PK/YR HX OF SMOKING", "CXR {DONE|PENDING|IMPROVED}",
        "IS {500-1500}CC", "IS {250|500|750}-{1000|1250|1500}CC",
        # ventilator and pressure-support settings: slashes and x-chains that look like dates or plates
        "PSV {5-20}/{5|8|10}", "{PEEP/PS|CPAP/PSV|PS/PEEP|CPAP/PS} {5|8|10|12|15}/{5|8|10}",
        "ON PSV {10|12|15|18}/{5|8} WITH RR {12-34}", "{5|8|10|12|15|18|20}/{5|8|10} PSV",
        "WEANED TO {5|8|10}/{5|8} {CPAP|PSV|}", "CPAP {5|8}/{5|8}", "{8-20}IPS", "{10|12|15}IPS/{5|8}PEEP",
        "IPS {5-20}, PEEP {5|8|10}", "BIPAP {10-15}/{5-8}", "AC {400-750}X{10-20}X{5|8|10}",
        "{400-700}X{10-20}", "{AC|SIMV} {400-750}X{8-20}X{40|50|60|100}%X{5|8|10}", "{500|600|700}X{4|6|8|10}",
        "{AC|SIMV} {400|450|500|550|600|650|700}/{10-20}/{5|8|10}/{40|50|60}%",
        "BREATHING IN SYNCH WITH VENT", "{OUT OF|NOT IN} SYNCH WITH VENT", "OVERBREATHING VENT BY {2-12}",
        "RR UP TO {28-45} {WITH AGITATION|WITH TURNING|}", "SATS DOWN TO {78-89}% {WITH SUCTIONING|WITH TURNING|}",
        "SATS IN {HIGH|LOW|MID} {80|90}'S", "FIO2 WEANED FROM {50|60|70|100}% TO {40|50}%",
        "PEEP INCREASED FROM {5|8} TO {10|12|15}", "RATE DECREASED FROM {14-20} TO {8-12}",
        "TRIAL OF CPAP {5}/{5} X {1-4}HRS", "BACK ON AC {10-20}", "SATS {88|90|92}-{95|98|100}%",
        "{2|3|4}-{4|5|6}L NC", "TV {350|400|450}-{500|550|600}", "ABG Q{4|6}-{6|8}H", "CT {R|L} WITH {10-200}CC SEROSANG DRAINAGE, NO AIR LEAK"],
    "GI": [
        "ABD {SOFT|DISTENDED|FIRM}, {NT/ND|+BS|HYPOACTIVE BS}", "+BS", "TOL {PO|CLEARS|SIPS}",
        "NPO EXCEPT MEDS", "TF {JEVITY|PROMOTE|NEPRO|IMPACT} @ {20-80}CC/HR, RESIDUALS <{10-60}CC",
        "NO BM THIS SHIFT", "{SM|MOD|LG} {BROWN|LIQUID} {GUAIAC NEG|GUAIAC +} STOOL", "COLACE/SENNA GIVEN",
        "NGT TO {LCS|LIS} DRAINING {50-400}CC {BILIOUS|GREEN|COFFEE GROUND} FLUID", "PROTONIX {40|80}MG IV",
        "FS {100|150|200}-{200|250|300}",
        "TF INCREASED FROM {10-40} TO {45-80}CC/HR", "TF ADVANCED TO GOAL {40-80}CC/HR",
        "{1|3}/{2|4} STRENGTH {PROMOTE|JEVITY|TF} @ {10-40}CC/HR", "{1|2}/{2|3} AMP D50 GIVEN FOR FS {40-69}",
        "PERCOCET {1|2}-{2|3} TABS Q{4|6}H PRN", "FS {80-300}, COVERED WITH {2-10}U {REG|HUMALOG} PER RISS", "INSULIN GTT @ {1-12} UNITS/HR"],
    "GU": [
        "FOLEY DRAINING {CLEAR|AMBER|CLOUDY} YELLOW URINE {20-60}-{70-150}CC/HR", "UO {20-100}CC/HR",
        "VOIDING QS", "UO {100|200|300}-{400|500|1000}CC/SHIFT", "{1|2}-{2|3} LITERS NEG", "BUN/CR {10-90}/{0.6-4.5}", "I/O {+|-}{0.2-3.0}L", "FOLEY D/C'D @ 0{5-7}00",
        "DIURESING WELL", "LOS {+|-}{1-9}L", "CRRT RUNNING, PULLING {50-200}CC/HR",
        "UO DOWN TO {5-30}CC/HR", "LASIX GTT UP TO {5-20}MG/HR", "CR {1.1-4.0} FROM {0.6-1.5}",
        "UO {10-40} TO {50-200}CC/HR AFTER LASIX"],
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

# Events of the shift without PHI: units, baseline and rhythm words after to/in/from, trends.
SHIFT = ["ARRIVED FROM {ED|OR|OSH|CATH LAB|PACU|EP LAB} @ {10-23}{00|15|30|45}",
         "TRANSFERRED FROM OSH {ED|MICU|CCU|} FOR {CATH|FURTHER MGMT|HIGHER LEVEL OF CARE}",
         "OSH RECORDS {IN CHART|REQUESTED|PENDING}", "TO {CT|MRI|IR|ECHO} @ 0{1-9}{00|30}, BACK @ {10-23}{00|30}",
         "PLAN TO PLACE NEW {ALINE|PICC|TLC|CORDIS} {IN AM|TODAY|WHEN COAGS CORRECTED}",
         "{BACK TO|RETURNED TO|NOT YET AT|CLOSE TO} BASELINE", "WENT INTO {AFIB|RAPID AF|SVT|NSVT} @ 0{1-9}{00|30}",
         "BREATHING IN SYNCH WITH VENT {AFTER SEDATION|ONCE SEDATED|}", "OOB TO CHAIR {WITH ASSIST|X 1|X 2|}",
         "LEFT IN CHAIR {1-3} HRS", "SATS IN THE HIGH {80|90}'S", "TEMP UP TO {100.1-102.9}",
         "WBC UP TO {12.0-25.0} FROM {6.0-11.9}", "HCT DOWN TO {21-27} FROM {28-34}",
         "PLT {DOWN|UP} TO {40-300}", "K {3.0-3.5}, {20|40}MEQ KCL IN {100|250}CC",
         "SBP {DRIFTING|TRENDING} DOWN TO {75-90}'S", "IN {NAD|NO DISTRESS|GOOD SPIRITS|AFIB|SR}",
         "INCREASED TO {2|3|4|5}MCG/KG/MIN", "DECREASED TO {0.5-2.0}MCG/KG/MIN", "UP TO {10-30}MG/HR",
         "SEEN BY {RT|PT|OT|NUTRITION|SW|CASE MGMT} TODAY", "CT SHOWED {NO BLEED|SMALL EFFUSION|NO CHANGE}",
         "{MICU|CCU|SICU|CSRU|} {TEAM|HO|RESIDENT|NP|FELLOW|MD|INTERN} {AWARE|MADE AWARE|NOTIFIED}",
         "{MD|HO|NP|RESP|CARDS|RENAL|EP|NEURO|SURGERY|ID} AWARE{|, NO NEW ORDERS|, WILL FOLLOW}",
         "RESIDENT AWARE AND AT BEDSIDE", "SBP {DOWN|UP} TO {70|80|90|160|170|180}S",
         "FAMILY IN TO VISIT, UPDATED BY RN", "{1|2}/{2|3|4} OF {DOSE|TAB} GIVEN", "FLUIDS {1|2}/{2|3} NS",
         "FROM {5|10|15|20} TO {2|3|5|8}", "{1|2|3}L {NEG|POS} FOR LOS",
         # small ranges that could pass for month-day dates
         "PAIN {1-5}-{6-10}/10", "Q{2|3}-{4|6}H", "{1|2|3}-{4|5|6} {LOOSE STOOLS|EPISODES|TIMES}",
         "RR {8-12}-{14-20}", "PEEP {5|8}-{10|12}", "CVP {4-10}-{11-18}", "{1|2}-{2|3}+ EDEMA",
         "K {3.5-4.0}-{4.1-4.5}", "{2|3|4}-{5|6|8} HRS OF SLEEP", "SATS {90-96}-{97-100}%",
         "{5|10}-{15|20}CC {CLEAR|SEROUS} DRAINAGE", "UO {1-9}-{10-30}CC/HR"]

"""Ordinary clinical words for the ``mix`` style, put where names stand so a model learns they are no names.

Written for crfdeid from general clinical knowledge (drug, disease, symptom, procedure and
service names any clinician uses), never from a corpus. Lower case as typed; the note's case
mode recases them. :data:`CLINICAL_LINES` are templates whose ``<drug>``, ``<dx>``,
``<sx>``, ``<proc>``, ``<verb>`` and ``<svc>`` slots take one of these words (then
:func:`crfdeid.synth.phrases.fill` draws the ``{...}`` slots), in the positions a name takes
in real notes: after *started*, *per*, *d/w*, *c/o*, *to*, at a line start.

A public vocabulary widens them (:data:`LEXICON_LINES`): the ``<icd>`` slot takes a word of
the ICD-10-CM descriptions (gazetteer ``icd10_words``, common ones likelier), ``<rx>`` a drug
name (``drug_names``), ``<word>`` a common English word that is no listed first name or common
surname (``common_words``); a capitalised slot (``<Icd>``) writes the word in Title case, and
any slot does so now and then, as mixed-case notes do (``Thrush noted``, ``On Heparin``).
:data:`NUMBER_LINES` are the numbers of real notes in clinical roles (vent settings
``cpap 5/5``, ``1 1/2 hrs``, ranges, rates ``1000u/hr``, times ``at 1430``, ``q2-4h``).

>>> import random
>>> clinical_line(random.Random(3), "started <drug> {5|5}mg")
'started melflufen 5mg'
"""

from __future__ import annotations

import random
import re
from functools import cache

from .. import gazetteers
from .phrases import fill


def _words(text: str) -> list[str]:
    """Entries separated by white space; ``_`` joins the words of one entry."""
    return [w.replace("_", " ") for w in text.split()]


DRUGS = _words("""heparin lovenox coumadin warfarin plavix aspirin asa tylenol acetaminophen motrin ibuprofen toradol
lasix furosemide bumex lopressor metoprolol labetalol hydralazine captopril lisinopril norvasc amlodipine zocor lipitor
protonix pantoprazole pepcid famotidine nexium colace senna dulcolax lactulose miralax ativan lorazepam haldol
haloperidol versed midazolam fentanyl morphine dilaudid hydromorphone percocet oxycodone methadone neurontin
dilantin phenytoin keppra depakote seroquel zyprexa ambien insulin lantus humalog glargine metformin zosyn
vancomycin vanco levaquin levofloxacin cipro flagyl metronidazole bactrim keflex cefazolin ancef ceftriaxone
cefepime zithromax azithromycin unasyn meropenem gentamicin fluconazole acyclovir prednisone solumedrol decadron
dexamethasone albuterol atrovent combivent spiriva digoxin amiodarone diltiazem cardizem nitroglycerin nitro
dopamine dobutamine levophed levo neo neosynephrine phenylephrine vasopressin propofol precedex nimbex narcan
kayexalate calcium magnesium potassium kcl kphos bicarb albumin prbc ffp platelets cryo tpn thiamine folate
synthroid allopurinol flomax aricept sinemet xanax klonopin valium benadryl phenergan zofran ondansetron reglan
compazine imodium carafate sucralfate maalox octreotide pitressin mannitol nicardipine esmolol integrilin
alteplase tpa argatroban bivalirudin vitamin_k ddavp epogen procrit neupogen sodium_bicarbonate nystatin
mycostatin linezolid daptomycin caspofungin ganciclovir tamiflu oseltamivir nebs lidocaine ketorolac
""")
DX = _words("""sepsis pneumonia pna chf copd asthma diabetes dm htn afib aflutter cad mi nstemi stemi cva stroke tia
seizure seizures dementia delirium uti pyelonephritis cellulitis endocarditis meningitis cholecystitis
pancreatitis cirrhosis hepatitis ascites varices gib ugib lgib ards arf aki ckd esrd dvt pe hypotension
hypertension hypoxia hypercarbia hyperkalemia hypokalemia hyponatremia hypernatremia hypoglycemia
hyperglycemia dka anemia thrombocytopenia coagulopathy dic bacteremia fungemia c.diff colitis diverticulitis
sbo ileus obstruction perforation abscess empyema effusion pneumothorax atelectasis edema anasarca
tamponade pericarditis cardiomyopathy aortic_stenosis lymphoma leukemia cancer carcinoma melanoma
metastases mets tumor mass lesion fracture fx hematoma bleed sah sdh ich encephalopathy withdrawal
overdose intoxication dehydration malnutrition decubitus ulcer osteomyelitis gout arthritis lupus
parkinsonism hydrocephalus neuropathy failure shock arrest vfib vtach bradycardia tachycardia
""")
SYMPTOMS = _words("""pain nausea vomiting diarrhea constipation sob dyspnea cp chest_pain headache dizziness
weakness fatigue fever chills cough hemoptysis hematuria melena hematemesis itching anxiety agitation
confusion insomnia thirst hunger numbness tingling palpitations abd_pain back_pain incisional_pain
""")
PROCS = _words("""cath ercp egd colonoscopy bronch bronchoscopy thoracentesis paracentesis lp intubation extubation
trach tracheostomy peg cabg avr mvr ptca stent pacer ppm icd aicd ablation cardioversion dialysis hd cvvh
crrt ultrafiltration transfusion surgery laparotomy ex-lap chole appy thoracotomy craniotomy biopsy
angiogram angioplasty embolization tips echo tte tee ct mri mra cxr kub u/s ultrasound eeg emg
picc tlc a-line swan bipap cpap ng_tube og_tube foley chest_tube ivc_filter debridement amputation
""")
VERBS = _words("""intubate extubate diurese transfuse wean suction reposition bolus titrate replete restart
start stop hold resume trach reintubate cardiovert dialyze aspirate irrigate flush drain debride
sedate restrain ambulate mobilize discharge transfer admit consult reassess recheck monitor
""")
SERVICES = _words("""renal cards cardiology neuro neurology gi id pulm pulmonary surgery ortho urology onc
oncology heme psych psychiatry derm ent ophtho ot pt sw nutrition rt resp case_mgmt palliative_care
pain_service transplant vascular ir ep micu_team ccu_team sicu_team ho fellow resident attending
""")

#: PHI-free lines with clinical words in name positions. Slots: see the module docstring.
CLINICAL_LINES = [
    "started <drug>", "started on <drug> {today|overnight|this am|}", "<drug> started", "<drug> d/c'd",
    "<drug> held {for sbp <90|for hr <60|for inr {2.5-5.0}|this am|}", "pt on <drug> {and <drug>|}",
    "cont on <drug>", "restarted <drug>", "given <drug> {x1|prn|} for <sx>",
    "<drug> {1|2|4|5|10|20|40}mg {iv|po|sc} given",
    "received <drug> x{1|2}", "<drug> gtt @ {1-20}{cc/hr|mg/hr|u/hr|mcg/min}", "<drug> increased to {2-40}mg",
    "changed from <drug> to <drug>", "abx: <drug>, <drug>", "meds: <drug>, <drug>, <drug>",
    "pt c/o <sx>", "c/o <sx> {x1|overnight|this am|}", "complaining of <sx>", "denies <sx>", "<sx> resolved",
    "<sx> controlled w/ <drug>", "r/o <dx>", "? <dx>", "hx <dx>, <dx>", "dx: <dx>", "w/u for <dx>",
    "<dx> w/u in progress", "tx for <dx>", "being treated for <dx>", "concern for <dx>", "likely <dx>",
    "<dx> improving", "<dx> resolved", "admitted w/ <dx>", "pt w/ <dx> {and <dx>|}", "known <dx>",
    "family aware of <dx> dx", "pt to <proc> in am", "s/p <proc> {today|yesterday|}", "awaiting <proc>",
    "<proc> {today|tomorrow|in am|on hold}", "<proc> done, {no complications|tol well|results pending}",
    "plan to <verb> {in am|today|if able|}", "will <verb> {in am|as tol|if needed|}", "unable to <verb>",
    "ok to <verb> per team", "d/w <svc> re: <drug>", "per <svc>, <verb> <drug>", "<svc> following",
    "<svc> consulted", "seen by <svc>", "<svc> aware", "<svc> to see in am", "called <svc> re: <sx>",
    "per protocol", "<drug> per sliding scale", "per <drug> protocol", "<drug> level {5.0-30.0}",
    "<proc> consent signed", "<dx> on <proc>", "hope to <verb> in am", "pt hopeful re: <proc>",
    "withdraws to {painful|noxious} stimuli", "{responds|no response} to {verbal|tactile|painful|noxious} stimuli",
    "pupils {perrl|perrla|perl|pearl|perla} {2-4}mm", "see {carevue|careview|flowsheet} for {details|vs|i/o|data}",
    "{numbers|vs|labs|lytes} {stable|wnl|pending}", "hemodynamically stable {on <drug>|}",
    "{lg|copious|thick} secretions",
    "<dx> per {radiology|rads|ct|cxr}", "{rrt|crrt|cvvh} {running|on hold|restarted}", "<sx> {improved|better|worse}",
]

#: PHI-free lines with the public vocabulary (``<icd>``, ``<rx>``, ``<word>``) where names stand.
LEXICON_LINES = [
    "pt c/o <icd> {pain|}", "c/o <icd> <icd>", "<Icd> noted", "<icd> noted {on exam|this am|overnight|}",
    "? <icd> <icd>", "r/o <icd> <icd>", "hx <icd>, <icd> <icd>", "pmh: <icd>, <icd> <icd>, <icd>, <icd>",
    "dx: <icd> <icd> of <icd>", "<icd> {l|r|left|right|bilat} <icd>", "<icd> of {the|} <icd> <icd>",
    "{skin|abd|chest|back|ext|heent}: <icd>, <icd>", "<Icd> {improving|worse|unchanged|resolved|present}",
    "{to|per|d/w|seen by} <icd> {clinic|service|team}", "w/u for <icd> <icd>", "<icd> and <icd> {noted|per md|}",
    "on <rx>", "ON <rx> AND <rx>", "<Rx> {given|held|started|d/c'd|increased|weaned|restarted}",
    "started <rx> {today|this am|}",
    "<rx> {1-100}{mg|mcg| units|meq|} {iv|po|sq|pr|} {q2h|q4h|q6h|q8h|q12h|daily|bid|tid|prn|x1|}",
    "d/w team re: <rx>", "per {md|team|pharmacy}, <rx> {held|changed to <rx>|}", "meds: <rx>, <rx>, <rx>, <rx>",
    "allergies: <rx>, <rx>", "<rx> level {2-30}", "<rx> for <icd>", "pt on <rx> for <icd> <icd>",
    "<word> <word> {noted|per pt|this shift|}", "pt {states|says|reports} <word> <word> <word>",
    "<word> <word> <word>", "<Word> <word> <word>", "{family|wife|son|daughter} {states|says} <word> <word>",
    "<word> {and|or|with} <word> <word>", "<Word> <word>, <word> <icd>",
]
#: PHI-free lines with the public vocabulary of issue 34 (``<epo>`` an eponym or place-named
#: term, ``<brand>`` a brand of drug, device or car, ``<dept>`` a department or a note header,
#: ``<abbr>`` a clinical abbreviation or nursing word) in plain clinical places and where names
#: and places stand (*per*, *d/w*, *to*, *at*, *from*, a line start, a header).
PUBLIC_LINES = [
    "<epo> {sign|test|maneuver} {neg|negative|positive|+|-}", "<Epo> {fracture|syndrome|disease} {noted|on xray|}",
    "{pos|neg|negative|positive} <epo>",
    "<epo> {protocol|criteria|rules|score|grade|classification} {applied|met|neg|}",
    "hx <epo>, <epo>", "r/o <epo>", "per <epo> {rules|criteria|protocol}", "<epo> {catheter|drain|line} in place",
    "<Epo> {monitor|cath|tube} {placed|d/c'd|in place|}", "s/p <epo> {procedure|repair|}", "? <epo>",
    "on <brand>", "{started|restarted|held|home med} <brand>", "<Brand> {40mg|5/325|1 tab|2 puffs|prn|}",
    "<brand> {pacemaker|icd|pump|device|monitor|valve|stent} {interrogated|checked|in place|}",
    "<Brand> <brand> {device|pacemaker}", "{rep from|called|per} <brand> {rep|}", "mva, {driver|passenger} of <brand>",
    "meds: <brand>, <brand>, <rx>", "allergic to <brand>",
    "<DEPT>", "<DEPT>:", "<Dept>: {pt seen|see note|f/u in 2 wks|}", "{per|d/w|seen by|called} <dept>",
    "{transfer|transferred|to go} to <dept>", "f/u {in|with|at} <dept> {clinic|in 2 wks|}",
    "<dept> {aware|following|consulted|to see}",
    "{from|in} <dept> {today|this am|}", "<Dept> consult {requested|called|pending}",
    "<abbr> <abbr> {noted|in place|d/c'd|}", "{pt|} <abbr>, <abbr>, <abbr>", "<abbr> per <abbr>", "<Abbr> <abbr>",
    "{md|ho|team|rn} <abbr> {re: <abbr>|}", "<abbr> {to|at|from} <abbr>",
    # scores and fractions, the look-alikes of a month/day
    "{strength|str|motor} {3|4|5}/5 {bilat|in all ext|ues|les|}", "{3|4|5}/5 {strength|str|grips}",
    "{sem|murmur} {1|2|3|4}/6", "{2|3|4}/6 {sem|murmur}", "{1|2|3}/{2|3|4} {of the dose|dose|tab|}",
    "{1|2}/{3|4} {full|of bag|}", "{1|2|3}/{3|4}", "{pulses|dp|pt} {1|2}+ ", "{tol|tolerated} {1|2}/{2|3|4}",
]
#: Numbers in clinical roles, the look-alikes of dates, phones and ages in real notes.
NUMBER_LINES = [
    "{cpap|ps|psv|bipap|peep/ps|pressure support} {5|8|10|12|15|20}/{5|8|10|12}",
    "on {imv|simv|ac|cmv|vent} {4-16}/{400-800}/{30-100}%/{5|8|10}", "{cpap|bipap} {5|10|12}/{5|8|10}/{30-60}%",
    "{for|x} {1|2|3} 1/2 {hrs|hours|hr}", "{up|down|weaned|increased|decreased} to {1-1200}",
    "{sbp|hr|rr|map|cvp|sats|fs|glu|bs|temp|ve|tv} {1-300}", "{sbp|hr|rr|tv|uo} {10-300}-{20-1200}",
    "{250-1000}-{1000-1500} {cc|ml|ccs|}", "{at|@} {10-23}{00|15|30|45}", "{at|@} 0{1-9}{00|30}",
    "{at|@} {12 noon|12noon|noon|midnight}",
    "{heparin|hep|insulin|integrilin|dopa|levo} {gtt|} at {1-25}{00|50}{u|units|}/hr",
    "{q|every} {2|3|4|6|8|12} {hr|hrs|hours|h}", "q{2|3|4|6}-{4|6|8}{h|hr|hrs}", "pain {0-10}/10",
    "abg {7.20-7.50}/{30-80}/{50-300}", "{ck|cpk} {100-9000}/{1-900}", "hct {20.0-40.0} {this am|at 1600|}",
    "{max temp|tmax|t max} {100.0-105.0}", "{fever|temp} as high as {100-105}", "{2|3|4|5|6}{l|ln|lnp} {np|nc|}",
    "desat to {70-95}", "{sbp|bp} {70-99}->{50-89}", "{#|} {6|7|7.5|8|8.5} {portex|shiley|ett|trach}",
    "{1|2|3|4}/{2|3|4} {strength|str} {tf|feeds}", "{1|2} to 1 block", "{100|90|80}'s", "{40-90}/{20-60}-{30-99}",
]

#: ICU nursing shorthand with fractions, strengths, scores and pressures, never PHI (issue 34 item 2):
#: the look-alikes of a month/day that the shipped model took for dates (``mix_icu`` style).
ICU_LINES = [
    "{strength|str|motor|grips|mae} {0-5}/5 {ue|le|bilat|r side|l side|throughout|}",
    "{moves all ext|mae}, {3|4|5}/5", "{murmur|sem|hsm|m} {1-4}/6 {heard|noted|at lsb|}",
    "{ivf|} {1/2ns|1/2 ns|d5 1/2ns|d5 1/4ns|1/4 ns} at {50-150}{cc/hr|/hr|}",
    "{tf|tube feeds|feeds} {1/2|1/4|3/4|2/3|full} {strength|str} at {10-80}{cc/hr|}",
    "tol {1/2|1/4|3/4} {strength|str} {tf|feeds}", "{gcs|GCS} {3-15} ({1-4}/{1-5}/{1-6})",
    "pupils {2-6}/{2-6} {brisk|sluggish|nonreactive|}", "{1/2|1/3|2/3|3/4} {of tray|of meal|of breakfast|eaten}",
    "{lungs|bs} {coarse|crackles|rales} {1/2|1/3|2/3} way up", "{cvp|pcwp|wedge} {4-25}",
    "{pa|pap} {20-70}/{8-35}", "{swan|pa line|aline|a-line} {in place|d/c'd|recalibrated|zeroed}",
    "{i/o|io|i&o} {200-3000}/{100-3000}", "{k|mg|ca} {1.0-5.9}/{1.0-5.9}", "{ptt|inr} {20-120}/{1.0-3.9}",
    "{pain|incisional pain} {0-10}/10 {after mso4|at rest|}", "{2|3|4}/{4|5} {pills|tabs|doses} {taken|refused}",
    "{lasix|kcl|mso4|ativan} {1/2|1/4|half} dose", "{1|2}/{2|3} {bags|units} {prbc|ffp|plt} in",
    "{sats|spo2} {88-100}% on {2-6}{l|lnc|l nc}", "{bp|sbp} {80-180}/{40-100} {lying|sitting|}",
    "{pulses|dp|pt|radial} {1|2}+/{1|2}+", "{1|2|3}+ {pitting|} edema {bilat|ble|}",
    "{peep|ps} {5|8|10}/{5|8|10} {tol well|}", "{fs|bs|glu} {60-400} {covered|ssri|no coverage|}",
]
#: Month/day dates in telegraphic ICU context and glued to their neighbours, PHI (``mix_icu`` style):
#: ``{date}`` is the date, written as :data:`crfdeid.synth.mix._MD_FORMS` do.
ICU_DATED = [
    "{s/p|sp|} {avr|mvr|cabg|cabgx3|trach|peg|ex lap|lap chole|thoracotomy} {date}{-| -|, |>| |}",
    "{arrest|code|pea arrest|vf arrest|intubated|extubated|reintubated} {date} {transferred|to micu|to ccu|}",
    "{labs|lytes|cx|ct|echo|cxr|tte|cath} on{date}{>|.|,|}", "{admitted|adm|transferred|tx'd} {date}{.|,|}",
    "({date}){ cxr| echo| labs|}", "{date}{-|>}{ pt| vanco| intubated|}",
    "{picc|cvl|aline|ngt|ogt|foley} {placed|changed|d/c'd} {date}", "{last bm|bm} {date}",
]

_SLOT = re.compile(r"<(drug|dx|sx|proc|verb|svc|icd|rx|word|Icd|Rx|Word|epo|Epo|brand|Brand|dept|Dept|DEPT|abbr|Abbr)>")
#: The gazetteer of each public slot kind.
_LISTS = {"icd": "icd10_words", "rx": "drug_names", "epo": "eponyms", "brand": "brand_names",
          "dept": "departments", "abbr": "clinical_abbrevs"}
#: Lists whose entries keep their own case (names of things, not words); the others are lower-cased.
_OWN_CASE = ("epo", "brand", "dept")
#: Issue 34's lists, drawn without the entries that hold a listed first name, surname or place
#: (``Bruce protocol``, ``Ford``, ``Ottawa ankle rules``): seen often and never as PHI, such a
#: word would leave the threshold's reach (``decoding.o_words_min_count``) and a patient of that
#: name with it; the first retrain with them lost recall so (docs/synth.md).
_NAMELESS = ("epo", "brand", "dept", "abbr")
_POOLS = {"drug": DRUGS, "dx": DX, "sx": SYMPTOMS, "proc": PROCS, "verb": VERBS, "svc": SERVICES}
_COMMON_NAMES = 2000  # the surnames of a common word left out of <word> (the most frequent)


@cache
def lexicon(kind: str) -> tuple[str, ...]:
    """The public words of a slot kind (``icd``, ``rx``, ``word``), ASCII, in their list order."""
    if kind == "word":
        names = {w.lower() for w in gazetteers.entries("first_male") + gazetteers.entries("first_female")
                 + gazetteers.entries("surnames")[:_COMMON_NAMES]}
        words = [w for w in gazetteers.entries("common_words") if w.isascii() and w.lower() not in names]
    else:
        words = list(gazetteers.entries(_LISTS[kind]))
    if kind in _NAMELESS:  # a word that is also a listed name would be learnt as never PHI (o_words)
        named = frozenset().union(*(gazetteers.load(n) for n in ("first_male", "first_female", "surnames",
                                                                  "cities", "states", "countries")))
        words = [w for w in words if not any(x in named for x in re.findall(r"[a-z]+", w.lower()))]
    return tuple(w if kind in _OWN_CASE else w.lower() for w in words if w.isascii())


def _lexicon_word(rng: random.Random, kind: str) -> str:
    low = kind.lower()
    words = lexicon(low)
    if low in _OWN_CASE or low in ("rx", "abbr"):
        word = rng.choice(words)
    else:  # frequency-ordered lists: the common words come more often (rank ~ uniform squared)
        word = words[int(len(words) * rng.random() ** 2)]
    if kind.isupper() or (low in _OWN_CASE and rng.random() < 0.15):
        return word.upper()
    if low in _OWN_CASE:
        return word.lower() if rng.random() < 0.15 else word
    return word.title() if kind[0].isupper() or rng.random() < 0.1 else word


def _slot(rng: random.Random, kind: str) -> str:
    if kind in _POOLS:  # hand-written words, now and then a public one of the same kind
        if kind in ("drug", "dx") and rng.random() < 0.3:
            return _lexicon_word(rng, "rx" if kind == "drug" else "icd")
        return rng.choice(_POOLS[kind])
    return _lexicon_word(rng, kind)


def clinical_line(rng: random.Random, template: str) -> str:
    """``template`` with every ``<kind>`` slot replaced by a word of that kind, then its ``{...}`` slots drawn."""
    return fill(rng, _SLOT.sub(lambda m: _slot(rng, m.group(1)), template))

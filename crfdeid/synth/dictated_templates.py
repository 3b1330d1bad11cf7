"""Frames of the ``dictated`` notes (:mod:`crfdeid.synth.dictated`), as data.

Written for crfdeid from general knowledge of how US dictated transcriptions of clinic and ward
medicine are laid out (ALL-CAPS headings with colons, the history as a long narrative, the
examination system by system, drug lists, an impression and a plan), discharge summaries, clinic
letters and SOAP notes; every clinical word comes through a vocabulary slot from a sourced list
(:data:`crfdeid.synth.dictated.DICT_VOCAB`, :data:`crfdeid.synth.operative.OP_VOCAB` and
:data:`crfdeid.synth.specialty_vocab.VOCAB`): ``<dx>`` an ICD-10-CM description, ``<brand>``/``<drug>``
a drug, ``<medlist>`` a list of them with doses, ``<sign>`` an eponymous sign or test, ``<score>``
a named score, ``<stage>`` a stage or class, ``<lab>`` a laboratory value, ``<vitals>`` vital signs,
``<site>`` an anatomical site, ``<part>`` an ICD-10-PCS body part, ``<aepo>`` an anatomical
eponym, ``<proc>`` a named operation. PHI slots are those of :data:`crfdeid.synth.world.SLOTS`,
:data:`crfdeid.synth.specialty.EXTRA_SLOTS` and :data:`crfdeid.synth.operative.OP_SLOTS`.
``{a|b}`` is drawn by :func:`crfdeid.synth.phrases.fill` (never PHI).
"""

from __future__ import annotations

#: Specialties and the words of their headings (``UROLOGY CONSULTATION``, ``Cardiology Clinic``).
SPECIALTIES = {"urology": "UROLOGY", "gi": "GASTROENTEROLOGY", "cardiology": "CARDIOLOGY", "ortho": "ORTHOPEDIC",
               "neuro": "NEUROLOGY", "ent": "OTOLARYNGOLOGY", "ophtho": "OPHTHALMOLOGY", "derm": "DERMATOLOGY",
               "pulm": "PULMONARY", "endo": "ENDOCRINOLOGY", "rheum": "RHEUMATOLOGY", "medicine": "INTERNAL MEDICINE"}

#: Headings by note kind; ``{spec}`` is the specialty's word.
HEADINGS = {
    "hp": ["HISTORY AND PHYSICAL", "HISTORY AND PHYSICAL EXAMINATION", "{spec} CONSULTATION", "CONSULTATION",
           "NEW PATIENT EVALUATION", "ADMISSION HISTORY AND PHYSICAL", "{spec} CONSULT NOTE", "OFFICE CONSULTATION"],
    "discharge": ["DISCHARGE SUMMARY", "Discharge Summary", "HOSPITAL DISCHARGE SUMMARY",
                  "DEATH AND DISCHARGE SUMMARY"],
    "letter": ["{spec} CLINIC", "Department of {spec}", "{spec} ASSOCIATES", "Outpatient {spec} Clinic"],
    "soap": ["{spec} PROGRESS NOTE", "OFFICE VISIT", "FOLLOW-UP VISIT", "CLINIC NOTE", "{spec} FOLLOW-UP NOTE",
             "SOAP NOTE"],
}

#: The header block of a transcription, one field a line (a random subset, in this order).
HEADER = [
    "{PATIENT NAME|PATIENT|NAME|Patient Name}: <pt>", "{MEDICAL RECORD NUMBER|MRN|MR#|ACCOUNT #}: <mrn>",
    "{DATE OF BIRTH|DOB}: <dob>", "{DATE OF SERVICE|DATE OF CONSULTATION|DATE OF ADMISSION|DATE OF VISIT|DATE}: <date>",
    "{REFERRING PHYSICIAN|PRIMARY CARE PHYSICIAN|PCP|REQUESTING PHYSICIAN}: <dr2>, {MD|M.D.|DO|NP}",
    "{ATTENDING PHYSICIAN|ATTENDING|CONSULTANT}: <dr_full>, {MD|M.D.|DO}",
]

#: The sections of a history and physical, in order: (heading, sentence templates, low, high).
#: A section is written when its low is above 0 or one in two times otherwise.
HP_SECTIONS = [
    ("{CHIEF COMPLAINT|REASON FOR CONSULTATION|REASON FOR VISIT}", ["<Dx>.", "{Follow-up of |Evaluation of |}<dx>.",
                                                                    "\"<cc>.\""], 1, 1),
    ("{HISTORY OF PRESENT ILLNESS|HISTORY OF THE PRESENT ILLNESS|HPI}", "<hpi>", 3, 8),
    ("{PAST MEDICAL HISTORY|PAST MEDICAL HISTORY/PROBLEM LIST}", ["<Dx>, <dx>{, and <dx>|, <dx>|}.",
                                                                 "Significant for <dx>, <dx> and <stage> <dx>.",
                                                                 "1. <Dx>. 2. <Dx>. 3. <Dx>."], 1, 1),
    ("PAST SURGICAL HISTORY", ["<Proc> in {2004|2011|2016|2019|the 1990s}; <proc>.", "None.",
                               "Status post <proc> and <proc>."], 0, 1),
    ("{MEDICATIONS|CURRENT MEDICATIONS|MEDICATIONS ON ADMISSION|OUTPATIENT MEDICATIONS}", ["<medlist>"], 1, 1),
    ("ALLERGIES", ["{NO KNOWN DRUG ALLERGIES|NKDA|<DRUG>|<BRAND> causes hives|<BRAND> and <DRUG>}."], 1, 1),
    ("SOCIAL HISTORY", ["{She|He} {lives|lives alone|lives with {her|his} <rel_rel>} in <town> and {is retired|"
                        "works as a teacher|works in construction|is on disability}.",
                        "{Former|Never|Current} smoker{, 20 pack-years| of 1 pack per day|}; {no|occasional|social} "
                        "alcohol{| use}; no illicit drugs.",
                        "{Married|Widowed|Divorced|Single}, {two|three|no} children."], 0, 2),
    ("FAMILY HISTORY", ["{Mother|Father|A brother|A sister} with <dx>.", "Noncontributory.",
                        "{Father|Mother} died of <dx> at {62|70|78}."], 0, 1),
    ("REVIEW OF SYSTEMS", "<ros>", 1, 4),
    ("{PHYSICAL EXAMINATION|PHYSICAL EXAM|EXAMINATION}", "<exam>", 3, 8),
    ("{LABORATORY DATA|LABORATORY STUDIES|LABS|DIAGNOSTIC DATA}", ["<lab>, <lab>, <lab>{, <lab>|}{, <lab>|}.",
                                                                  "{CT|MRI|Ultrasound|X-rays} of the <site> "
                                                                  "{showed|revealed} <dx>.", "<measure>."], 0, 3),
    ("{IMPRESSION|ASSESSMENT|ASSESSMENT AND PLAN|IMPRESSION AND PLAN}", ["<Dx>, <stage>.", "<Dx>{ with <dx>|}.",
                                                                        "1. <Dx>. 2. <Dx>.", "<Dx>; <score>."], 1, 2),
    ("{PLAN|RECOMMENDATIONS}", "<plan>", 2, 5),
]

#: The history's narrative (a specialty's sentences follow the opening; three to eight drawn, in order).
HPI_OPEN = [
    "The patient is a <pt_age>-year-old {male|female|gentleman|woman|right-handed man|right-handed woman} {with a "
    "history of|with a past medical history significant for|known to have} <dx> and <dx> who {presents|is seen "
    "today|was referred by Dr. <dr_last>} for {evaluation of|further management of|a second opinion regarding} <dx>.",
    "{He|She} reports {two weeks|three months|several days|about a year} of <cc>, {worse with|relieved by|not related "
    "to} {exertion|meals|lying flat|standing|activity}, and denies <cc>.",
    "{He|She} was seen {at <hosp>|in the emergency department|by {his|her} primary care physician} on <date> and "
    "started on <brand>, {without relief|with partial improvement|which {he|she} stopped because of <cc>}.",
]
#: The history's specialty sentences (two to five drawn, in order).
HPI = {
    "urology": ["{He|She} has {nocturia|frequency|urgency} {two|three|four} times a night with a {weak stream|sense "
                "of incomplete emptying}; <score>.", "A {CT urogram|renal ultrasound} showed <dx> of the <part>.",
                "{PSA|Urinalysis} {was|has been} <lab>{ last year|}."],
    "gi": ["{He|She} describes {melena|hematochezia|dysphagia to solids|epigastric pain after meals|bloating} for "
           "{three weeks|two months}, with a {10|15|20}-pound weight loss.", "An {EGD|colonoscopy} in {2019|2021} "
           "showed <dx> of the <part>.", "{He|She} takes <brand> {daily|as needed} for {back pain|arthritis}."],
    "cardiology": ["{He|She} reports <stage> symptoms with {dyspnea on exertion|chest pressure|palpitations} after "
                   "{one|two|three} blocks.", "An echocardiogram showed an ejection fraction of {25|35|45|55}% and "
                   "<dx>.", "{He|She} had a <proc> in {2018|2020|2022} and remains on <brand>."],
    "ortho": ["{He|She} injured the <site> {playing basketball|in a fall|lifting a box} and has had pain with "
              "{swelling|locking|giving way} since.", "X-rays show <dx>; <stage>.", "{Physical therapy|A cortisone "
              "injection|<brand>} gave {little|temporary} relief."],
    "neuro": ["{He|She} describes {episodes of|intermittent} {numbness|weakness|vertigo|headache} of the <site> "
              "lasting {minutes|hours}, with <sign> noted by {his|her} physician.",
              "An MRI of the {brain|cervical spine} showed <dx>.",
              "{He|She} has tried <brand> and <brand> without benefit; <score>."],
    "ent": ["{He|She} has {nasal obstruction|hearing loss|hoarseness|recurrent sinusitis} for {a year|six months} "
            "despite <brand> and <brand> nasal spray.", "A CT of the sinuses showed <dx>; <stage>.",
            "{He|She} denies {otalgia|dysphagia|epistaxis}."],
    "ophtho": ["{He|She} notes blurred vision of the {right|left} eye over {weeks|months} with {floaters|glare at "
               "night|distortion of straight lines}.", "{He|She} has <dx> and takes <brand>.",
               "Last dilated examination was {two|three} years ago."],
    "derm": ["{He|She} has a {pruritic|scaly|enlarging|bleeding} {rash|lesion|plaque} on the <site> for "
             "{six weeks|a year}, not improved by <brand> cream.", "{There is|There is no} personal history of "
             "<dx>.", "A biopsy in {2021|2023} showed <dx>."],
    "pulm": ["{He|She} has a chronic cough productive of {white|yellow} sputum and dyspnea, <score>.",
             "Pulmonary function tests showed an FEV1 of {45|58|72}% predicted; <dx>.", "{He|She} uses <brand> "
             "{twice daily|as needed} and <brand> inhaler."],
    "endo": ["{His|Her} hemoglobin A1c was <lab> on <brand> and <drug>.", "{He|She} reports {fatigue|weight "
             "gain|heat intolerance|polyuria} and a <lab>.", "A thyroid ultrasound showed <dx>; TI-RADS {3|4|5}."],
    "rheum": ["{He|She} has morning stiffness of the hands for {30|60|90} minutes and swelling of the <site>.",
              "<lab>; <lab>.", "{He|She} was started on <brand> by Dr. <dr_last> with {partial|no} response."],
    "medicine": ["{He|She} was admitted with <dx> and treated with <brand> and <drug>.", "{His|Her} <lab> on "
                 "admission; <lab>.", "{He|She} has <dx>, <stage>."],
}
#: Review of systems sentences (one to four drawn, in order).
ROS = ["{Negative|Otherwise negative} except as noted in the HPI.", "{Constitutional|General}: {no fevers, chills "
       "or weight loss|fatigue}.", "{Cardiovascular|CV}: {no chest pain or palpitations|<cc>}.",
       "{Respiratory|Pulmonary}: {no cough or wheeze|dyspnea on exertion}.",
       "{GI|Gastrointestinal}: {no nausea, vomiting or diarrhea|<cc>}.",
       "{Neurologic|Neuro}: {no focal weakness|<cc>}.", "A complete 12-point review of systems was otherwise negative."]
#: The examination (three to eight drawn, in order; the vital signs first).
EXAM = [
    "{VITAL SIGNS|Vitals|VS}: <vitals>.", "{GENERAL|General}: {Well-developed, well-nourished|Pleasant, "
    "elderly|Obese|Thin} {man|woman} in {no acute distress|mild distress}.", "{HEENT|Head and neck}: <aepo> "
    "{normal|intact}; {pupils equal and reactive|oropharynx clear|no lymphadenopathy}.", "{NECK|Neck}: Supple, no "
    "{jugular venous distention|thyromegaly|bruits}.", "{HEART|Cardiovascular}: Regular rate and rhythm, {no "
    "murmurs|a grade 2/6 systolic murmur at the <site>|S1 and S2 normal}.", "{LUNGS|Lungs}: {Clear to auscultation "
    "bilaterally|Bibasilar crackles|Scattered wheezes}.", "{ABDOMEN|Abdomen}: {Soft, nontender, nondistended|Tender in "
    "the <site>}; <sign> {negative|positive}.", "{EXTREMITIES|Extremities}: {No edema|Trace edema of the <site>|1+ "
    "pitting edema}; {pulses intact|<sign> negative}.", "{NEUROLOGIC|Neuro}: {Alert and oriented x3|Cranial nerves "
    "II-XII intact}; <sign> {present|absent}; {reflexes 2+ and symmetric|strength 5/5 throughout}.",
    "{SKIN|Skin}: {Warm and dry|A 4 mm lesion of the <site>|No rash}.", "<Part>: {tender|normal|swollen}; "
    "{positive|negative} <sign>; <score>.", "<exam_spec>",
]
#: A specialty's own examination findings (one drawn as ``<exam_spec>``).
EXAM_SPEC = {
    "urology": "Genitourinary: {Normal phallus|Testes descended bilaterally}; prostate {25|40|60} g, {smooth|firm}.",
    "gi": "Rectal: {guaiac-positive|guaiac-negative} stool; <sign> {negative|positive}; no hepatosplenomegaly.",
    "cardiology": "Jugular venous pressure {6|8|12} cm; {an S3|no S3}; <sign> {absent|present}.",
    "ortho": "The <site> {has an effusion|is stable}; {positive|negative} <sign>; range of motion {0-120|10-90} "
             "degrees.",
    "neuro": "Reflexes {1+|2+|3+} with <sign>; {Romberg negative|tandem gait unsteady}; <score>.",
    "ent": "{Tympanic membranes intact|Septum deviated to the left|Nasal polyps bilaterally}; <aepo> {clear|normal}.",
    "ophtho": "Visual acuity 20/{20|30|40|60|200}; intraocular pressure {12|16|21|28} mmHg; <dx> on dilated fundus "
              "exam.",
    "derm": "A {4|8|12} mm {erythematous plaque|pearly papule|pigmented macule} on the <site>; <sign>.",
    "pulm": "{Decreased breath sounds|Prolonged expiration} at the <site>; oxygen saturation {88|92|95}%.",
    "endo": "Thyroid {nontender|enlarged}, no nodules; monofilament sensation {intact|decreased} in the feet.",
    "rheum": "Synovitis of the <site>; {positive|negative} <sign>; <score>.",
    "medicine": "{Skin turgor decreased|Mucous membranes dry}; <sign> {negative|positive}.",
}
#: The plan's sentences (two to five drawn, in order).
PLAN = [
    "{Start|Continue|Increase} <brand> {10|20|25|50|100} mg {daily|twice daily|at bedtime}.", "{Stop|Hold} <brand>.",
    "{Check|Repeat|Obtain} <lab_name> and <lab_name> in {one week|two weeks|three months}.",
    "{Schedule|We will arrange} <proc> {at <hosp>|as an outpatient|next month}.",
    "{Obtain|Order} a {CT|MRI|ultrasound} of the <site>.",
    "{Referral to|Follow up with} Dr. <dr_last> {in <spec_word>|for <dx>}.", "Return to clinic in "
    "{two|four|six} weeks{, sooner if worse|}.", "The risks and benefits of <brand> were discussed and {he|she} "
    "{agrees|wishes to think about it}.", "Thank you for {this referral|this consultation|allowing me to see this "
    "patient}.",
]
#: The closing lines of a transcription (a random subset, in this order).
FOOTER = ["<dr_full>, {MD|M.D.|DO}", "<hosp>", "D: <date>{  T: <date>|}", "cc: {Dr. <dr_last>|<dr2>, MD}"]

#: A discharge summary's sections, in order (heading, templates, low, high).
DISCHARGE_SECTIONS = [
    ("{ADMITTING DIAGNOSIS|ADMISSION DIAGNOSIS}", ["<Dx>."], 1, 1),
    ("{DISCHARGE DIAGNOSES|DISCHARGE DIAGNOSIS|FINAL DIAGNOSES}", ["1. <Dx>. 2. <Dx>{. 3. <Dx>|}.", "<Dx>, <stage>."],
     1, 1),
    ("{PROCEDURES|PROCEDURES PERFORMED}", ["<Proc> on <date>.", "None."], 0, 1),
    ("{HISTORY OF PRESENT ILLNESS|BRIEF HISTORY}", "<hpi>", 1, 3),
    ("HOSPITAL COURSE", ["{He|She} was admitted to {the medical floor|telemetry|the <spec_word> service} and started "
                         "on <brand> and <drug>.", "{His|Her} <lab> on admission, <lab> at discharge.", "<Proc> on "
                         "hospital day {2|3|4} showed <dx>.", "{Cardiology|Nephrology|Gastroenterology} was consulted "
                         "and recommended <brand>.", "{He|She} improved and was ambulating{ independently|}; <score>."],
     3, 5),
    ("{DISCHARGE MEDICATIONS|MEDICATIONS AT DISCHARGE}", ["<medlist>"], 1, 1),
    ("{CONDITION ON DISCHARGE|CONDITION}", ["{Stable|Good|Fair|Improved}."], 0, 1),
    ("DISPOSITION", ["{Home|Home with home health|To <place>|To skilled nursing at <place>}."], 1, 1),
    ("{FOLLOW-UP|FOLLOW UP}", ["Dr. <dr_last> in {one|two|four} weeks; <lab_name> in one week.", "With {his|her} "
                               "primary care physician, Dr. <dr_last>, in {one|two} weeks."], 1, 1),
]
#: A clinic letter's paragraphs after ``Dear Dr. X:`` (sentences drawn from the history, plan and these).
LETTER_OPEN = ["Thank you for referring {Mr.|Mrs.|Ms.} <pt_last>, whom I saw {today|on <date>} in {the <spec_word> "
               "clinic|consultation} for <dx>.", "I had the pleasure of seeing {your patient|<pt_full>} {today|on "
               "<date>} in follow-up of <dx>."]
LETTER_CLOSE = ["I will see {him|her} again in {three|six} months and will keep you informed.", "Please do not "
                "hesitate to call me with any questions{ at <phone>|}.", "Sincerely,", "With kind regards,"]
#: A SOAP note's parts: (label forms, templates, low, high).
SOAP = [
    ("{S|SUBJECTIVE|Subjective}", "<hpi>", 2, 4), ("{O|OBJECTIVE|Objective}", "<exam>", 2, 5),
    ("{A|ASSESSMENT|Assessment}", ["<Dx>{, <stage>|}.", "<Dx>, {stable|improved|worse}; <score>."], 1, 1),
    ("{P|PLAN|Plan}", "<plan>", 2, 4),
]

#: Complaints in a patient's words or a clinician's (``<cc>``).
COMPLAINTS = ["chest pain", "shortness of breath", "abdominal pain", "blood in the urine", "back pain", "dizziness",
              "headaches", "palpitations", "cough", "fatigue", "joint pain", "blurred vision", "a rash", "hearing loss",
              "weakness", "numbness", "nausea", "difficulty swallowing", "leg swelling", "burning on urination"]
#: Laboratory tests (``<lab>``: name, low, high, decimals, unit, or ``<lab_name>`` alone).
LABS = [("hemoglobin", 7, 16, 1, ""), ("WBC", 3, 18, 1, ""), ("platelets", 90, 450, 0, ""), ("sodium", 128, 146, 0, ""),
        ("potassium", 3, 6, 1, ""), ("creatinine", 0.6, 3.5, 1, ""), ("BUN", 8, 60, 0, ""), ("glucose", 70, 380, 0, ""),
        ("hemoglobin A1c", 5.5, 12, 1, "%"), ("TSH", 0.1, 9, 2, ""), ("INR", 0.9, 3.5, 1, ""), ("ALT", 12, 240, 0, ""),
        ("AST", 12, 200, 0, ""), ("alkaline phosphatase", 40, 400, 0, ""), ("total bilirubin", 0.2, 4, 1, ""),
        ("albumin", 2.2, 4.8, 1, ""), ("lipase", 10, 900, 0, ""), ("troponin", 0.01, 2, 2, ""),
        ("BNP", 20, 2400, 0, ""), ("PSA", 0.2, 14, 1, ""), ("LDL", 50, 210, 0, ""), ("ESR", 5, 90, 0, ""),
        ("CRP", 0.2, 18, 1, ""), ("ferritin", 8, 900, 0, ""), ("vitamin D", 8, 60, 0, ""),
        ("magnesium", 1.4, 2.6, 1, ""), ("calcium", 7.8, 11.2, 1, ""), ("eGFR", 18, 95, 0, ""),
        ("uric acid", 3, 11, 1, ""), ("lactate", 0.8, 5, 1, "")]

"""Frames of the ``specialty`` notes (:mod:`crfdeid.synth.specialty`), as data.

A frame holds the layout of a note kind (headings, field labels, connecting words) written for
crfdeid from general knowledge of how such reports are laid out; its clinical words come from
the sourced lists through vocabulary slots (:data:`crfdeid.synth.specialty_vocab.VOCAB`:
``<dx>``, ``<site>``, ``<suture>``, ``<stage>``...). PHI slots are those of
:data:`crfdeid.synth.world.SLOTS` (``<pt>``, ``<date>``, ``<dr_last>``, ``<hosp>``...) and
:data:`crfdeid.synth.specialty.EXTRA_SLOTS`. ``{a|b}`` and ``{3-9}`` are drawn by
:func:`crfdeid.synth.phrases.fill` (never PHI); ``\\n`` breaks a line. Lines of a kind keep
their order (a report ends with its signature).
"""

from __future__ import annotations

HEADINGS = {
    "operative": ["OPERATIVE REPORT", "Operation Note", "OPERATION NOTE", "Op note", "Brief Op Note", "PROCEDURE NOTE"],
    "pathology": ["SURGICAL PATHOLOGY REPORT", "Histopathology Report", "Cytology Report", "PATHOLOGY"],
    "radiology": ["RADIOLOGY REPORT", "CT ABDOMEN AND PELVIS WITH CONTRAST", "MRI", "Ultrasound Report", "XR",
                  "Imaging Report"],
    "cardiology": ["TRANSTHORACIC ECHOCARDIOGRAM", "Echo Report", "CARDIAC CATHETERIZATION REPORT", "Cath Lab Report",
                   "Cardiology Clinic Letter"],
    "obstetric": ["Antenatal Clinic", "OBSTETRIC ULTRASOUND", "Labour Ward Note", "L&D Triage", "Postnatal Review"],
    "urology": ["Urology Clinic", "UROLOGY CONSULT", "Cystoscopy Report", "Urodynamics"],
    "ortho": ["Orthopaedic Clinic", "ORTHOPEDIC SURGERY CONSULT", "Fracture Clinic", "Ortho Post-op Review"],
    "ems": ["EMS PATIENT CARE REPORT", "Ambulance Run Sheet", "PCR", "Paramedic Handover"],
    "genetics": ["Clinical Genetics Letter", "GENETIC TEST RESULT", "Cancer Genetics Clinic", "Genomics Report"],
    "psychiatry": ["Behavioural Health Intake", "PSYCHIATRIC INTAKE ASSESSMENT", "Mental Health Assessment"],
    "allergy": ["Allergy Clinic", "ENT CLINIC LETTER", "Otolaryngology Consult", "Immunology Review"],
    "prior_auth": ["PRIOR AUTHORIZATION REQUEST", "Letter of Medical Necessity", "Pre-certification Request",
                   "Funding Request"],
    "portal": ["MyChart Message", "Patient Portal Message", "Secure Message", "Patient Message"],
    "handover": ["Handover", "SBAR Handover", "Night Handover", "Ward Handover", "Sign-out"],
    "referral": ["Referral Letter", "REFERRAL", "Dear Colleague", "GP Referral", "Consultation Request"],
}

LINES = {
    "operative": [
        "Date of operation: <date>", "Surgeon: Dr. <dr_last>\nAssistant: <dr_full>\nAnaesthetist: Dr <dr_last>",
        "PREOPERATIVE DIAGNOSIS: <dx>\nPOSTOPERATIVE DIAGNOSIS: {Same|<dx>}",
        "PROCEDURE: {Laparoscopic|Open|Robotic-assisted|Endoscopic|Percutaneous} <action> of <site>, <epo>",
        "ANESTHESIA: {General endotracheal|Spinal|Regional block|MAC}. <stage>. <cpt>",
        "FINDINGS: <dx> involving the <site>; <site> {normal|adherent|inflamed}. <epo2> noted.",
        "The patient was placed supine in <ward>. The <site> was identified and divided with <suture>.",
        "The <site> was followed to the <aepo>; a {Roux-en-Y|<epo>} limb of {40|60|100|150} cm was created.",
        "{Trocars|Ports} placed; <aepo> and <site> {identified|mobilised}. <Action> of the <site> with <suture>.",
        "The <device> was {placed|checked|removed}. Anastomosis fashioned with <suture> and <suture>.",
        "Haemostasis with <suture>. Fascia closed with <suture>; skin with <suture>. <measure>.",
        "EBL {20|50|100|250} mL. Specimens: <site> to pathology. Drains: <suture>.",
        "Post-op: <drug> {1-4} mg, <brand>. Review in clinic with <dr_last> in {2|4|6} weeks.",
        "Dictated by <dr_full>, <hosp>",
    ],
    "pathology": [
        "Patient: <pt>  <id>  Accession: <accession>", "Received: <date>  Reported: <date>",
        "CLINICAL HISTORY: <dx>. <stage>.", "SPECIMEN: <Site>, {excision|biopsy|resection|core biopsy}",
        "MACROSCOPY: {Received in formalin|Fresh} labelled with the patient's name, a <site> measuring <qty>.",
        "MICROSCOPY: <dx>. <measure>. Margins {clear|involved} (<qty>). <stage>.",
        "DIAGNOSIS:\n<Site>: {INVASIVE DUCTAL CARCINOMA (NST)|<dx>}, <stage>, <stage>",
        "IHC: <measure>; <measure>. <gene> {wild type|mutated}. SNOMED <icd>.",
        "Reported by Dr <dr_last>, Consultant Histopathologist, <hosp>",
    ],
    "radiology": [
        "Exam date: <date> <time>  <id>", "Referrer: Dr <dr_last>  Location: <ward>",
        "CLINICAL INDICATION: <dx>. <icd_dx>.", "TECHNIQUE: {Axial|Coronal} images after <contrast>. CTDIvol <qty>.",
        "COMPARISON: {None|CT of <date>}.", "FINDINGS: The <site> {is normal|shows <dx>}. <measure>.",
        "The <site> and <site> are unremarkable. <device> in situ. <epo> noted. <aepo> {clear|free}.",
        "IMPRESSION:\n1. <dx>. <stage>.\n2. {No|Small} <site> {lesion|collection} (<qty>).",
        "Reported by <dr_full>, {FRCR|MD|FRANZCR}, <hosp>",
    ],
    "cardiology": [
        "Date: <date>  Referring: <dr_full>", "Indication: <dx>, <stage>.",
        "<measure>, <measure>, <measure>, <measure>.", "<measure>; <measure>. <epo> {negative|absent}.",
        "LV: {normal size|dilated}, <measure>. RV: <measure>. Valves: <dx>.",
        "Access: {right radial|right femoral} with <device>. <contrast>. <cpt>",
        "Coronaries: <site> {patent|occluded|with 70% stenosis}; <stage>. <epo2>.",
        "Plan: <drug> and <brand>; <stage>. Follow up with Dr. <dr_last> at <hosp>.",
    ],
    "obstetric": [
        "<pt>  DOB <dob>  <id>", "<stage>, <stage> at {12|20|28|34|39}+{0-6} weeks. EDD <date>.",
        "Fundal height {18-40} cm. <measure>, <measure>, <measure>.",
        "<dx>. On <drug>; <stage>. <ward>.", "CTG {reactive|normal}. <measure>. <epo> {negative|positive}.",
        "Plan: {induction|growth scan|review} on <date>, midwife <nurse>. <qty>.",
        "Seen by Dr <dr_last> (O&G registrar)",
    ],
    "urology": [
        "Re: <pt>, <id>", "Referred by Dr <dr_last> for <dx>.", "<measure>, <measure>. <stage>.",
        "Cystoscopy: <site> {normal|trabeculated}; <device> {exchanged|removed}. <suture>.",
        "<icd_dx>. <cpt>.", "Plan: <drug> and <brand>, <epo> if needed; review <date>.",
        "<dr_full>, Consultant Urologist, <hosp>",
    ],
    "ortho": [
        "<pt> (<pt_age> y) seen <date> in <ward>.", "Injury: <dx>; <stage>. <measure>.",
        "X-ray: <site> {fracture|dislocation}, <stage>. <epo> {positive|negative}.",
        "Fixed with <device> and <suture>. <measure>.", "Plan: <drug>, <brand>; physio; {6|12} weeks. <cpt>.",
        "Dr <dr_last>, Orthopaedics, <hosp>",
    ],
    "ems": [
        "Incident <date> <time>  Unit {12|37|M4|A61}  Crew: <nurse>, <nurse>", "Pt: <pt>  <pt_age> {M|F}",
        "Address: <street>, <town>", "CC: <dx>. <measure>, <measure>, <measure>.",
        "Tx: <drug> <qty>; <device>. <score>.", "Transported to <hosp> {ED|Resus}, <ward>, handover to <nurse> <time>.",
    ],
    "genetics": [
        "Re: <pt>  DOB <dob>  <id>", "Dear Dr <dr_last>,",
        "Thank you for referring <pt> with {a family history of|} <dx>.",
        "Result: heterozygous <gene> <variant>, classified {pathogenic|likely pathogenic|VUS} (<stage>).",
        "{Her|His} <rel_rel> <rel> was tested at <hosp_other>: <gene> <variant>.",
        "<icd_dx>. <measure>. Cascade testing offered; <epo> criteria met.",
        "Yours sincerely,\n<dr_full>\nConsultant Clinical Geneticist, <hosp>",
    ],
    "psychiatry": [
        "<pt>, <pt_age> years, referred by Dr <dr_last> on <date>.", "Presenting: <dx>. <score>, <score>.",
        "History: <icd_dx>. Previously on <drug> and <brand>.",
        "Lives with <rel_rel> <rel> in <town>; works at <employer>.",
        "MSE: {euthymic|low mood}, <measure>. Risk: {low|moderate}.",
        "Plan: <drug> <qty>; review <date> with <dr_full>.",
    ],
    "allergy": [
        "Re: <pt>  <id>", "<dx>; <icd_dx>.", "Skin prick: <drug> {3|5|8} mm, <brand> negative. <measure>.",
        "Nasendoscopy: <site> {normal|oedematous}, <epo>. <stage>.", "Plan: <brand> and <drug>; <cpt>.",
        "Dr <dr_last>, ENT, <hosp>",
    ],
    "prior_auth": [
        "Member: <pt>  DOB <dob>  Member ID <id>", "Requesting provider: <dr_full>, <hosp>, tel <phone>",
        "Diagnosis: <icd_dx>; <icd_dx>.", "Requested: <brand> (<drug>) <qty>, <cpt>.",
        "<pt> has <dx> (<stage>) and failed <drug> and <brand>.", "<measure>; <measure>. <stage>.",
        "Please contact <dr_last> at <phone>. Date: <date>",
    ],
    "portal": [
        "From: <pt_full>  Sent: <date> <time>",
        "Hi Dr <dr_last>, my <measure> was {high|low} and I ran out of <brand>.",
        "Should I keep taking <drug> {1-2} tabs? My <rel_rel> <rel> says call.",
        "Reply from <nurse>, RN: Your <dx> follow-up is <date>. Take <brand> <qty>.",
    ],
    "handover": [
        "<ward>: <pt> {72|81|64}F, <dx>. <stage>.", "<measure>, <measure>. On <drug>; <device>.",
        "Action: bloods at <time>, <abbr>, review by <dr_last>. <ward> bed {1-30}: <dx>.",
        "<ward>: <cword>, <drug> <qty>; family (<rel>) aware. <score>.",
    ],
    "referral": [
        "Dear Dr <dr_last>,", "Re: <pt>, DOB <dob>, <id>, <street>, <town> <postcode>",
        "I would be grateful if you could see this patient with <dx> (<icd>).",
        "PMH: <dx>; <dx>; <epo2>. Meds: <brand>, <drug> <qty>.", "<measure>. <stage>. Allergies: <brand>, <drug>.",
        "{She|He} is {72|58|83|45} and lives in <town> with {her|his} <rel_rel>. <icdword>, <icdword> and <cword>.",
        "Kind regards,\n<dr_full>\n<hosp>, tel <phone>",
    ],
}

#: Lines of nursing and ward contexts mixed into every kind of note (1 to 2 lines in 6 notes of
#: 10, 30 % of them in lower and 25 % in upper case): a model trained on ICU nursing notes and
#: these notes must still see that a place after ``transferred from``, ``lives in`` or ``to ... in am``, a
#: telegraphic month/day (``<md>``: ``8/9``) and a relative's first name are PHI wherever the
#: note comes from. ``<place>`` is a local institution (``Ashford Rehab``), ``<town>`` a town.
NURSING_LINES = [
    "Transferred from <hosp_other> on <md> with <dx>.", "transferred from <hosp_lc> <md> for <action> of <site>",
    "Pt transferred from <place> {on <md>|<md>|today}; <drug> continued.", "Came from <place> <md>, <dx>.",
    "Lives in <town> with {her|his} <rel_rel> <rel>.", "lives in <town>, <rel_rel> <rel> is hcp",
    "Pt lives in <town>{| alone| with <rel_rel>}; <rel_rel> <rel> {visits daily|aware|to call}.",
    "Plan: to <place> in am{| if stable}.", "to <place> in am, <drug> {1-4} mg {bid|daily|prn}",
    "d/c to <place> {when bed available|tomorrow|in am}; <rel_rel> <rel> aware.",
    "Dispo: {to|back to} <place>{| in am| on <md>}.", "screened by <place> <md>, bed offered",
    "{echo|ct|mri|cxr|us} <md>{:| -| } <measure>", "{bc|ucx|blood cx|wound cx} <md> {pending|neg|ngtd}",
    "s/p <action> of <site> <md>{|, <suture>}", "{started|restarted|stopped} <drug> <md>", "<md> <dx>, <epo> {pos|neg}",
    "<rel_rel> <rel> in to visit, updated on plan.", "d/w {pt's |}<rel_rel> <rel> at bedside; <dx> explained.",
    "{dtr|son|wife|husband}, <rel>, called {x2|for update|this am}.",
    "<rel> ({pt's |}<rel_rel>) {aware|updated|visited}",
    "seen by <dr_last> <md>, <drug> started.", "per <dr_last>, <place> {aware|accepted pt|records requested}",
]

#: Letterheads written above the heading of 4 notes of 10 (a hospital, service or practice with
#: its street, town and postcode, as UK, Irish and Commonwealth letters and US office notes open):
#: the shipped model finds such places in a letter's first line and the notes above lacked them
#: (docs/synth.md "Routed model, second round"). ``<unit>`` is a service of a hospital
#: (HOSPITAL), ``<clinic>`` a practice or private clinic (ORGANIZATION).
LETTERHEADS = [
    "<unit>, <hosp>, <street>, <town> <postcode>{   Tel: <phone>|  Tel <phone>|}",
    "<hosp>, <street>, <town> <postcode>", "<hosp>\n<street>\n<town>\n<postcode>",
    "<unit>\n<hosp>, <street>, <town> <postcode>",
    "<clinic>{   Office Visit|   Clinic Visit|   Consultation|  New Patient Visit|}   <date>",
    "<clinic>, <street>, <town> <postcode>{   Tel: <phone>|}", "<clinic>\n<street>, <town>",
    "Our ref: <id>{   Date: <date>|}", "Dr <dr_last>, <clinic>",
]
#: A relative under the patient's name, as Indian and other South Asian records write it
#: (son, daughter or wife of; a name, initial and surname).
RELATIVE_LINES = ["{S/o|D/o|W/o|C/o}: <rel_full>", "{S/O|D/O|W/O} <rel_full>", "Father's name: <rel_full>",
                  "Husband: <rel_full>", "NOK: <rel_full> ({son|daughter|wife|husband|father})"]

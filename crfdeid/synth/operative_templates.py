"""Frames of the ``operative`` notes (:mod:`crfdeid.synth.operative`), as data.

Written for crfdeid from general knowledge of how dictated operative reports, UK operation notes,
endoscopy reports and consult notes are laid out (headings, field labels, connecting words); every
clinical word comes through a vocabulary slot from a sourced list
(:data:`crfdeid.synth.operative.OP_VOCAB` and :data:`crfdeid.synth.specialty_vocab.VOCAB`):
``<part>`` an ICD-10-PCS body part, ``<pdev>`` a PCS device, ``<appr>`` a PCS approach,
``<instr>`` an instrument, ``<pos>`` a position, ``<proc>`` a named operation, ``<aepo>`` an
anatomical eponym, ``<suture>`` a suture or stapler, ``<brand>``/``<drug>`` a drug. PHI slots are
those of :data:`crfdeid.synth.world.SLOTS` and :data:`crfdeid.synth.specialty.EXTRA_SLOTS`, plus
``<dr2>``/``<dr3>`` (the second and third doctor in full) and ``<mrn>`` (the record number
without its label). ``{a|b}`` and ``{3-9}`` are drawn by
:func:`crfdeid.synth.phrases.fill` (never PHI).
"""

from __future__ import annotations

#: Headings by note kind.
HEADINGS = {
    "us_op": ["OPERATIVE REPORT", "OPERATIVE NOTE", "PROCEDURE NOTE", "REPORT OF OPERATION", "OPERATIVE PROCEDURE",
              "Operative Report", "BRIEF OPERATIVE NOTE"],
    "uk_op": ["Operation Note", "OPERATION NOTE", "Op Note", "Theatre Record", "Operation note"],
    "endoscopy": ["COLONOSCOPY REPORT", "EGD REPORT", "ENDOSCOPY REPORT", "CYSTOSCOPY", "ERCP REPORT",
                  "BRONCHOSCOPY REPORT", "Endoscopy Report"],
    "consult": ["CONSULTATION", "SURGICAL CONSULTATION", "UROLOGY CONSULTATION", "ENT CONSULTATION",
                "ORTHOPEDIC CONSULTATION", "GYNECOLOGY CONSULTATION", "Consultation Note", "HISTORY AND PHYSICAL"],
}

#: The US header block, one field a line (a random subset, in this order).
US_HEADER = [
    "{PATIENT NAME|PATIENT|NAME|Patient}: <pt>", "{MEDICAL RECORD NUMBER|MRN|MR#|MEDICAL RECORD #}: <mrn>",
    "{DATE OF BIRTH|DOB}: <dob>", "{DATE OF OPERATION|DATE OF PROCEDURE|DATE OF SURGERY|DATE}: <date>",
    "{SURGEON|ATTENDING SURGEON|SURGEON(S)}: <dr_full>, {MD|M.D.|DO|MD, FACS}",
    "{ASSISTANT|ASSISTANT SURGEON|FIRST ASSISTANT}: {<dr2>, MD|<nurse>, PA-C|<nurse>, RNFA|<dr2>, CST|None}",
    "{ANESTHESIOLOGIST|ANESTHESIA PROVIDER}: <dr3>, {MD|CRNA}", "{REFERRING PHYSICIAN|PCP}: Dr. <dr_last>",
]
#: The US procedure fields (a random subset, in this order).
US_FIELDS = [
    "PREOPERATIVE DIAGNOSIS: <dx>.", "POSTOPERATIVE DIAGNOSIS: {Same.|Same as above.|<dx>.}",
    "{PROCEDURE PERFORMED|PROCEDURE|OPERATION PERFORMED|PROCEDURES}: <Proc>{.| with <proc>.| (<cpt>).}",
    "{ANESTHESIA|TYPE OF ANESTHESIA}: {General endotracheal|General with LMA|Spinal|MAC with local|Epidural}.",
    "{ESTIMATED BLOOD LOSS|EBL}: {Minimal|Less than 10 mL|5 mL|20 mL|50 mL|100 mL|150 mL|250 mL|400 mL}.",
    "{FLUIDS|IV FLUIDS}: {500|800|1200|1500|2000} mL {crystalloid|lactated Ringer's}.",
    "URINE OUTPUT: {50|100|250|400} mL.", "SPECIMENS: {<Part>|<part> and <part>|None} {to pathology|}.",
    "DRAINS: {None|<instr>|10 French <instr>|15 French <instr>|19 French <instr>}.",
    "COMPLICATIONS: {None|None apparent|No immediate complications}.",
    "FINDINGS: <dx>; <part> {normal|inflamed|adherent|thickened}. <aepo> {identified|clear}.",
    "IMPLANTS: {<pdev>|<instr>|None}.", "CONDITION: {Stable|Good} to {PACU|recovery room|ICU}.",
]
#: The indications paragraph (sentences, one to three drawn in order).
INDICATIONS = [
    "The patient is a <pt_age>-year-old {male|female|gentleman|woman} with {a history of |}<dx>.",
    "{She|He} {was seen in clinic by Dr. <dr_last>|was referred by Dr. <dr_last>|presented to <hosp>} with <dx>.",
    "{She|He} was transferred from <hosp_other> {on <date>|for definitive management|}.",
    "{She|He} lives in <town> with {her|his} <rel_rel>, <rel>.",
    "{Imaging|CT scan|Ultrasound} showed <dx> of the <part>. {She|He} failed {conservative management|<brand> and "
    "<drug>}.",
    "The risks, benefits and alternatives of <proc>, including bleeding, infection and injury to the <part>, were "
    "discussed, and informed consent was obtained.",
]
#: The opening of a DESCRIPTION OF PROCEDURE narrative (one to three drawn in order).
OPENING = [
    "The patient was {brought|taken} to the operating room and placed in the <pos>.",
    "After {adequate general endotracheal anesthesia|induction of general anesthesia|spinal anesthesia} was {obtained|"
    "established}, {a <instr> was placed|<instr> were placed|the patient was positioned in <pos>}.",
    "{<drug>|<brand>} {1|2} g IV was given {before incision|within 60 minutes of incision}.",
    "The {abdomen|right lower extremity|left lower extremity|perineum|neck|chest} was prepped with <instr> and "
    "draped in the usual sterile fashion.", "A time-out was performed confirming the patient, procedure and site.",
]
#: Narrative sentences by operative specialty (three to ten drawn, in order).
NARRATIVE = {
    "general": [
        "A {vertical|transverse|infraumbilical|periumbilical} incision was made and a <instr> was placed by open "
        "technique.", "Pneumoperitoneum was established with a <instr> to {12|15} mmHg.",
        "{Two|Three|Four} additional {5 mm|12 mm} <instr>s were placed under direct vision.",
        "The <part> was {identified|mobilized|retracted cephalad} and <aepo> was exposed with a <instr>.",
        "The <part> was divided with an <instr> and the {staple line|mesentery} reinforced with <suture>.",
        "A {Roux-en-Y|Roux|side-to-side} {limb|anastomosis} was created {40|75|100|150} cm distal to the <aepo>.",
        "The <part> and <part> were {clipped|ligated} with <suture> and divided.",
        "The {common|enterotomy} defect was closed with running <suture>.",
        "{Hemostasis|Meticulous hemostasis} was obtained with <instr>.",
        "The {specimen|<part>} was placed in an <instr> and removed through the {umbilical|12 mm} port site.",
        "The fascia was closed with <suture> and the skin with <suture>; <suture> was applied.",
        "<aepo> was inspected and {no hernia|no bleeding|no leak} was seen.",
    ],
    "urology": [
        "A {21|22|17} French <instr> was passed per urethra into the <part>.",
        "The <part> was inspected; both ureteral orifices were {identified|in normal position}.",
        "A <instr> was advanced into the <part> under fluoroscopy via <appr>.",
        "The stone was fragmented with the <instr> and the fragments removed with a <instr>.",
        "A {6|7} French x {24|26} cm <instr> was placed with a curl in the <part> and the bladder.",
        "The <part> was resected with the <instr> down to {muscle|the capsule}; chips were evacuated.",
        "A {16|18|22} French <instr> was left to {gravity|continuous irrigation}.",
        "The <part> was closed with <suture> and the <part> with <suture>.",
    ],
    "ortho": [
        "A <instr> was applied to the {thigh|upper arm} and inflated to {250|300} mmHg.",
        "Standard {anterolateral|anteromedial|posterior} portals were made and the <instr> introduced.",
        "Diagnostic arthroscopy showed <dx> of the <part>; the <part> was intact.",
        "The <part> was debrided with a <instr> to a stable rim.", "A <pdev> was placed in the <part> via <appr>.",
        "The fracture was reduced under <instr> guidance and fixed with a <pdev>.",
        "The wound was irrigated and the <part> closed with <suture>; the skin with <suture>.",
        "{20|30} mL of {0.25%|0.5%} <brand> was injected into the {joint|portals}.",
    ],
    "gyn": [
        "A Pfannenstiel incision was made and carried down through Camper's and <aepo> to the fascia.",
        "The <part> was entered sharply and a <instr> was placed.",
        "The {round|infundibulopelvic|uterosacral|cardinal} ligaments were clamped with <instr>s, divided and ligated "
        "with <suture>.", "The bladder flap was developed with <instr>.",
        "The <part> was {skeletonized|clamped|suture ligated} and the <part> removed.",
        "The vaginal cuff was closed with {figure-of-eight|running} <suture>.",
        "Pelvic washings were taken and the <part> inspected; <aepo> was clear.",
    ],
    "ent": [
        "The nose was decongested with {oxymetazoline|Afrin} pledgets and a <instr> introduced.",
        "The <part> was {infractured|medialized|resected} and the <part> opened with a <instr>.",
        "Polyps were removed from the <part> with the microdebrider; <aepo> was identified.",
        "The <part> was dissected in the subcapsular plane with <instr> and hemostasis obtained with <instr>.",
        "A {Merocel|Doyle} splint was placed and secured with <suture>.",
    ],
}
#: The close of a narrative (two to three drawn in order).
CLOSING = [
    "Sponge, needle and instrument counts were correct {x2|times two|at the end of the case}.",
    "The patient tolerated the procedure well and was {taken|transferred} to the {PACU|recovery room} in {stable|"
    "good} condition.", "Dr. <dr_last> was present and scrubbed for the {entire procedure|key portions of the case}.",
    "{There were no complications.|Estimated blood loss was minimal.}",
    "The findings were discussed with the patient's <rel_rel>, <rel>, {in the waiting room|by telephone}.",
    "{She|He} will be discharged to <place> {when stable|on postoperative day 1|in am}.",
]
#: Lines after the narrative (a random subset, in this order).
US_FOOTER = ["<dr_full>, {MD|M.D.|DO}", "<hosp>", "D: <date>{  T: <date>|}", "cc: {Dr. <dr_last>|<dr2>, MD}"]

#: UK operation note lines (a random subset, in this order); ``<steps>`` is the narrative, one step a line.
UK_LINES = [
    "{Date|Date of operation}: <date>", "Name: <pt>   <id>", "Surgeon: {Mr|Miss|Ms|Dr} <dr_last>",
    "Assistant: {Dr|Mr|Miss} <dr2>{ (ST3)| (ST6)| (FY1)| (FY2)| (CT1)|}", "Anaesthetist: Dr <dr3>",
    "Anaesthetic: {GA|GA + local|Spinal|GA + <brand> block|Regional}", "Procedure: <Proc>{| (<appr>)}",
    "Indication: <dx>", "Incision: {midline laparotomy|Pfannenstiel|Lanz|Kocher|Rooftop|infraumbilical}",
    "Findings: <dx>; <part> {normal|inflamed|adherent}. <aepo> {clear|identified}.", "<steps>",
    "Closure: {fascia <suture>, skin <suture>|<suture> to the <part>, <suture> to skin}.",
    "EBL: {minimal|less than 50 mL|100 mL|200 mL|300 mL}", "Specimens: {<Part> to histology|none}",
    "Post-op: {<drug> 1 mg|<drug> 2 mg|<drug> 4 mg|regular <drug>} and <brand>; {TEDs|VTE prophylaxis with <drug>}; "
    "{home today|review on "
    "ward round|drain out day 1}.", "Signed: <dr_full>{, <hosp>|}",
]
#: Endoscopy report lines (a random subset, in this order).
ENDO_LINES = [
    "{Patient|Name}: <pt>   {MRN: <mrn>|DOB: <dob>|<id>}   {Procedure date|Date}: <date>",
    "{Endoscopist|Performed by}: <dr_full>, MD   {Referring|Referred by}: {Dr. <dr_last>|<dr2>, MD}",
    "{INDICATION|Indications}: <dx>.", "{SEDATION|Sedation}: {<drug>|Monitored anesthesia care with <drug>}.",
    "{INSTRUMENT|Scope}: <instr>.", "The patient was placed in the <pos>. The <instr> was advanced via <appr> to the "
    "<part>, identified by the <part> and <aepo>.", "{FINDINGS|Findings}: <part>: <dx>. <part>: {normal|<dx>}.",
    "A {4|6|8|12} mm {sessile|pedunculated} polyp in the <part> was removed with a <instr>; <instr> placed.",
    "{IMPRESSION|Impression}: <dx>.", "{RECOMMENDATIONS|Plan}: {<brand>|<drug>} {daily|bid}; repeat in {3|5|10} years; "
    "results to Dr. <dr_last>.",
]
#: Consult note lines (a random subset, in this order).
CONSULT_LINES = [
    "{PATIENT|Patient}: <pt>   {DATE OF CONSULTATION|DATE OF SERVICE|Date}: <date>",
    "{REQUESTING PHYSICIAN|REFERRING PHYSICIAN|Requested by}: <dr2>, {MD|DO}",
    "REASON FOR CONSULTATION: <dx>.",
    "HISTORY OF PRESENT ILLNESS: {This|The patient} is a <pt_age>-year-old {male|female} with <dx>. {She|He} has tried "
    "<brand>, <brand> and <drug> without relief. <measure>.",
    "PAST MEDICAL HISTORY: <dx>; <dx>; <dx>.", "PAST SURGICAL HISTORY: <Proc>; <proc>.",
    "MEDICATIONS: <brand> {10|20|40|180|500} mg daily, <drug> {1|2} tabs bid, <brand> {2|4} sprays nightly.",
    "ALLERGIES: {NKDA|<DRUG>|<BRAND>, <drug>|No known drug allergies}.",
    "SOCIAL HISTORY: {Lives|She lives|He lives} in <town> with {her|his} <rel_rel>. {Never smoker|Former smoker|Denies "
    "alcohol}.", "FAMILY HISTORY: <dx> in {mother|father|a sister}.",
    "PHYSICAL EXAMINATION: <measure>, <measure>. {Abdomen|Nose|Knee|Neck}: <part> {tender|normal|swollen}; <aepo> "
    "{intact|normal}.", "IMPRESSION: <dx>. <stage>.",
    "PLAN: <Proc> via <appr>; {<brand>|<drug>} in the meantime. Follow up with Dr. <dr_last> in {2|4|6} weeks.",
    "Thank you, Dr. <dr_last>, for {this consultation|allowing us to participate in the care of this patient}.",
    "<dr_full>, {MD|DO}{, <hosp>|}",
]

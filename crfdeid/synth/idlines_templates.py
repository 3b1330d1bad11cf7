"""Lines, label words and layouts of :mod:`crfdeid.synth.idlines`, as data.

Written for crfdeid from general knowledge of how notes of many countries name a patient's numbers,
employers, insurers, schools, suppliers and services (no line, label or name from a note). Label
words of national numbers are not here: they are the python-stdnum catalogue's
(``crfdeid/_data/id_schemes.tsv``). In a layout ``A`` is a capital letter and ``#`` a digit;
``{a|b}`` and ``{3-9}`` are drawn by :func:`crfdeid.synth.phrases.fill`. Slots: ``<nid>`` a national
number with its label, ``<hp>``, ``<mrn>``, ``<lic>``, ``<dev>``, ``<ref>`` numbers of a kind below,
``<employer>``, ``<insurer>``, ``<school>``, ``<service>``, ``<club>`` organisations, ``<addr>`` a
street, postcode and town of the organisation's country, ``<otown>`` a town of it, ``<contact>`` phone and
pager numbers after their labels on the same line (:func:`crfdeid.synth.idlabels.contact`); the others are
those of the ``specialty`` style (``<drug>``, ``<brand>``, ``<measure>``, ``<icd_dx>``, ``<date>``...;
never PHI where they are clinical words).
"""

from __future__ import annotations

#: Subtype -> (layouts, label words) of the numbers that are no national scheme's.
NUMBERS = {
    "HEALTHPLAN": (["AA ## #### ###", "AAA ########", "AA## #### ###", "AAA########", "AAA###-##-####-##",
                    "A#A#-#####", "AAA#### #### ##", "AAA-########", "##########A", "AA-AA-#######", "A## ### ###",
                    "###-######-##", "AAAA-AA-#######", "AA-#######"],
                   ["member", "member no.", "policy", "policy no.", "card no.", "scheme no.", "membership no.",
                    "beneficiary no.", "subscriber ID", "ID", "no.", "cover no.", "plan ID", "group", "afiliado",
                    "No. de afiliado", "Versichertennr.", "n. tessera"]),
    "MEDICALRECORD": (["AA #### ###", "AA#### ###", "##-######", "AAA-AA-#######", "AAA-#######", "A######",
                       "AA/##/######", "AA######", "###-##-##"],
                      ["Hosp no", "Hospital no.", "Folder no.", "File no.", "HN", "Chart", "Clinic no.", "Case no.",
                       "Unit no.", "Patient ID", "PID", "Reg. no.", "Record no.", "UR", "IP no."]),
    "LICENSE": (["AAA/A/#####", "AAAA/A-#####", "AA-A-#########", "#########", "AA.#####", "AAA/AA/#####",
                 "A######", "AA-######"],
                ["Reg. No.", "Registration no.", "Licence", "License #", "Council no.", "Medical licence",
                 "Practising no.", "Prescriber no.", "Provider no.", "CDL", "Driver licence", "Permit no.", "NPI",
                 "GMC no.", "CRM", "No. colegiado", "Cedula profesional", "AHPRA", "NMC PIN", "MCI Reg."]),
    "DEVICE": (["AAA######A", "AAAA####", "AA##-####A", "AAA####-####-###", "AAA-AAA-##", "A#####",
                "AAAA-##-#####-###", "AA######", "AAA-AA-#A-####"],
               ["lot", "Lot", "batch", "SN", "S/N", "serial", "Serial no.", "device ID", "asset tag", "UDI",
                "model/serial", "workstation", "tablet"]),
    "IDNUM": (["AAA-20##-####", "AA-20##-##-#####", "AAA/AAA/20##/####", "AA-####-AA", "AAA-AA-##-######",
               "##-#######", "AAA-##-######"],
              ["Case ID", "Incident", "Event no.", "Ref.", "Reference", "Claim no.", "Certificate no.",
               "Authorisation no.", "Prior auth #", "Referral ID", "Register no.", "Receipt", "Voucher no.",
               "Provision no.", "Form no.", "Sample ID", "Ticket"]),
}

#: Organisation kind -> name forms: ``$h`` a head (a surname, a town or a name word of the country),
#: ``$t`` a town, ``$l`` a surname, ``$s`` the country's legal suffix, ``$f`` a firm of the country.
ORGS = {
    "employer": ["$f", "$f", "$h {Freight Lines|Logistics|Precision Parts|Textiles|Foods|Construction|"
                 "Engineering Works|Mining|Timber Works|Steel Works|Bakery|Dairy Cooperative|Grain Cooperative|"
                 "Transport|Motors|Auto Body|Printing|Plastics|Pharmaceuticals|Electronics|Shipping|Fisheries|"
                 "Farms|Credit Union|Holdings|Energy|Water Board|Audit|Consulting|Software|Cleaning Services|"
                 "Security Services|Silk Weaving|Cotton Mills|Ceramics|Brewery|Packaging}{| $s}",
                 "$h {Freight|Foods|Textiles|Motors|Engineering|Logistics|Trading} $s",
                 "$t {Borough|District|City|County|Municipal} Council", "$h {Primary|Secondary|High} School"],
    "insurer": ["$h {Health Plan|Health Insurance|Medical Scheme|Health Scheme|Health Fund|Assurance|Mutual|"
                "Care Plan|Senior Advantage|Health Maintenance|Insurance Society|Health Cooperative|Medical Aid|"
                "Health Partners|Benefit Fund|Health Alliance}",
                "{Krankenkasse|BKK|Mutuelle|Caja de Salud|Cassa Mutua|Zorgverzekeraar|Kasa Chorych} $h",
                "$h {BKK|Krankenkasse|Mutuelle|Seguros|Salud}",
                "$h {Workers|Teachers|Farmers|Miners} Health Insurance"],
    "school": ["$h {Primary School|High School|Secondary School|Academy|College|Elementary|Middle School|"
               "Grammar School|Montessori|Kindergarten|Nursery|Day Care}",
               "{Escuela Primaria|Colegio|Scuola Primaria|Ecole|Grundschule|Basisschool|Szkola Podstawowa} $h",
               "$h {koulu|skola|skole|iskola|okul}", "St $l's {School|College|Primary}"],
    "service": ["$h {Pharmacy|Chemist|Medical Supply|Respiratory Supply|Home Medical Equipment|Equipment Loans|"
                "Diagnostic Laboratory|Labs|Pathology Services|Imaging Centre|Dental Diagnostics|Physiotherapy|"
                "Home Care|Home Health|Visiting Nurses|Nurse Line|Ambulance Service|Air Ambulance|Patient Transport|"
                "Funeral Home|Family Funerals|Hospice|Care Services|Carers Service|Family Services|Recovery Centre|"
                "Family House|Family Suites|Guest House|Lodge|Assisted Living|Care Home|Respite Care|Interpreters}",
                "{Farmacia|Apotheke|Pharmacie|Apteka|Laboratorio|Fisioterapia|Sozialstation|Pflegedienst|"
                "Thuiszorg|Servicios Sociales|Centro de Salud|Clinique} $h", "$h {Pharmacy|Chemist} #{10-9999}",
                "$f"],
    "club": ["$h {Football Club|Rugby Club|Sports Club|Cricket Club|Bowls Club|Choir|Brass Band|Association|"
             "Welfare Association|Workers Union|Cooperative|Volunteers|Lions Club|Rotary Club|Scouts|Church|"
             "Mosque|Temple|Parish|Congregation|Community Centre|Senior Centre|Tenants Association}",
             "{Club|Asociacion|Verein|Association|Stowarzyszenie} $h"],
}

#: Lines written in a note, 1 to 3 a note; plain words beside the PHI slots (look-alikes: drugs, brands,
#: devices, measures, codes, eponyms).
LINES = [
    "<nid>", "<nid>", "<nid>   <hp_line>", "Patient: <pt>   <nid>", "<pt>, <nid>, DOB <dob>",
    "{Identity document|ID|Identification|Documents seen}: <nid>{; <nid>|}",
    "{Insurance|Insurer|Health insurance|Medical aid|Health fund|Payer|Cover|Secondary|Primary insurance|"
    "Scheme}: <insurer>{, <hp>|, <hp>| <hp>|}",
    "<hp_line>", "{Employer|Occupation}: <job> at <employer>{, <otown>|}",
    "Occupation: <job>; works for <employer>; {sick note|fit note|work certificate} for {<employer>|the employer} "
    "for {3|5|7|10|14} days.",
    "{Referred by|Occupational health referral from|Letter to} <employer>{, <addr>|}.",
    "School: <school>", "School: <school>, {year|grade|class} {1-12}",
    "Attends <school>{ in <otown>|}; {teacher|school nurse} aware.",
    "{Pharmacy|Dispensing pharmacy|Nominated pharmacy}: <service>, <addr>{|   Tel <phone>|  Fax <phone>}",
    "{DME|Equipment|Oxygen|Supplies} {via|from|ordered from} <service>{, fax <phone>|}.",
    "{Bloods|Labs|Results|Specimen} {at|from|sent to} <service> (<date>): <measure>, <measure>.",
    "{Home care|Community nursing|Carers|Transport|Physio} {by|with|through} <service> {twice daily|weekly|"
    "on discharge|three times a week}.",
    "{Member of|Plays for|Volunteers with|Sings in} <club>{, <otown>|}; <measure>.",
    "<device_word> <brand>, <dev_line>", "<drug> {0.5|1|5|10} mL {given|IM|SC}, <dev_line>",
    "{Implant|Mesh|Lens|Stent|Graft}: <brand> {20 x 25 cm|3.0 x 18 mm|21.0 D|5.5 mL}, <dev_line>",
    "<lic_line>", "Signed: Dr <dr_last>, <lic_line>", "<ref_line>   <date>", "<ref_line>; <icd_dx>.",
    "<mrn_line>   <nid>", "{Address|Home address|Lives at}: <addr>",
    "{Address|Home address|Lives at|Home|Contact}: <addr><contact>", "<service>, <addr><contact>",
    "<employer>, <addr><contact>", "<addr><contact>",
    "{Provider|Physician|Attending|Surgeon|Signed}: <dr_full>, {MD|MBBS|DO|FRCS|RN|NP}   <lic_line>",
    "{Re|Patient|Name}: <pt>, <nid>{, <addr>|}",
    "{Provider|Supplier|Service|Contact|Agency}: <service>, <addr>{,|   |  } {tel|Tel|Tel.|Phone|Fax|Mobile|Reception|"
    "Switchboard|Enquiries|Bookings} <phone>",
]

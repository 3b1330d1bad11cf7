"""Made-up notes of other countries and styles: their reader and the legacy count of misses.

The notes ship beside this module, written by hand for crfdeid (no real person, place of care
or identifier), one note after a line ``=== ID ===``; lines starting with ``#`` before the
first note are a header. Two marks:

* ``[[SUBTYPE|text]]``: PHI of an i2b2 2014 subtype (``[[DOCTOR|Ann Lee]]``);
* ``{{text}}`` or ``{{kind|text}}``: a phrase that must survive de-identification as written
  (a score with its value, a heading, a drug with its strength, an age under 90...); ``kind``
  is one of :data:`KINDS`.

Marks do not nest. Thirty-five sets (:data:`NOTE_SETS`): ``legacy`` (fifteen notes of fifteen
styles, issue 34: PHI marks only), ``dev`` (US and UK styles, for deciding on rules),
``dev2`` (other hands: GP letters, care homes, Irish, Australian, Indian, Canadian, New
Zealand and Malaysian notes, lower case; written before the rules that read it, scored at a
round's start and end, not tuned on), ``dev3`` (Scottish, Welsh, Singaporean, Kenyan,
Nigerian, Filipino, US rural and New Zealand hands, written before the places round's rules),
``dev4`` (Ghanaian, Jamaican, Pakistani, Hong Kong, South African, remote Australian, English
pharmacy and lower-case Puerto Rican notes, written after that round's rules and scored once at
its end: for the next round's start; the streets round tuned on it), ``dev5`` (addresses in
Japanese, German, French, Brazilian, Mexican, Nigerian, Ghanaian, Indian, Philippine, Kenyan,
Emirati, rural Australian and lower-case UK forms: the streets round's), ``dev6`` (clinical
language of other specialties: operative, urology, orthopaedic, pathology, radiology, cardiology,
antenatal, EMS, genetics, psychiatry, ENT and prior-authorisation notes and Swedish, Korean and
Brazilian conventions, written before the specialties round's changes), ``dev7`` (scores, grades,
stages, classes, eponyms, headings and codes that surrogates falsify, in UK, US, Australian,
Singaporean, Scottish, Dutch, South African, Spanish and Indian notes: the scores round's), ``dev8``
(eight dictated operative, endoscopy, urology and ENT consult notes in the US transcription layout
and a UK operation note, rich in surgical anatomy, instruments, sutures and drug brands: written
before the operative-language candidate of 2026-11-26), ``dev9`` (six dictated notes of non-operative
specialties: urology, gastroenterology, cardiology, neurology, ophthalmology and dermatology, written
before the dictated-notes candidate of 2026-11-26), ``short``
(thirty notes of three to ten lines, twenty of other specialties and ten ICU nursing snippets: the
router's judging set, written before the short-notes router change) and ``check``
(Australian, Irish, Indian, New Zealand, Canadian and South African conventions, scored once per change set)
``check2`` (other specialties and countries, written before the specialties round's changes;
never tuned on: scored once per change set by the integrator), ``check3`` (fourteen notes of
yet other specialties, countries and hands, two of them ICU nursing notes, written before the
round after the specialties round; never tuned on: scored once per change set by the integrator),
``check4`` (sixteen notes of specialties, countries and hands none of the others has, a US
note with ambiguous dates among day-first ones, a lower-case portal message and an all-caps ICU
nursing note; written before the changes of the session of 2026-11-25 evening; never tuned on),
``check5`` (eighteen notes: telegraphic US, UK and Australian ICU and ward nursing notes rich
in places, relatives and short dates, four short operation notes, and Irish, Ontario, Nigerian,
New Zealand, Philippine, Kenyan, US, German and Japanese notes of other specialties; written
before the changes of the session of 2026-11-25 night; never tuned on), ``check6`` (sixteen
notes: six operation and procedure notes in transcription or UK layout, five clinic letters of
Scottish, US, Australian, Indian and Dutch hands and five telegraphic US and English ICU and ward
nursing notes; written 2026-11-26, before the change it judges; never tuned on), ``check7``
(eighteen notes: eight US operation and procedure notes in transcription layout, six consults,
letters and reports of South African, Quebec, US and Norwegian hands and four telegraphic New
Zealand, South African, US and Manitoba nursing notes, with surrogate traps in clinical roles;
written 2026-11-26 morning, before the changes it judges; never tuned on), ``check8``
(eighteen notes: six English, US, Australian, Ontario, Irish and Welsh operation and procedure
notes, six oncology, NICU, CAMHS, Pakistani, Malaysian and Mexican notes, three lower-case,
all-caps and SBAR nursing notes and three short documents, with surrogate traps in clinical roles;
written 2026-11-26, before the next round's changes; never tuned on), ``check9`` (eighteen
notes: five dictated US urology, gastroenterology, ophthalmology, ENT and dermatology clinic
notes, a US cardiac catheterisation, an Australian ureteroscopy and a US incisional hernia repair,
South African, Nigerian, Philippine, German and New Zealand Pacific notes, British Columbia,
lower-case Irish and US nursing notes and two short documents; written 2026-11-26, for the round
after check8's; never tuned on), ``check10`` (eighteen notes: dictated allergy, polysomnography and
Japanese EEG reports, Italian, Czech, Finnish, Chilean, Greek, Thai, Turkish and Portuguese clinic
notes and letters, and a Mexican bariatric telehealth visit, a Nigerian anaesthesia record, an Irish
nursing-home transfer form, a New Zealand incident report, a Philippine laboratory report, a South
African discharge summary with medicine reconciliation and a lower-case US portal thread; written
2026-11-26 to judge the round after check9's; never tuned on), ``check11`` (eighteen notes of styles,
specialties and countries no other set has: a New Zealand keratoconus letter, a Dutch dermatopathology
report, a South African dialysis run sheet, a Polish NICU handover, a Mexican anaesthetic pre-assessment, a
Quebec hand-surgery operative note, an Emirati oncology MDT summary, a Scottish speech and language therapy
note, an Irish occupational health letter, a Singapore sexual-health note, an Indian dental referral, an
Australian palliative care plan, a US tele-triage call log, a British Columbia transplant clinic note, a
Nigerian cleft team note, a Philippine TB-DOTS card, a Danish device clinic check and a Belgian concussion
letter; written 2026-11-26 to judge the round after check10's; never tuned on), ``check12`` (eighteen notes
of other combinations of specialty, country and document: Japanese rheumatology, Finnish child psychiatry,
Welsh memory clinic and Ghanaian fracture clinic letters and summaries, a Turkish IVF note, a Norwegian
thrombolysis record, Argentinian Roux-en-Y, German vitreoretinal, Israeli catheterisation and Pakistani
fistula procedure notes, a Swiss anaesthesia record, an Austrian prostate MRI report, an Italian hepatology
MDT, a Portuguese maternity discharge, an Estonian triage record, a US wound care flow sheet, an Ontario
cardiac rehabilitation intake and a lower-case Vietnamese ward chart; written 2026-11-26 to judge the round
after check11's; never tuned on), ``check13`` (eighteen notes of yet other combinations: Irish audiology,
New Zealand sports medicine, Quebec chemotherapy consent, South African travel malaria, Indian renal transplant,
Nigerian cataract surgery, Philippine speech therapy, Mexican wound care, German polysomnography, lower-case Dutch
palliative home care, Polish anaesthetic pre-assessment, Israeli Mohs, Egyptian neonatal, Pakistani OPAT,
Australian mining fitness-for-work, Vietnamese maxillofacial, Chilean interpreter-mediated antenatal and an
all-caps US rural emergency note; written 2026-11-26 to judge the round after check12's; never tuned on), ``check14``
(eighteen notes of still other combinations: an Icelandic transfusion reaction report, a lower-case Lithuanian hand
therapy note, a Croatian teledermatology thread, a Northern Irish occupational asthma letter, a Romanian bariatric
MDT, an Alberta sexual-assault forensic examination, an all-caps Peruvian dialysis run sheet, a Sri Lankan paediatric
dental GA list, a lower-case Ecuadorian CPAP download, a Slovenian trial adverse-event form, a Chinese ESD report, a
Colombian coronary bypass note, a Tanzanian fistula repair, a lower-case Indonesian leprosy card, a Bulgarian
radiotherapy summary, a Latvian amputee clinic, an all-caps Trinidadian cardiac arrest record and a lower-case Fijian
rheumatic heart disease card; written 2026-11-26 to judge the round after check13's; never tuned on), ``check15``
(eighteen notes of yet other combinations: a Danish EVAR operative note, a Saudi uterine artery embolisation report,
an Egyptian hepatology letter, a New Zealand neonatal discharge summary, a Malaysian dermatopathology report, an
Argentinian cochlear implant mapping report, a Chilean paediatric polysomnography report, a lower-case Polish
haemodialysis run sheet, a Dutch DCD transplant coordinator note, a bilingual Quebec palliative family meeting, a
Nigerian sickle cell red cell exchange record, an all-caps Pakistani oral submucous fibrosis note, an Indian
medico-legal emergency record, an Irish pre-travel clinic note, a Japanese home-visit note, a Philippine seafarer
pre-employment medical, a lower-case Australian child-protection emergency note and an all-caps South African burns
ward round; written 2026-11-27 to judge the change set after 2026-11-27's; never tuned on), ``check16`` (eighteen
notes of still other combinations: a Uruguayan femoropopliteal bypass operative note, a Hungarian flexible cystoscopy
report, a Nova Scotia dermatology letter with a lesion map, a Kazakh neonatal cooling discharge summary, a Taiwanese
glaucoma clinic note, a Hong Kong TIPS report, a Qatari poison centre call record, a lower-case Bangladeshi severe
acute malnutrition chart, a Saskatchewan head and neck MDT minute, an all-caps Ethiopian trichiasis surgery outreach
record, a Dominican medication incident report, a Lebanese thalassaemia laboratory note, an Isle of Man coroner's
request and statement, a Maltese telephone triage script, a Ukrainian systemic sclerosis SOAP note, an Omani
orthognathic planning note, a lower-case Costa Rican liver transplant clinic note and a Nepali evacuation referral
fax; written 2026-11-27 to judge the change set after the one check15 judges; never tuned on), ``check17``
(eighteen notes of yet other combinations: an Irish carotid endarterectomy operation note, a New Zealand paediatric
growth clinic letter, a Philippine newborn diagnostic ABR report, an all-caps Nigerian anaesthetic pre-assessment form,
a lower-case Polish occupational therapy home visit, a Portuguese transfusion reaction report, an Israeli split-night
polysomnography, a Vietnamese TACE procedure log, a Korean melanoma dermatopathology report, an all-caps Greek
haemodiafiltration run sheet, a Spanish EBUS-TBNA report, a Brazilian nerve conduction report, a lower-case Swedish
retinopathy of prematurity screening record, a Ugandan Burkitt lymphoma chemotherapy chart, a New Brunswick ablation
report, a Slovak PET/CT report, a lower-case French deep brain stimulation programming note and a Norwegian
hyperbaric oxygen record; written 2026-11-27 to judge the change set after the one check16 judges; never tuned on),
``check18`` (eighteen notes of still other combinations: a Maltese coronary artery bypass operation note, a Chilean
bariatric follow-up, a Finnish hand therapy note, an Egyptian videofluoroscopic swallow study, an Estonian prosthetic
fitting record, an all-caps Pakistani neonatal transport record, a lower-case Czech pre-travel consultation, a Jamaican
forensic examination summary, a Ghanaian hospice admission, a Moroccan germline variant report, a Bangladeshi tumour
board minute, a Romanian radiotherapy planning note, an all-caps Croatian cataract surgery list, a lower-case Icelandic
podiatry review, a Slovenian ECT record, a lower-case Mauritian INR clinic review, a Cuban colposcopy report and a
Serbian pulmonary function report; written 2026-11-27 to judge the change set after the one check17 judges; never
tuned on), ``check19`` (eighteen notes of yet other combinations: an Irish third-molar operation note, a lower-case
New Zealand stomal therapy review, an all-caps South African death notification and cause-of-death certificate, an
Indian polysomnography report, a lower-case Nigerian palliative care handover, a bilingual Quebec medication
reconciliation, a Mexican PrEP follow-up, an all-caps Philippine dermatopathology report, a German kidney transplant
clinic letter, a Dutch anaesthetic preoperative screening, a Polish anti-VEGF retina clinic letter, a Japanese
haemodiafiltration run sheet, an Italian neonatal intensive care discharge letter, an all-caps Emirati occupational
health fitness-for-work assessment, a lower-case Kenyan audiology report, an Australian speech pathology stuttering
report, a Cypriot lung cancer MDT outcome and a Belgian oral food challenge record; written 2026-11-27 to judge the
change set after the one check18 judges; never tuned on), ``check20`` (eighteen notes, docs/experiments.md) and
``forms9`` (twenty-four
notes for the rule ledger, docs/rules.md: twelve US ICU and ward nursing and progress notes dense in
places, and twelve letters, forms and referrals of eleven countries carrying the rare Safe Harbor
forms: SSNs, IP addresses, URLs, e-mails, IBANs, national numbers, plates, serials, ages over 89,
other countries' postcodes; written 2026-11-26 after the rules it judges; never tuned on), and the surrogate
rounds' own checks ``falsify7``, ``falsify13`` and ``falsify14`` (six, eight and nine notes dense in clinical
phrases of a name's, a place's, a date's or a number's look, each written by the helper of its round:
docs/deid.md, the seventh, ninth and tenth rounds).
:mod:`crfdeid.experiments.madeup_outputs` measures a model on them in redacted and surrogate output.

``python -m crfdeid experiments made-up`` without ``--notes`` tags the legacy notes with
``Model.tag_many`` and counts, per note and in all, the gold PHI tokens no predicted span
covers (Safe Harbor identifiers apart: every subtype but STATE, COUNTRY and PROFESSION) and the
predicted spans that overlap no gold span (placeholders on non-PHI).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Document, make_span
from ..errors import ReaderError
from ..schema import I2B2_SUBTYPES
from ..text.tokenize import tokenize

_DATA = Path(__file__).resolve().parent / "data"
#: The legacy made-up notes (they ship with the package).
NOTES = _DATA / "made_up_notes.txt"
#: The shipped sets of made-up notes by name (``--notes NAME``).
NOTE_SETS = {"legacy": NOTES, "dev": _DATA / "made_up_dev.txt", "dev2": _DATA / "made_up_dev2.txt",
             "dev3": _DATA / "made_up_dev3.txt", "dev4": _DATA / "made_up_dev4.txt",
             "dev5": _DATA / "made_up_dev5.txt", "dev6": _DATA / "made_up_dev6.txt",
             "dev7": _DATA / "made_up_dev7.txt", "dev8": _DATA / "made_up_dev8.txt",
             "dev9": _DATA / "made_up_dev9.txt",
             "short": _DATA / "made_up_short.txt",
             "check": _DATA / "made_up_check.txt",
             "check2": _DATA / "made_up_check2.txt", "check3": _DATA / "made_up_check3.txt",
             "check4": _DATA / "made_up_check4.txt", "check5": _DATA / "made_up_check5.txt",
             "check6": _DATA / "made_up_check6.txt", "check7": _DATA / "made_up_check7.txt",
             "check8": _DATA / "made_up_check8.txt", "check9": _DATA / "made_up_check9.txt",
             "check10": _DATA / "made_up_check10.txt", "check11": _DATA / "made_up_check11.txt",
             "check12": _DATA / "made_up_check12.txt", "check13": _DATA / "made_up_check13.txt",
             "check14": _DATA / "made_up_check14.txt", "check15": _DATA / "made_up_check15.txt",
             "check16": _DATA / "made_up_check16.txt", "check17": _DATA / "made_up_check17.txt",
             "check18": _DATA / "made_up_check18.txt", "check19": _DATA / "made_up_check19.txt",
             "check20": _DATA / "made_up_check20.txt",
             "forms9": _DATA / "made_up_forms9.txt", "falsify7": _DATA / "made_up_falsify7.txt",
             "falsify13": _DATA / "made_up_falsify13.txt", "falsify14": _DATA / "made_up_falsify14.txt"}
#: Subtypes HIPAA Safe Harbor does not ask to remove.
NOT_SAFE_HARBOR = frozenset({"STATE", "COUNTRY", "PROFESSION"})
#: Kinds of phrases that must survive (``{{kind|text}}``); ``{{text}}`` has the kind ``other``.
KINDS = ("heading", "label", "score", "value", "drug", "time", "age", "eponym", "role", "word", "other")
#: Every mark's start or end: ``[[SUBTYPE|``, ``{{kind|`` or ``{{``, ``]]``, ``}}``.
_MARK = re.compile(r"\[\[(?P<sub>[A-Za-z-]*)\||\[\[|\{\{(?:(?P<kind>[a-z]+)\|)?|\]\]|\}\}")


class NoteMarkError(ReaderError):
    """A made-up notes file whose marks cannot be read: nested, unclosed, stray, unknown label."""


def note_set(name: str) -> Path:
    """The file of a shipped set (``legacy``, ``dev`` to ``dev9``, ``short``, ``check`` to ``check20``,
    ``forms9``, ``falsify7``, ``falsify13``, ``falsify14``) or a path as given.

    >>> note_set("dev").name
    'made_up_dev.txt'
    """
    return NOTE_SETS.get(name, Path(name))


def _document(name: str, raw: str, path=None) -> Document:
    """One note: marks off, PHI as spans, must-survive phrases in ``meta['keep']`` as
    ``[start, end, kind]`` (half-open offsets into the text without marks)."""
    text: list[str] = []
    spans, keep = [], []
    pos = last = 0
    open_at: tuple | None = None  # (mark, label, start offset in the text, offset in the raw note)
    for m in _MARK.finditer(raw):
        chunk = raw[last:m.start()]
        text.append(chunk)
        pos += len(chunk)
        last = m.end()
        token = m.group(0)
        if token in ("]]", "}}"):
            want = "[[" if token == "]]" else "{{"
            if open_at is None or open_at[0] != want:
                raise NoteMarkError(f"{token} closes no {want} mark", path=path, doc_id=name, offset=m.start())
            mark, label, start, _ = open_at
            if pos == start or not "".join(text)[start:pos].strip():
                raise NoteMarkError(f"an empty {mark} mark", path=path, doc_id=name, offset=m.start())
            if mark == "[[":
                spans.append(make_span(start, pos, label))
            else:
                keep.append([start, pos, label])
            open_at = None
            continue
        if open_at is not None:
            raise NoteMarkError(f"a mark inside a {open_at[0]} mark (marks do not nest)", path=path,
                                doc_id=name, offset=m.start())
        if token.startswith("[["):
            sub = m.group("sub")
            if sub is None or sub.upper() not in I2B2_SUBTYPES:
                raise NoteMarkError(f"[[ wants an i2b2 2014 subtype and |, one of {', '.join(I2B2_SUBTYPES)}",
                                    path=path, doc_id=name, offset=m.start())
            open_at = ("[[", sub.upper(), pos, m.start())
        else:
            kind = m.group("kind") or "other"
            if kind not in KINDS:
                raise NoteMarkError(f"unknown kind of phrase; the kinds are {', '.join(KINDS)}", path=path,
                                    doc_id=name, offset=m.start())
            open_at = ("{{", kind, pos, m.start())
    if open_at is not None:
        raise NoteMarkError(f"a {open_at[0]} mark is not closed", path=path, doc_id=name, offset=open_at[3])
    text.append(raw[last:])
    return Document(name, "".join(text), spans, {"keep": keep})


def read_notes(path: Path | str = NOTES) -> list[Document]:
    """The made-up notes as documents with their gold spans and ``meta['keep']``.

    Parameters
    ----------
    path : Path or str
        A notes file (default: the legacy set), or a set's name (:data:`NOTE_SETS`).

    Raises
    ------
    NoteMarkError
        A mark nested in another, unclosed or stray, or a label or kind not known; a note id
        given twice.

    >>> docs = read_notes()
    >>> len(docs) >= 15 and all(d.spans for d in docs)
    True
    """
    path = note_set(str(path)) if isinstance(path, str) else path
    docs: list[Document] = []
    name: str | None = None
    lines: list[str] = []

    def add():
        if name in {d.doc_id for d in docs}:
            raise NoteMarkError("a note id given twice", path=path, doc_id=name)
        docs.append(_document(str(name), "\n".join(lines).strip("\n") + "\n", path))

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and name is None:
            continue
        m = re.fullmatch(r"=== (\S+) ===", line)
        if m:
            if name is not None:
                add()
            name, lines = m.group(1), []
        else:
            lines.append(line)
    if name is not None:
        add()
    return docs


def read_sets(value: str) -> list[Document]:
    """The notes of one or more sets or files, comma-separated (``dev,dev2``); with more than one,
    each note id is prefixed by its set's name and ``/`` (two sets may share an id).

    >>> ids = [d.doc_id for d in read_sets("dev,dev2")]
    >>> ids[0].startswith("dev/") and len(ids) == len(set(ids))
    True
    """
    names = [n.strip() for n in value.split(",") if n.strip()]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise NoteMarkError("a set named twice", doc_id=dup)
    if len(names) == 1:
        return read_notes(note_set(names[0]))
    return [Document(f"{n}/{d.doc_id}", d.text, d.spans, d.meta) for n in names for d in read_notes(note_set(n))]


def score(gold: list[Document], pred: list[Document]) -> dict:
    """Missed gold tokens (all, Safe Harbor) and false spans, per note and in all."""
    notes: dict[str, dict] = {}
    missed_all = sh_all = false_all = gold_tokens = 0
    for g, p in zip(gold, pred):
        missed, sh = [], 0
        for sp in g.spans:
            for t in tokenize(g.text[sp.start:sp.end]):
                a, b = sp.start + t.start, sp.start + t.end
                gold_tokens += 1
                if not any(q.start < b and a < q.end for q in p.spans):
                    missed.append((g.text[a:b], sp.subtype))
                    sh += sp.subtype not in NOT_SAFE_HARBOR
        false = [(g.text[q.start:q.end], q.subtype) for q in p.spans if not any(q.overlaps(x) for x in g.spans)]
        notes[g.doc_id] = {"missed": missed, "false": false, "missed_safe_harbor": sh}
        missed_all += len(missed)
        sh_all += sh
        false_all += len(false)
    return {"notes": notes, "missed": missed_all, "missed_safe_harbor": sh_all, "false_spans": false_all,
            "gold_tokens": gold_tokens}

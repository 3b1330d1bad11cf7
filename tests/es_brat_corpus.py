"""A made-up Spanish clinical corpus in BRAT, a harder proxy for a user's own non-English model.

Written for crfdeid (MIT). Every name, number and place is drawn here from short lists
written for this file; nothing comes from a real note or from any published Spanish
de-identification corpus. Notes imitate Spanish clinical case reports and discharge
letters: a data header (``NHC``, ``NASS``, ``DNI``/``NIE`` with their check letters from
python-stdnum, ``CIP``, addresses, phones, e-mails), a narrative (``Paciente varón de 67
años...``), clinical look-alikes (eponyms, drug brands, scores, stages) and a signature.

Train and test are written from disjoint narrative, clinical and signature sentence banks
(pool ``A`` for train, ``B`` for test) and from disjoint halves of the name lists, so a
model that learned its sentences by heart gains nothing on the test part; the two header
forms are drawn in both parts, as a hospital's form is. Deterministic by seed::

    python tests/es_brat_corpus.py --out build/es_brat            # 300 train, 100 test
    python -m crfdeid pipeline --train brat:build/es_brat/train \\
        --test brat:build/es_brat/test --out build/es_site
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from stdnum.es import dni, nie

_MALE = ["Antonio", "José", "Manuel", "Francisco", "Juan", "David", "Javier", "Daniel", "Carlos",
         "Jesús", "Alejandro", "Miguel", "Rafael", "Pedro", "Ángel", "Pablo", "Sergio", "Fernando",
         "Jorge", "Luis", "Alberto", "Álvaro", "Adrián", "Diego", "Raúl", "Iván", "Rubén", "Óscar",
         "Enrique", "Ramón", "Vicente", "Andrés", "Joaquín", "Santiago", "Víctor", "Eduardo", "Íñigo",
         "Mohamed", "Marius", "Xabier"]
_FEMALE = ["María", "Carmen", "Ana", "Isabel", "Laura", "Cristina", "Marta", "Lucía", "Pilar",
           "Dolores", "Paula", "Elena", "Sara", "Raquel", "Rosa", "Mercedes", "Manuela", "Beatriz",
           "Nuria", "Silvia", "Julia", "Irene", "Patricia", "Rocío", "Alba", "Andrea", "Sonia", "Begoña",
           "Montserrat", "Inmaculada", "Encarnación", "Noelia", "Ainhoa", "Fátima", "Ioana", "Nerea",
           "Consuelo", "Remedios", "Amparo", "Yolanda"]
_SURNAMES = ["García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez",
             "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez",
             "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos",
             "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales", "Suárez", "Ortega", "Delgado",
             "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido",
             "Cortés", "Castillo", "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez", "Cruz",
             "Calvo", "Gallego", "Vidal", "León", "Márquez", "Herrera", "Peña", "Flores", "Cabrera",
             "Campos", "Vega", "Fuentes", "Carrasco", "Diez", "Caballero", "Reyes", "Nieto", "Aguilar",
             "Pascual", "Santana", "Herrero", "Lorenzo", "Montero", "Hidalgo", "Giménez", "Ibáñez",
             "Ferrer", "Durán", "Santiago", "Benítez", "Mora", "Vicente", "Vargas", "Arias", "Carmona",
             "Crespo", "Román", "Pastor", "Soto", "Sáez", "Velasco", "Moya", "Soler", "Parra", "Esteban",
             "Bravo", "Gallardo", "Rojas", "Echeverría", "Goikoetxea", "Puig", "Ferreira"]
_CITIES = ["Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Málaga", "Murcia", "Palma",
           "Bilbao", "Alicante", "Córdoba", "Valladolid", "Vigo", "Gijón", "Vitoria", "Granada",
           "Elche", "Oviedo", "Badalona", "Cartagena", "Terrassa", "Jerez de la Frontera", "Sabadell",
           "Móstoles", "Alcalá de Henares", "Pamplona", "Fuenlabrada", "Almería", "Leganés",
           "San Sebastián", "Santander", "Castellón", "Burgos", "Albacete", "Getafe", "Salamanca",
           "Logroño", "Huelva", "Badajoz", "Tarragona", "León", "Cádiz", "Lleida", "Jaén", "Ourense",
           "Lugo", "Cáceres", "Toledo", "Talavera de la Reina", "Ávila", "Segovia", "Soria", "Teruel"]
_PROVINCES = ["Madrid", "Barcelona", "Valencia", "Sevilla", "Asturias", "Cantabria", "Navarra",
              "Vizcaya", "Guipúzcoa", "La Rioja", "Toledo", "Cádiz", "Málaga", "Granada", "Murcia",
              "Pontevedra", "A Coruña", "Zamora", "Huesca", "Cuenca", "Girona", "Tenerife"]
_COUNTRIES = ["España", "Marruecos", "Rumanía", "Ecuador", "Colombia", "Perú", "Bolivia", "Argentina",
              "Francia", "Portugal", "Venezuela", "Senegal", "China", "Ucrania", "Paraguay", "Cuba",
              "Reino Unido", "Alemania", "Argelia", "Nigeria"]
_STREET_KINDS = ["C/", "Calle", "Avda.", "Avenida", "Plaza", "Paseo", "Ronda", "Camino", "Travesía",
                 "Pza.", "Glorieta", "Carretera"]
_STREET_NAMES = ["Mayor", "Real", "de la Constitución", "Arenal", "del Carmen", "San Francisco",
                 "de Andalucía", "del Sol", "Gran Vía", "de la Paz", "Nueva", "de Cervantes",
                 "del Olivo", "de los Reyes Católicos", "Alcalá", "de Goya", "Santa Ana", "del Pilar",
                 "de la Estación", "de Zorrilla", "Blas de Otero", "de la Libertad", "del Mar",
                 "Doctor Fleming", "de Colón", "de las Huertas", "Ramón y Cajal", "Severo Ochoa"]
_HOSP_HEADS = ["Hospital Universitario", "Hospital General Universitario", "Hospital Clínico",
               "Complejo Hospitalario", "Hospital Comarcal", "Hospital", "Clínica", "Hospital Materno-Infantil",
               "Hospital Virgen", "Hospital Universitario Virgen"]
_HOSP_TAILS = ["de la Arrixaca", "del Rocío", "de las Nieves", "Marqués de Valdecilla", "La Paz",
               "Doce de Octubre", "de Cruces", "Reina Sofía", "de Bellvitge", "Puerta de Hierro",
               "Son Espases", "de Navarra", "Central de Asturias", "de la Macarena", "Río Hortega",
               "Miguel Servet", "de Getafe", "Severo Ochoa", "de Torrecárdenas", "Infanta Elena",
               "del Mar", "San Pedro de Alcántara", "Santa Lucía", "de Valme", "Nuestra Señora de Sonsoles"]
_INSTITUTIONS = ["Servicio Madrileño de Salud", "Servicio Andaluz de Salud", "Osakidetza",
                 "Instituto Nacional de la Seguridad Social", "Cruz Roja", "Instituto de Salud Carlos III",
                 "Universidad Complutense", "Mutua Universal", "Fundación Jiménez Díaz",
                 "Servicio Gallego de Salud", "Instituto Catalán de la Salud", "Cáritas",
                 "Centro de Transfusión", "Banco de Sangre y Tejidos", "Asociación Española contra el Cáncer"]
_HEALTH_CENTRES = ["Centro de Salud Las Calesas", "Centro de Salud San Blas", "Centro de Salud El Greco",
                   "Centro de Salud La Chana", "CAP Raval Sud", "Centro de Salud Casco Viejo",
                   "Centro de Salud Los Alpes", "Consultorio de Villanueva", "Centro de Salud Delicias",
                   "Centro de Salud Almanjáyar"]
_PROFESSIONS = ["albañil", "maestra", "agricultor", "camionero", "administrativa", "minero", "peluquera",
                "carpintero", "cocinero", "pintor", "electricista", "ganadero", "soldador", "enfermera",
                "dependienta", "abogado", "panadero", "pescador", "limpiadora", "mecánico", "jardinero",
                "fontanero", "profesora de primaria", "trabajador de la construcción", "empleada del hogar"]
_OTHERS = ["testigo de Jehová", "interno en un centro penitenciario", "adoptado", "refugiado",
           "miembro de una comunidad religiosa", "gemelo monocigótico"]
_RELATIVES = ["su hija", "su esposa", "su marido", "su hermano", "su madre", "su hijo", "su sobrina"]
_MAILS = ["gmail.com", "hotmail.com", "yahoo.es", "salud.madrid.org", "telefonica.net", "outlook.es"]
_MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
           "octubre", "noviembre", "diciembre"]

# Slot -> label. A slot is written {slot} in a sentence; {x} (no label) only substitutes text.
LABELS = {
    "pac": "NOMBRE_SUJETO_ASISTENCIA", "pac_nombre": "NOMBRE_SUJETO_ASISTENCIA",
    "pac_apell": "NOMBRE_SUJETO_ASISTENCIA", "med": "NOMBRE_PERSONAL_SANITARIO",
    "med2": "NOMBRE_PERSONAL_SANITARIO", "fecha": "FECHAS", "fecha_txt": "FECHAS", "fecha_num": "FECHAS",
    "edad": "EDAD_SUJETO_ASISTENCIA", "sexo": "SEXO_SUJETO_ASISTENCIA", "sexo_hm": "SEXO_SUJETO_ASISTENCIA",
    "calle": "CALLE", "ciudad": "TERRITORIO", "provincia": "TERRITORIO", "cp": "TERRITORIO",
    "pais": "PAIS", "hospital": "HOSPITAL", "hospital2": "HOSPITAL", "institucion": "INSTITUCION",
    "centro": "CENTRO_SALUD", "tel": "NUMERO_TELEFONO", "fax": "NUMERO_FAX", "email": "CORREO_ELECTRONICO",
    "nhc": "ID_SUJETO_ASISTENCIA", "dni": "ID_SUJETO_ASISTENCIA", "nass": "ID_ASEGURAMIENTO",
    "cip": "ID_ASEGURAMIENTO", "episodio": "ID_CONTACTO_ASISTENCIAL", "colegiado": "ID_TITULACION_PERSONAL_SANITARIO",
    "profesion": "PROFESION", "otros": "OTROS_SUJETO_ASISTENCIA", "familiar": "FAMILIARES_SUJETO_ASISTENCIA",
}

# Two hospitals' header forms (each line optional at random), drawn in both parts.
_HEADERS = {
    "A": ["Datos del paciente.", "Nombre: {pac_nombre}.", "Apellidos: {pac_apell}.", "NHC: {nhc}.",
          "NASS: {nass}.", "Domicilio: {calle}.", "Localidad/ Provincia: {ciudad}.", "CP: {cp}.",
          "Datos asistenciales.", "Fecha de nacimiento: {fecha_num}.", "País: {pais}.",
          "Edad: {edad} Sexo: {sexo_hm}.", "Fecha de Ingreso: {fecha_num}.",
          "Médico: {med} NºCol: {colegiado}.", "Informe clínico del paciente:"],
    "B": ["IDENTIFICACIÓN", "Paciente: {pac}", "N.º historia clínica {nhc}", "DNI/NIE: {dni}",
          "Tarjeta sanitaria (CIP): {cip}", "Dirección: {calle}, {cp} {ciudad} ({provincia})",
          "Teléfono: {tel}", "Correo: {email}", "F. nac.: {fecha_num} ({edad})", "Episodio: {episodio}",
          "Servicio de Medicina Interna, {hospital}", "Facultativo responsable: Dr. {med}",
          "RESUMEN CLÍNICO"],
}
# Narrative sentence banks: disjoint between pools.
_NARRATIVE = {
    "A": ["Paciente {sexo} de {edad} que acude a Urgencias el {fecha_txt} por dolor abdominal "
          "de 48 horas de evolución.",
          "Se trata de un {sexo} de {edad}, natural de {pais}, {profesion} de profesión, "
          "sin alergias medicamentosas conocidas.",
          "Remitido desde el {hospital} para valoración por el Servicio de Urología.",
          "Antecedentes: hipertensión arterial en tratamiento con Enalapril, dislipemia, exfumador desde {fecha_txt}.",
          "En {fecha_txt} fue intervenido en el {hospital} de una hernia inguinal derecha.",
          "Vive con {familiar} en {ciudad}, con buen apoyo familiar.",
          "Es valorado en consulta por la Dra. {med} el {fecha_num}, que solicita TC toracoabdominal.",
          "Se contacta con su médico de atención primaria del {centro} para seguimiento.",
          "El estudio genético se remite al {institucion} con fecha {fecha_num}.",
          "El paciente refiere ser {otros}, por lo que rechaza la transfusión.",
          "Para cualquier consulta puede contactar en el teléfono {tel} o en {email}.",
          "Reside actualmente en {calle}, {cp} {ciudad}.",
          "Tras dos años de seguimiento sin recidiva, se decide alta el {fecha_num}.",
          "La biopsia realizada el {fecha_num} confirmó un adenocarcinoma acinar de próstata."],
    "B": ["{pac}, {sexo} de {edad}, {profesion} jubilado, consulta el {fecha_num} por disnea de moderados esfuerzos.",
          "Procedente de {pais}, reside en {ciudad} desde hace diez años.",
          "Fue trasladada al {hospital2} el día {fecha_txt} para completar estudio.",
          "Seguimiento previo en consultas externas del {hospital} por el Dr. {med2}.",
          "Su pareja, {familiar}, aporta informes del {centro}.",
          "Desde {fecha_txt} presenta astenia, pérdida de peso de 6 kg y sudoración nocturna.",
          "Trabaja como {profesion} en una empresa de {ciudad}, en contacto habitual con disolventes.",
          "Cursa baja laboral reconocida por el {institucion}.",
          "La familia solicita que se informe por correo electrónico ({email}) o al {tel}.",
          "Nacida en {ciudad} ({provincia}), sin antecedentes familiares de interés.",
          "Ingresa en planta el {fecha_num} con el número de episodio {episodio}.",
          "Se envía el informe por fax al {fax} a la atención del Dr. {med2}.",
          "En la revisión del {fecha_txt} se objetiva respuesta parcial."],
}
# Clinical look-alikes (never PHI): eponyms, brands, scores, stages, measures. Disjoint too.
_CLINICAL = {
    "A": ["A la exploración, signo de Murphy positivo y puñopercusión renal negativa.",
          "Glasgow 15/15, TA 135/80 mmHg, FC 92 lpm, SatO2 96 % basal.",
          "Se pauta Nolotil 575 mg cada 8 horas y Omeprazol 20 mg.",
          "Escala de Barthel 85; índice de Charlson 4.",
          "Estadio clínico T2N0M0, Gleason 3+4, PSA 7,2 ng/ml.",
          "Se descarta síndrome de Guillain-Barré y enfermedad de Crohn.",
          "Tratamiento domiciliario: Sintrom según pauta de Hematología, Adiro 100 mg.",
          "Hemograma: Hb 10,2 g/dl, leucocitos 12.300/mm3, plaquetas 245.000.",
          "TC: masa de 3 x 2,5 cm en polo superior del riñón izquierdo.",
          "Maniobra de Valsalva negativa; ECG en ritmo sinusal a 70 lpm."],
    "B": ["Auscultación: soplo sistólico II/VI en foco aórtico; signo de Homans negativo.",
          "NIHSS 4 al ingreso; mRS previo 1.",
          "Se inicia Augmentin 875/125 mg cada 8 h y Enantyum de rescate.",
          "Child-Pugh B7, MELD 14; Eutirox 50 mcg en ayunas.",
          "Clasificación de Ann Arbor estadio IIB; enfermedad de Hodgkin descartada en 2 biopsias.",
          "Criterios de Duke no cumplidos; Wells 2 puntos.",
          "RM: lesión de 12 x 8 mm en segmento VII hepático.",
          "Sospecha de enfermedad de Wilson; ceruloplasmina 14 mg/dl.",
          "Creatinina 1,8 mg/dl, FG 38 ml/min/1,73 m2, K 5,1 mEq/l.",
          "Prueba de Mantoux 0 mm; quantiFERON negativo."],
}
_SIGNATURE = {"A": ["Fdo.: Dra. {med}", "Médico adjunto: {med}. Colegiado n.º {colegiado}"],
              "B": ["Atentamente, {med2}", "{ciudad}, {fecha_txt}. El facultativo: Dr. {med}"]}


class _Note:
    """The people, numbers and places of one note, drawn once so that repeats agree."""

    def __init__(self, rng: random.Random, pool: str) -> None:
        half = 0 if pool == "A" else 1  # disjoint halves of the name lists
        self.rng, self.pool = rng, pool
        self.female = rng.random() < 0.5
        firsts = (_FEMALE if self.female else _MALE)[half::2]
        self.first = rng.choice(firsts)
        if rng.random() < 0.2:
            self.first += " " + rng.choice(firsts)
        self.surnames = f"{rng.choice(_SURNAMES[half::2])} {rng.choice(_SURNAMES[half::2])}"
        self.age = rng.randint(1, 95)
        self.half = half

    def fill(self, slot: str) -> str:
        """The text of one slot."""
        rng, half = self.rng, self.half
        if slot == "pac":
            return f"{self.first} {self.surnames}" if rng.random() < 0.8 else self.surnames
        if slot == "pac_nombre":
            return self.first
        if slot == "pac_apell":
            return self.surnames
        if slot in ("med", "med2", "familiar"):
            first = rng.choice((_MALE + _FEMALE)[half::2])
            name = f"{first} {rng.choice(_SURNAMES[half::2])}"
            if rng.random() < 0.5:
                name += " " + rng.choice(_SURNAMES[half::2])
            return name if slot != "familiar" else first
        if slot in ("fecha", "fecha_txt", "fecha_num"):
            d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(1940, 2021)
            if slot == "fecha_num" or (slot == "fecha" and rng.random() < 0.5):
                return rng.choice([f"{d:02d}/{m:02d}/{y}", f"{d}/{m}/{y}", f"{d:02d}-{m:02d}-{y}"])
            return rng.choice([f"{d} de {_MONTHS[m - 1]} de {y}", f"{_MONTHS[m - 1]} de {y}", f"{y}",
                               f"{d} de {_MONTHS[m - 1]}"])
        if slot == "edad":
            return rng.choice([f"{self.age} años", f"{self.age} años", f"{rng.randint(2, 11)} meses"])
        if slot == "sexo":
            return "mujer" if self.female else "varón"
        if slot == "sexo_hm":
            return ("M" if self.female else "H") if rng.random() < 0.7 else ("Mujer" if self.female else "Hombre")
        if slot == "calle":
            unit = rng.choice(["", f", {rng.randint(1, 9)}º {rng.choice('ABCD')}", f", {rng.randint(1, 9)}º izda.",
                               f", bajo {rng.choice('AB')}", f", portal {rng.randint(1, 4)}"])
            return f"{rng.choice(_STREET_KINDS)} {rng.choice(_STREET_NAMES)}, {rng.randint(1, 140)}{unit}"
        if slot == "ciudad":
            return rng.choice(_CITIES)
        if slot == "provincia":
            return rng.choice(_PROVINCES)
        if slot == "cp":
            return f"{rng.randint(1, 52):02d}{rng.randint(0, 999):03d}"
        if slot == "pais":
            return rng.choice(_COUNTRIES)
        if slot in ("hospital", "hospital2"):
            return f"{rng.choice(_HOSP_HEADS)} {rng.choice(_HOSP_TAILS)}"
        if slot == "institucion":
            return rng.choice(_INSTITUTIONS)
        if slot == "centro":
            return rng.choice(_HEALTH_CENTRES)
        if slot in ("tel", "fax"):
            a, b, c, d = rng.randint(6, 9), rng.randint(10, 99), rng.randint(100, 999), rng.randint(1000, 9999)
            n = f"{a}{b}{c}{d:04d}"[:9]
            return rng.choice([f"+34 {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}", f"{n[:3]} {n[3:6]} {n[6:]}", n,
                               f"(+34) {n}", f"{n[:3]} {n[3:5]} {n[5:7]} {n[7:]}"])
        if slot == "email":
            user = f"{self.first.split()[0]}.{self.surnames.split()[0]}".lower()
            user = user.translate(str.maketrans("áéíóúñü", "aeiounu"))
            return f"{user}{rng.choice(['', str(rng.randint(1, 99))])}@{rng.choice(_MAILS)}"
        if slot == "nhc":
            return str(rng.randint(100000, 9999999))
        if slot == "dni":
            if rng.random() < 0.7:
                body = f"{rng.randint(0, 99999999):08d}"
                return body + dni.calc_check_digit(body)
            body = f"{rng.choice('XYZ')}{rng.randint(0, 9999999):07d}"
            return body + nie.calc_check_digit(body)
        if slot == "nass":
            return f"{rng.randint(1, 52):02d} {rng.randint(0, 99999999):08d} {rng.randint(0, 99):02d}"
        if slot == "cip":
            letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTVZ") for _ in range(4))
            return f"{letters}{rng.randint(0, 999999999999):012d}"
        if slot == "episodio":
            return f"{rng.randint(2015, 2021)}/{rng.randint(0, 999999):06d}"
        if slot == "colegiado":
            return f"{rng.randint(1, 52):02d} {rng.randint(1, 52):02d} {rng.randint(10000, 99999)}"
        if slot == "profesion":
            return rng.choice(_PROFESSIONS)
        if slot == "otros":
            return rng.choice(_OTHERS)
        raise KeyError(slot)


def _render(template: str, note: _Note, text: list[str], ann: list[tuple[str, int, int]]) -> None:
    """Append one template, filled, to ``text``; the spans of its labelled slots to ``ann``."""
    head, *parts = template.split("{")
    text.append(head)
    for part in parts:
        slot, rest = part.split("}", 1)
        value = note.fill(slot)
        start = sum(map(len, text))
        ann.append((LABELS[slot], start, start + len(value)))
        text.append(value)
        text.append(rest)


def make_note(rng: random.Random, pool: str) -> tuple[str, list[tuple[str, int, int]]]:
    """``(text, [(label, start, end)])`` of one note of ``pool`` ("A" train, "B" test)."""
    note = _Note(rng, pool)
    text: list[str] = []
    ann: list[tuple[str, int, int]] = []
    layout = rng.choice(["header", "narrative", "letter"])
    form = rng.choice("AB")  # a form is shared by both parts, as a hospital's header is
    if layout == "header":
        for line in _HEADERS[form]:
            if "{" not in line or rng.random() < 0.85:
                _render(line, note, text, ann)
                text.append("\n")
    elif layout == "letter":
        _render(rng.choice(_HEADERS[form][1:4]), note, text, ann)
        text.append("\n\n")
    sentences = rng.sample(_NARRATIVE[pool][1:], k=rng.randint(4, 8))
    sentences += rng.sample(_CLINICAL[pool], k=rng.randint(2, 4))
    rng.shuffle(sentences)
    sentences.insert(0, _NARRATIVE[pool][0])
    for sentence in sentences:
        _render(sentence, note, text, ann)
        text.append("\n" if layout == "letter" or rng.random() < 0.3 else " ")
    text.append("\n")
    _render(rng.choice(_SIGNATURE[pool]), note, text, ann)
    text.append("\n")
    return "".join(text), ann


def write_corpus(root: Path, docs: int, seed: int, pool: str, prefix: str) -> Path:
    """``docs`` notes of ``pool`` as ``<prefix>NNNN.txt`` + ``.ann`` in ``root``."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    for i in range(docs):
        text, spans = make_note(rng, pool)
        lines = [f"T{k}\t{label} {a} {b}\t{text[a:b]}" for k, (label, a, b) in enumerate(spans, 1)]
        (root / f"{prefix}{i:04d}.txt").write_text(text, encoding="utf-8")
        (root / f"{prefix}{i:04d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def make_corpus(root: Path, train: int = 300, test: int = 100, seed: int = 0) -> tuple[Path, Path]:
    """The train part (pool A) and the test part (pool B) under ``root``."""
    return (write_corpus(root / "train", train, seed, "A", "tr"),
            write_corpus(root / "test", test, seed + 1, "B", "te"))


def main(argv: list[str] | None = None) -> int:
    """Write the corpus into ``--out``/train and ``--out``/test."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--train", type=int, default=300)
    parser.add_argument("--test", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    make_corpus(args.out, args.train, args.test, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

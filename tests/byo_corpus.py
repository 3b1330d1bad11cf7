"""A synthetic BRAT corpus with its own labels, in four scripts, for the bring-your-own tests.

Notes in Spanish (accents), Greek, Russian (Cyrillic) and Japanese (CJK, PHI set off
by full-width punctuation), every name and place made up here. Some ``.txt`` files
start with a byte-order mark (offsets count it, as BRAT does); some annotations are
discontinuous (an address whose floor is left out). Nothing here is a real person.
"""

from __future__ import annotations

import random
from pathlib import Path

BOM = "\ufeff"
#: The corpus' own labels: none is an i2b2 2014 name; written as they are (mixed case).
LABELS = ("NombrePaciente", "NombreMedico", "Fecha", "Ciudad", "Telefono", "Direccion", "NumHistoria")

_PEOPLE = {
    "es": ["José Núñez", "María Peña", "Íñigo Álvarez", "Lucía Ibáñez", "Raúl Gómez", "Begoña Muñoz"],
    "el": ["Γιώργος Παπαδόπουλος", "Ελένη Καραγιάννη", "Νίκος Δημητρίου", "Σοφία Αλεξίου"],
    "ru": ["Иван Петров", "Ольга Смирнова", "Дмитрий Козлов", "Анна Волкова"],
    "ja": ["山田太郎", "佐藤花子", "鈴木一郎", "高橋美咲"],
}
_CITIES = {"es": ["Málaga", "Cáceres", "León", "Ávila"], "el": ["Αθήνα", "Πάτρα", "Λάρισα"],
           "ru": ["Москва", "Казань", "Самара"], "ja": ["東京", "大阪", "札幌"]}
_STREETS = {"es": ["Calle Mayor", "Avenida del Río", "Plaza España"], "el": ["Οδός Ερμού", "Οδός Αθηνάς"],
            "ru": ["улица Ленина", "проспект Мира"], "ja": ["中央通り", "桜通り"]}
# Sentence templates: (text with {slot}s); slots name a label, filled and annotated.
_TEMPLATES = {
    "es": ["Paciente: {NombrePaciente}.", "Ingresa el {Fecha} en el hospital de {Ciudad}.",
           "Atendido por la Dra. {NombreMedico} el {Fecha}.", "Teléfono de contacto: {Telefono}.",
           "Historia clínica n.º {NumHistoria}.", "Domicilio: {Direccion}.",
           "Refiere dolor torácico desde hace dos días.", "Se pauta analgesia y control en 48 h."],
    "el": ["Ασθενής: {NombrePaciente}.", "Εισαγωγή στις {Fecha} στην {Ciudad}.",
           "Ιατρός: {NombreMedico}.", "Τηλέφωνο: {Telefono}.", "Αριθμός φακέλου {NumHistoria}.",
           "Διεύθυνση: {Direccion}.", "Πυρετός από χθες, χωρίς βήχα."],
    "ru": ["Пациент: {NombrePaciente}.", "Поступил {Fecha} в больницу г. {Ciudad}.",
           "Лечащий врач: {NombreMedico}.", "Телефон: {Telefono}.", "История болезни № {NumHistoria}.",
           "Адрес: {Direccion}.", "Жалобы на головную боль."],
    "ja": ["患者：{NombrePaciente}。", "入院日：{Fecha}。", "住所：{Ciudad}、{Direccion}。",
           "担当医：{NombreMedico}。", "電話：{Telefono}。", "カルテ番号：{NumHistoria}。", "頭痛あり。"],
}


def _fill(label: str, lang: str, rng: random.Random) -> list[tuple[str, bool]]:
    """The surface of one PHI as pieces ``(text, annotated)``: a discontinuous address leaves its
    floor unannotated."""
    if label in ("NombrePaciente", "NombreMedico"):
        return [(rng.choice(_PEOPLE[lang]), True)]
    if label == "Ciudad":
        return [(rng.choice(_CITIES[lang]), True)]
    if label == "Fecha":
        d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2023)
        return [(f"{y}年{m}月{d}日" if lang == "ja" else f"{d:02d}/{m:02d}/{y}", True)]
    if label == "Telefono":
        return [(f"{rng.randint(600, 699)} {rng.randint(100, 999)} {rng.randint(100, 999)}", True)]
    if label == "NumHistoria":
        return [(f"{rng.choice('ABCHK')}{rng.randint(100000, 999999)}", True)]
    street = f"{rng.choice(_STREETS[lang])} {rng.randint(1, 99)}"
    if rng.random() < 0.5:  # discontinuous: "<street> (<floor>) <postcode>", floor not PHI
        return [(street, True), (f" ({rng.randint(1, 9)}º) ", False), (f"{rng.randint(10000, 52999)}", True)]
    return [(street, True)]


def make_note(lang: str, rng: random.Random, bom: bool) -> tuple[str, list[str]]:
    """``(text, .ann lines)`` of one note; offsets count the BOM when there is one."""
    text = BOM if bom else ""
    ann: list[str] = []
    picks = rng.sample(_TEMPLATES[lang], k=min(len(_TEMPLATES[lang]), rng.randint(4, 7)))
    for tpl in picks:
        head, *parts = tpl.split("{")
        text += head
        for part in parts:
            label, rest = part.split("}", 1)
            frags = []
            for piece, annotated in _fill(label, lang, rng):
                if annotated:
                    frags.append((len(text), len(text) + len(piece)))
                text += piece
            offsets = ";".join(f"{a} {b}" for a, b in frags)
            surface = " ".join(text[a:b] for a, b in frags)
            ann.append(f"T{len(ann) + 1}\t{label} {offsets}\t{surface}")
            text += rest
        text += "\n" if lang != "ja" or rng.random() < 0.5 else ""
    return text, ann


def make_corpus(root: Path, docs: int, seed: int, prefix: str = "n") -> Path:
    """``docs`` notes as ``<prefix>NNN.txt`` + ``.ann`` in ``root`` (every third with a BOM)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    langs = list(_TEMPLATES)
    for i in range(docs):
        text, ann = make_note(langs[i % len(langs)], rng, bom=i % 3 == 0)
        (root / f"{prefix}{i:03d}.txt").write_bytes(text.encode("utf-8"))
        (root / f"{prefix}{i:03d}.ann").write_bytes(("\n".join(ann) + "\n").encode("utf-8"))
    return root

"""Postal codes inside addresses of many countries (crfdeid/recognizers/postcodes.py): found over
several lines and in lower case; house numbers, lab lists, volumes and ranges left."""

import pytest

from crfdeid.recognizers import postcodes, safeharbor

# (made-up address, its code)
FOUND = [
    ("Send to:\nKingfisher-Weg 4\n77318 Ansbach", "77318"),
    ("Address\n12 Wattle Turn Rd\nParramatta NSW 2150\nPhone: see chart", "2150"),
    ("moved to 8, chemin des Lilas, 14348 Vernon last month", "14348"),
    ("14 Bellenden Road\nPeckham\nSE15 4QJ", "SE15 4QJ"),
    ("send to:\n52 cully street d02x285 rathmines", "d02x285"),
    ("lives at 9 elm crescent, sudbury, on p3a4r5", "p3a4r5"),
    ("H.No. 61, Gandhi Chowk\nNagpur 440001", "440001"),
    ("Kerkstraat 12\n1017GC\nAmsterdam", "1017GC"),
    ("ul. Polna 5\n53-320 Wrocław", "53-320"),
    ("Unit 4 Box 2267\nDPO AE 09012", "09012"),
    ("Rua das Flores, 50\nCentro\n01310-100 São Paulo / SP", "01310-100"),
    ("Calle Mayor 12 Piso 3\nMadrid, 28013", "28013"),
    ("Robertside 2959", "2959"),
    ("postcode: 058939", "058939"),
    ("al. Spokojna 63\n25-976 Sosnowiec", "25-976"),
    ("Lindenring 5\n44705 Bitterfeld", "44705"),
    ("Address\n62 Main Street X43 XFCK Ballina\nPhone: see chart", "X43 XFCK"),
    ("send to:\nstudio 42e\nedward keys\nlittlemouth\nl8g 8ar", "l8g 8ar"),
    ("Barros de Goiás 70356-175", "70356-175"),
    ("rambla de santa ana 4\nsoria, 38483", "38483"),
    ("Lives in Parramatta 2150", "2150"),
    ("Rua Sá, 50\nCentro\n86297428 Moraes / ES", "86297428"),
    ("Flat 8, 185 Priory Court, Stratford\nPostcode 0755", "0755"),
]
# Clinical lines with four to six digits after an address or beside words: no code.
LEFT = [
    "Address: 4 Mill Lane\nplt 250000, K 4.1, given 1500 units",
    "her address is 72916 Karina Locks Apt. 647, Sudbury, ON P3A 4R5",
    "Lives at 5806 Nadia-Allee, Berlin",
    "Send to: PSC 7457, Box 1344",
    "Lipase 4318\nAmylase 1140",
    "neg 2200cc at 12am, neg 1200cc so far today",
    "cardiac--hr 90-100 pat, no ectopy",
    "Trach in place #8\nCT on H20 seal",
    "seen March 3rd, 2021 at home",
    "Rested 2 hours on the way\nUO 1500 today",
    "Family meeting planned for August 23rd @ 1400 with the renal team",
    "Meeting on Sept 23rd\nplan: negative 1243cc goal, check K and Mg @ 1830",
    "Smith et al. reported 2 cases\nseen in 2009",
    "during the night 18-11\nUOP 2200",
    "Arrived from Flat 8, 185 Priory Court, Stratford\nSeen at 12.53\nPC: chest pain snce 0755",
    "Address: 4 Mill Lane, Leeds\nGP (0161) 496 0849, fax 875 899 8973 ext 4987, pager 51560",
    "Address: 4 Mill Lane, Leeds\nMRN 44300372, hospital no. E323925",
    "Lives at 4 Mill Lane, Leeds\nnext review December 12, 2095",
]


@pytest.mark.parametrize(("text", "code"), FOUND)
def test_code_found(text, code):
    spans = [sp for _, sp in postcodes.matches(text)] + [sp for sp in safeharbor.find(text) if sp.subtype == "ZIP"]
    assert any(text[sp.start:sp.end] == code for sp in spans), [text[sp.start:sp.end] for sp in spans]


@pytest.mark.parametrize("text", LEFT)
def test_no_code_in(text):
    found = {text[sp.start:sp.end] for _, sp in postcodes.matches(text)}
    if text.startswith("her address"):
        assert found <= {"P3A 4R5"}  # the house number 72916 is no code
    else:
        assert found == set()


@pytest.mark.parametrize(("text", "expected"), [
    ("Lives at 5806 Nadia-Allee", True), ("Send to: PSC 7457", True), ("1717 kari extension, sudbury", True),
    ("Sudbury, 2150", False)])
def test_house_number(text, expected):
    digits = next(w for w in text.replace(",", " ").split() if w.isdigit())
    start = text.index(digits)
    assert postcodes.house_number(text, start, start + len(digits)) is expected


@pytest.mark.parametrize("text", [t for t, _ in FOUND if t.isascii()] + [t for t in LEFT if t.isascii()] + [
    "SE15 4QJ,m1 1ae;B33 8TH/ec1a 1bb x12 34567-890 12-345 1234-567 123 45 400 001 9999ab 02139-4307",
    "id k1a0b1 H0H 0H0 t12 ab34 D6W 1234 a65 f4e2 #12345 (67890) 12345% 54321: @11111 4-12345 9) 12345",
    "", "no digits at all", "7", "SW1A", "ab1 2cd", "\x1c12345\x1f 23456\x0b34567"])
def test_candidates_the_same_on_ascii_in_both_engines(text):
    """On ASCII text the stdlib ``re`` twin of the candidate pattern finds what ``regex`` does (made-up
    codes of each shape, at the edges the look-behinds and the look-ahead guard, control characters)."""
    assert text.isascii()
    assert [m.span() for m in postcodes._CANDIDATE.ascii_twin.finditer(text)] == \
        [m.span() for m in postcodes._CANDIDATE.anywhere.finditer(text)]

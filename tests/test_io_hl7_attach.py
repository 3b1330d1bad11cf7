"""HL7 text attachments (ED, base64) read by the model and written back in their character set
and layout; what is not text removed (issue 51). The messages are made up."""

from __future__ import annotations

import base64

import pytest

from crfdeid.cli import tag
from crfdeid.io import hl7_attach
from crfdeid.io.runmanifest import notes_only

NOTE = "Ardith Quillon seen 07/22/2098 by Dr. Pemberton. Call 617-555-0143. Plan: home."
HEAD = "MSH|^~\\&|LAB|MERCY|||20980722103000||ORU^R01|C1|P|2.5{charset}\rPID|1||77310452^^^MERCY^MR||Quillon^Ardith\r"


def _b64(text: str, codec: str = "utf-8") -> str:
    return base64.b64encode(text.encode(codec)).decode()


def _wrapped(data: str, width: int = 20) -> str:
    """Base64 in lines of ``width``, the breaks escaped as HL7 writes a carriage return and line feed."""
    return "\\X0D0A\\".join(data[i:i + width] for i in range(0, len(data), width))


RTF = "{\\rtf1 " + NOTE + " Temp 38\xb0C.}"
MESSAGES = {
    "plain": (HEAD.format(charset="") + f"OBX|1|ED|11492-6^H&P^LN||^TEXT^PLAIN^Base64^{_b64(NOTE)}||||||F\r"),
    "latin1": (HEAD.format(charset="||||||8859/1") +
               f"OBX|1|ED|X^Note^L||^AP^RTF^Base64^{_b64(RTF, 'latin-1')}||||||F\r"),
    "wrapped": (HEAD.format(charset="") + f"OBX|1|ED|X^Note^L||^TEXT^^Base64^{_wrapped(_b64(NOTE))}||||||F\r"),
    "pdf": (HEAD.format(charset="") + f"OBX|1|ED|X^Note^L||^AP^PDF^Base64^{_b64('%PDF-1.4 ' + NOTE)}||||||F\r"),
    "binary": (HEAD.format(charset="") + "OBX|1|ED|X^Note^L||^TEXT^PLAIN^Base64^AAECAwQFBgc=||||||F\r"),
    "notbase64": (HEAD.format(charset="") + "OBX|1|ED|X^Note^L||^TEXT^PLAIN^Base64^Ardith Quillon!||||||F\r"),
    "charset": (HEAD.format(charset="||||||ISO IR87") +
                f"OBX|1|ED|X^Note^L||^TEXT^PLAIN^Base64^{_b64(NOTE)}||||||F\r"),
    "pointer": (HEAD.format(charset="") + "OBX|1|RP|X^Note^L||https://ehr.example/doc/77310452^EHR^AP^PDF||||||F\r"),
}


@pytest.fixture(scope="module", params=["redacted", "surrogate"])
def written(request, tmp_path_factory):
    src = tmp_path_factory.mktemp("in")
    for name, msg in MESSAGES.items():
        (src / f"{name}.hl7").write_bytes(msg.encode("ascii"))
    out = src.parent / f"out-{request.param}"
    opts = ["-o", f"text={request.param}", "--seed", "3"]
    assert tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "--output-dir", str(out),
                     *opts, str(src)]) == 0
    return {p.stem: p.read_bytes().decode("ascii") for p in notes_only(out.iterdir())}


def _ed(message: str) -> list[str]:
    obx = next(s for s in message.split("\r") if s.startswith("OBX"))
    return obx.split("|")[5].split("^")


@pytest.mark.parametrize("name, codec", [("plain", "utf-8"), ("latin1", "latin-1"), ("wrapped", "utf-8")])
def test_a_text_attachment_is_de_identified_in_its_charset_and_layout(written, name, codec):
    ed = _ed(written[name])
    assert ed[:4] == _ed(MESSAGES[name])[:4]  # type, subtype, encoding as they were
    data = ed[4]
    text = base64.b64decode(data.replace("\\X0D0A\\", ""), validate=True).decode(codec)
    for phi in ("Ardith", "Quillon", "Pemberton", "617-555-0143", "07/22/2098"):
        assert phi not in text, phi
    assert "Plan: home." in text  # the rest of the note as written
    family = next(s for s in written[name].split("\r") if s.startswith("PID")).split("|")[5].split("^")[0]
    if family:  # surrogates: the attachment names the patient as PID-5 does
        assert family in text
    if name == "latin1":
        assert text.startswith("{\\rtf1 ") and text.endswith("\xb0C.}")  # read and written in 8859/1
    if name == "wrapped":  # lines of 20 characters, the breaks escaped as they were
        assert all(len(line) == 20 for line in data.split("\\X0D0A\\")[:-1]) and "\\X0D0A\\" in data


@pytest.mark.parametrize("name", ["pdf", "binary", "notbase64", "charset", "pointer"])
def test_what_is_not_text_is_removed_never_kept(written, name):
    ed = _ed(written[name])
    assert ed[0] == "" and (len(ed) < 5 or ed[4] == "") if name != "pointer" else ed[0] == ""
    assert "Ardith" not in written[name] and "77310452" not in written[name]


@pytest.mark.parametrize("kind, sub, enc, text", [
    ("TEXT", "PLAIN", "Base64", True), ("AP", "RTF", "base64", True), ("TEXT", "", "Base64", True),
    ("text/plain", "", "Base64", True), ("AP", "PDF", "Base64", False), ("TEXT", "HTML", "Base64", False),
    ("TEXT", "PLAIN", "Hex", False), ("IM", "", "Base64", False)])
def test_which_attachments_are_text(kind, sub, enc, text):
    assert hl7_attach.is_text(kind, sub, enc) is text

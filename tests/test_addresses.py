"""Towns and suburbs by their place in an address (issue 50, the places round).

Made-up addresses of Scottish, Irish, Welsh, Kenyan, Filipino, New Zealand, US and Indian
styles, and lower case; no real person, practice or address (towns and postcode areas public).
"""

import pytest

from crfdeid.document import make_span
from crfdeid.recognizers import addresses, safeharbor
from crfdeid.recognizers.chain import Note
from crfdeid.recognizers.steps import SafeHarbor


def _tagged(text, marks):
    """Spans of ``marks`` (surface, subtype), each at its first place in ``text``."""
    return [make_span(text.index(s), text.index(s) + len(s), sub) for s, sub in marks]


def _cities(text, marks):
    return [text[s.start:s.end] for s in addresses.apply(text, _tagged(text, marks)) if s.subtype == "CITY"]


#: an address, the spans found before, the towns it names.
FOUND = [
    # after a street, along the address, before a postcode (Scotland)
    ("Address: 12 Balloch Crescent, Culloden, Inverness IV2 7QR",
     [("12 Balloch Crescent", "STREET"), ("IV2 7QR", "ZIP")], ["Culloden", "Inverness"]),
    # before a postcode with a comma (Ireland), after a street (Wales: a town of three words)
    ("Address: 3 Bothar na Tra, Salthill, H91 X2C4", [("3 Bothar na Tra", "STREET"), ("H91 X2C4", "ZIP")],
     ["Salthill"]),
    ("Lives at 4 Heol y Bont, Llanbedr Pont Steffan.", [("4 Heol y Bont", "STREET")], ["Llanbedr Pont Steffan"]),
    ("Glenmorven Medical Practice, Kirkgate, Dunfermline KY12 7AX", [("KY12 7AX", "ZIP")], ["Dunfermline"]),
    # a box (Kenya), a purok and a barangay (Philippines), a rural route before a state (US)
    ("Uzima Clinic, P.O. Box 41872-00100, Nairobi", [("P.O. Box 41872-00100", "STREET")], ["Nairobi"]),
    ("Address: Purok 3, Brgy. San Isidro, Tanay, Rizal", [("Purok 3", "STREET"), ("Brgy. San Isidro", "CITY")],
     ["Brgy. San Isidro", "Tanay", "Rizal"]),
    ("Mail: RR 2 Box 118, Chamberino, NM 88027", [("NM", "STATE"), ("88027", "ZIP")], ["Chamberino"]),
    # after a place of care at the line's end (Ireland, India)
    ("EMERGENCY DEPARTMENT - St Fintan's University Hospital, Galway\nName: x",
     [("St Fintan's University Hospital", "HOSPITAL")], ["Galway"]),
    ("OPD - Jeevan Jyoti Nursing Home, Lucknow\n", [("Jeevan Jyoti Nursing Home", "HOSPITAL")], ["Lucknow"]),
    # a town the tagger found half of (New Zealand), a lower-case address (Wales)
    ("Address: 41 Kowhai Street, Naenae, Lower Hutt\n", [("41 Kowhai Street", "STREET"), ("Naenae", "CITY"),
                                                        ("Hutt", "STATE")], ["Naenae", "Lower Hutt"]),
    ("mrs b, 82, 7 heol y nant, ystrad mynach.", [("7 heol y nant", "STREET")], ["ystrad mynach"]),
    # a street the tagger typed as another place reads on as a street (US; Kenya)
    ("MRN: 22761336\n2198 Center Heights, Schaumburg, Illinois 60193", [("2198 Center Heights", "HOSPITAL")],
     ["Schaumburg"]),
    ("Address: 14 Ngong Road, Kilimani, Nairobi\n", [("14 Ngong Road", "ORGANIZATION")], ["Kilimani", "Nairobi"]),
]


@pytest.mark.parametrize("text, marks, towns", FOUND)
def test_a_town_is_found_by_its_place_in_an_address(text, marks, towns):
    assert _cities(text, marks) == towns


#: what follows a street, a place of care or precedes a postcode but is no town: never found.
KEPT = [
    ("Lives at 12 Main Street, with her husband.", [("12 Main Street", "STREET")]),
    ("Lives at 12 Main Street, Dr Patel visits.", [("12 Main Street", "STREET")]),
    ("Seen at Mercy Hospital, Ward 7, then home.", [("Mercy Hospital", "HOSPITAL")]),
    ("Admitted to Mercy Hospital, Cardiology\n", [("Mercy Hospital", "HOSPITAL")]),
    ("Referred to Kingsmills Medical Practice, Follow-up\n", [("Kingsmills Medical Practice", "ORGANIZATION")]),
    ("Address: 9 Wellwood Crescent, Flat 2\n", [("9 Wellwood Crescent", "STREET")]),
    ("CARDIOLOGY CLINIC, ROYAL INFIRMARY\n", [("ROYAL INFIRMARY", "HOSPITAL")]),
    ("lives at 4 oak road, independent with adls.", [("4 oak road", "STREET")]),
]


@pytest.mark.parametrize("text, marks", KEPT)
def test_what_is_no_town_stays(text, marks):
    assert _cities(text, marks) == []


def test_a_streets_pieces_split_by_commas_are_one_span_with_a_plots_number():
    text = "Sri Venkatesa Hospital, Plot 14, Road No. 3, Banjara Hills, Hyderabad 500034"
    spans = addresses.apply(text, _tagged(text, [("Road No. 3", "STREET"), ("500034", "ZIP")]))
    assert ("Plot 14, Road No. 3", "STREET") in [(text[s.start:s.end], s.subtype) for s in spans]
    text = "r/o Mohalla Chowk, Gali No. 2, Aminabad."
    spans = addresses.apply(text, _tagged(text, [("Mohalla Chowk", "STREET"), ("Gali No. 2", "STREET")]))
    assert [(text[s.start:s.end], s.subtype) for s in spans] == [
        ("Mohalla Chowk, Gali No. 2", "STREET"), ("Aminabad", "CITY")]


@pytest.mark.parametrize("text, marks, street", [
    ("Address: Blk 512 Ang Mo Kio Avenue 8, #07-1234", [("512 Ang Mo Kio Avenue 8, #07-1234", "STREET")],
     "Blk 512 Ang Mo Kio Avenue 8, #07-1234"),  # Singapore
    ("Address: No. 7 Olatunde Close, Ikeja", [("7 Olatunde Close", "STREET")], "No. 7 Olatunde Close"),  # Nigeria
    # a Glasgow flat's position the tagger read as a date, after a comma or a label
    ("Re: Mrs K, 3/2, 18 Kilmarnock Terrace, Rutherglen", [("3/2", "DATE"), ("18 Kilmarnock Terrace", "STREET")],
     "3/2, 18 Kilmarnock Terrace"),
])
def test_a_block_no_or_flat_before_a_house_number_is_the_streets(text, marks, street):
    spans = addresses.apply(text, _tagged(text, marks))
    assert (street, "STREET") in [(text[s.start:s.end], s.subtype) for s in spans]


def test_a_date_before_a_street_in_a_sentence_stays_a_date():
    text = "seen 3/2, 18 Main Street"
    spans = addresses.apply(text, _tagged(text, [("3/2", "DATE"), ("18 Main Street", "STREET")]))
    assert [(text[s.start:s.end], s.subtype) for s in spans] == [("3/2", "DATE"), ("18 Main Street", "STREET")]


def test_nothing_is_dropped():
    text = "Address: 12 Balloch Crescent, Culloden, Inverness IV2 7QR. Seen by Dr Ross."
    before = _tagged(text, [("12 Balloch Crescent", "STREET"), ("IV2 7QR", "ZIP"), ("Ross", "DOCTOR")])
    after = addresses.apply(text, before)
    assert all(any(a.start <= b.start and b.end <= a.end for a in after) for b in before)


def test_the_safe_harbor_step_reads_an_address_of_another_country():
    text = "Address: 12 Balloch Crescent, Culloden, Inverness IV2 7QR\n"
    found = [(text[s.start:s.end], s.subtype) for s in SafeHarbor()(Note(text), [])]
    assert ("Culloden", "CITY") in found and ("Inverness", "CITY") in found
    assert SafeHarbor()(Note(text, english=False), []) == safeharbor.apply(text, [])

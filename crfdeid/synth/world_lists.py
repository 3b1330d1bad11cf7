"""Names and places of other countries for the ``world`` style (:mod:`crfdeid.synth.world`).

source: written by hand for crfdeid (2026-11-25) from general knowledge of how names, towns,
counties, streets and postcodes are written in the UK, Ireland, Australia, Canada, India and
the US; no entry was taken from a clinical note or a patient record. Town and county names
are public place names; the hospitals, schools and employers made from them are invented.
licence: MIT, like the project.
regenerate: nothing to regenerate; this module is the source (edit it here). It is kept out of
``gazetteers/`` on purpose: every list there is a feature of every model, and these lists are
for writing synthetic notes only.

Each constant is a white-space separated string; ``|`` separates multi-word entries.
"""

from __future__ import annotations


def split(text: str) -> tuple[str, ...]:
    """Entries of a constant: ``|``-separated when it has a ``|``, else white-space separated.

    >>> split("a b"), split("Stoke-on-Trent|Bury St Edmunds")
    (('a', 'b'), ('Stoke-on-Trent', 'Bury St Edmunds'))
    """
    parts = text.split("|") if "|" in text else text.split()
    return tuple(" ".join(p.split()) for p in parts if p.strip())


#: Given names joined by a hyphen, as families write them (only the whole is one name).
HYPHENATED_GIVEN = """Ji-ho Ji-woo Seo-yeon Min-jun Ha-eun Do-yun Hye-jin Soo-ah Jae-won Eun-ji
Mary-Kate Mary-Jane Anne-Marie Jean-Luc Jean-Paul Jean-Marc Marie-Claire Marie-Eve Lily-Rose
Ella-Mae Billie-Jo Lee-Ann Sarah-Jane Louise-Anne Kai-Li Xiao-Ming Hui-min Wei-Ling Mei-Ling
Ana-Maria Rose-Ellen Ruby-Mae Jo-Anne Kerry-Ann"""

#: Given names common in the UK, Ireland, India, Australia and Canada that the US Census lists miss or rank low.
GIVEN = """Siobhan Aoife Niamh Saoirse Caoimhe Orla Grainne Roisin Sinead Aisling Eimear Ciaran
Declan Eoin Cathal Padraig Oisin Darragh Fionn Cormac Tadhg Rhys Gareth Dafydd Bronwen Cerys
Angharad Iwan Hamish Alistair Callum Fraser Ewan Morag Isla Kirsty Ailsa Lachlan Tahlia Kylie
Bronte Jarrah Priya Arjun Ananya Rohan Sanjay Lakshmi Deepa Kavya Aditya Ishaan Meera Rahul
Sunita Vikram Anjali Harpreet Gurpreet Manpreet Jaswinder Farhan Ayesha Imran Zainab Nkechi
Chidi Oluwaseun Adaeze Tariq Yusuf Mohammed Fatima Siddharth Nandini Raghav Shreya Thanh
Nguyet Huong Minh Sione Mele Aroha Wiremu Tane Genevieve Mathieu Etienne Sebastien Josee
Benoit Maeve Tierney Imogen Hermione Jemima Rupert Giles Nigel Clive Lyndsey Gemma Stacey"""

#: Nicknames written in quotes after a given name (``Robert "Bobby" Lane``).
NICKNAMES = """Bobby Bud Buddy Sonny Skip Red Chip Butch Duke Sunny Dottie Peggy Patsy Bea Midge
Kit Dodie Babs Ginger Smiley Tiny Junior Gus Hank Kiki Lulu Bunny Frankie Sully Mack Pip Bertie
Nan Dolly Ziggy Ace Doc"""

#: Surnames of other countries and spellings (``O'Brien``, ``Van der Berg``).
SURNAMES = """O'Brien|O'Sullivan|O'Connor|McCarthy|MacDonald|McLaughlin|Fitzgerald|Byrne|
Walsh|Doyle|Kavanagh|Gallagher|Llewellyn|Pritchard|Hughes|Vaughan|Cartwright|Thistlethwaite|
Featherstonehaugh|Ramsbottom|Ackroyd|Patel|Sharma|Iyer|Nair|Singh|Kaur|Reddy|Chatterjee|
Banerjee|Krishnamurthy|Venkataraman|Choudhury|Mukherjee|Gill|Sandhu|Dhillon|Choi|Park|Kim|
Nguyen|Tran|Pham|Tremblay|Gagnon|Bouchard|Cote|Pelletier|Lavoie|Van der Berg|Van Wyk|
De Souza|Fernandes|D'Souza|Kowalski|Nowak|Wisniewski|Adeyemi|Okafor|Mensah|Tuilagi|
Ngata|Whitehead|Haddad|Khoury|Nakamura|Tanaka|Zhou|Huang|Ashworth|Greenhalgh"""

#: Towns by country: ``UK``, ``IE``, ``AU``, ``CA``, ``IN``, ``US`` (the US ones joined by a hyphen
#: with ``St.``; other US towns come from the gazetteers).
TOWNS = {
    "UK": """Stoke-on-Trent|Henley-on-Thames|Southend-on-Sea|Newcastle upon Tyne|Weston-super-Mare|
Ashby-de-la-Zouch|Bishop's Stortford|Bury St Edmunds|Royal Tunbridge Wells|Milton Keynes|
Stratford-upon-Avon|Burton upon Trent|Kingston upon Hull|Chapel-en-le-Frith|Leeds|Sheffield|
Swindon|Wolverhampton|Kidderminster|Aberystwyth|Llandudno|Dumfries|Inverness|Kirkcaldy|Truro|
Barnsley|Rotherham|Wigan|Doncaster|Harrogate|Scunthorpe|Stockport|Bolton|Bangor|Merthyr Tydfil|
Paisley|Motherwell|Hartlepool|Ipswich|Colchester|Reading|Slough|Luton|Stevenage|Whitby|Penrith""",
    "IE": """Dun Laoghaire|Ballina|Clonmel|Athlone|Letterkenny|Mullingar|Carrick-on-Shannon|Drogheda|
Tralee|Ennis|Kilkenny|Castlebar|Navan|Portlaoise|Tullamore|Bray|Swords|Dundalk|Sligo|Wexford|
Carrick-on-Suir|Newbridge|Naas|Killarney""",
    "AU": """Wagga Wagga|Toowoomba|Ballarat|Bendigo|Wollongong|Parramatta|Fremantle|Geelong|
Townsville|Kalgoorlie|Coffs Harbour|Dubbo|Mildura|Launceston|Bundaberg|Rockhampton|Shepparton|
Gosford|Penrith|Wodonga|Alice Springs|Port Macquarie""",
    "CA": """Trois-Rivieres|Saint-Jerome|Mississauga|Saskatoon|Moncton|Kamloops|Sault Ste. Marie|
Thunder Bay|Niagara-on-the-Lake|Rouyn-Noranda|Riviere-du-Loup|Sherbrooke|Red Deer|Brandon|
Lethbridge|Nanaimo|Fredericton|Charlottetown|Whitehorse|Sudbury|Kelowna|Medicine Hat""",
    "IN": """Thiruvananthapuram|Pune|Nagpur|Coimbatore|Visakhapatnam|Navi Mumbai|Vijayawada|Mysuru|
Kochi|Madurai|Ludhiana|Jalandhar|Guwahati|Bhubaneswar|Dehradun|Shimla|Udaipur|Mangaluru|
Hubballi|Tiruchirappalli|Puducherry|Varanasi""",
    "US": """Wilkes-Barre|Winston-Salem|Sedro-Woolley|Hastings-on-Hudson|Croton-on-Hudson|
Lauderdale-by-the-Sea|Coeur d'Alene|Sault Ste. Marie|Truth or Consequences|Bird-in-Hand|
Port St. Lucie|St. Louis Park|Ho-Ho-Kus|Mechanicsburg|Scranton""",
}

#: Counties, states and provinces by country (i2b2 STATE).
REGIONS = {
    "UK": """Staffordshire|Oxfordshire|Essex|Somerset|Leicestershire|Hertfordshire|Suffolk|Kent|
West Yorkshire|South Yorkshire|Tyne and Wear|Cornwall|Cumbria|Gwynedd|Fife|Lanarkshire|Devon|
Norfolk|Lancashire|Shropshire""",
    "IE": """Co. Cork|Co. Mayo|Co. Tipperary|Co. Westmeath|Co. Donegal|Co. Louth|Co. Kerry|Co. Clare|
Co. Kildare|Co. Wicklow|County Galway|County Meath|Co Sligo|Co Offaly""",
    "AU": "NSW VIC QLD WA SA TAS ACT NT|New South Wales|Victoria|Queensland|Tasmania",
    "CA": "ON QC BC AB MB SK NS NB PEI NL|Ontario|Quebec|British Columbia|Alberta|Manitoba|Nova Scotia",
    "IN": """Kerala|Maharashtra|Tamil Nadu|Andhra Pradesh|Karnataka|Punjab|Assam|Odisha|Uttarakhand|
Himachal Pradesh|Rajasthan|Uttar Pradesh""",
}

#: First words of street names outside the US (a full street is ``14 Wexford Road``).
STREET_BASES = """Wexford Kings Queens Station Church Victoria Albert High Mill Bridge Castle Abbey
Priory Chapel Manor Vicarage Rectory Orchard Meadow Glebe Hawthorn Rowan Heather Bracken Gorse
Larch Beech Sycamore Chestnut Primrose Bluebell Foxglove Thornbury Ashgrove Elmfield Greenbank
Brookfield Parkside Riverside Lakeview Hilltop Coronation Jubilee Regent Princes Marine Esplanade
Harbour Quarry Tannery Forge Wharf Bell Swan Crown Anchor Pearl Green Rose"""
STREET_SUFFIXES = """Road|Street|Lane|Close|Crescent|Way|Drive|Avenue|Terrace|Gardens|Grove|Mews|
Rd|St|Ave|Cres|Cl|Place|Court|Row|Walk|Hill|Parade|Green|Rise|Square|View|Wynd"""

#: Hospitals in lower case as a ward note writes them (``st luke's``, ``mercy general``).
HOSPITAL_SHORT = """st luke's|st mary's|st vincent's|st james's|st thomas'|st brigid's|mercy general|
mercy|the royal|good sam|sacred heart|holy cross|st joe's|
royal infirmary|the children's|providence|the mater|the rotunda|the coombe|
the alfred|the austin|st george's|st pat's|the women's"""
#: Saints that name hospitals, schools and churches (``St Brigid's``).
SAINTS = """Luke Mary Vincent James Thomas Brigid Patrick Joseph Anne Catherine Columba Aidan Kevin
Finbarr Kieran Margaret Andrew David George Helen Michael Jude Clare Bernadette Oliver"""
#: What follows a town or a word in a hospital's name outside the US.
HOSPITAL_TAILS = """General Hospital|Royal Infirmary|University Hospital|Community Hospital|
District General Hospital|Base Hospital|Regional Hospital|Memorial Hospital|Health Centre|
Medical Centre|Medical Practice|Hospice|Private Hospital|Mental Health Unit"""
#: What follows a word in an employer's name (``Ridgeline Freight``).
EMPLOYER_TAILS = """Freight|Haulage|Logistics|Ltd|Plumbing|Joinery|Motors|Builders|Bakery|Dairy|
Farms|Engineering|Electrical|Transport|Couriers|Textiles|Foods|Fabrication|Meats|Timber|Mining|
Council|County Council|Borough Council|Shire Council|& Sons|Brothers|Co-op|Supermarket|Pharmacy|
Garage|Print|Software|Solutions|Security|Cleaning Services"""
#: Words that start an employer's or a school's name.
NAME_HEADS = """Ridgeline Northgate Harbourside Kestrel Pennine Cotswold Dales Ashgrove Redgate
Summerhill Oakleigh Thornfield Hazelwood Larkspur Bramble Copperfield Highfield Greystone
Westbury Eastfield Sandhurst Moorside Fairholme Riverbend Clearwater Silverdale Blackthorn"""
#: What follows a word in a school's name (``Ashgrove Primary School``).
SCHOOL_TAILS = """Primary School|Primary|Infant School|Junior School|High School|Secondary School|
Academy|Grammar School|Grammar|College|Community College|National School|Public School|
Elementary|Middle School|Sixth Form College|Catholic School|Grammar School for Girls|TAFE|
University|Polytechnic"""

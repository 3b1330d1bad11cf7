"""Word lists written by hand for crfdeid (MIT, like the project); read by build.py.

Each constant is a white-space separated string; ``|`` separates multi-word
entries where a list needs them. Nothing here comes from clinical notes.
"""

MONTHS = """January February March April May June July August September October
November December Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec"""

DAYS = """Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Tues Wed
Thu Thur Thurs Fri Sat Sun"""

HOLIDAYS = """New Year's Day|New Year's Eve|New Years|Martin Luther King Day|MLK Day|
Presidents Day|Presidents' Day|Valentine's Day|St. Patrick's Day|Easter|Easter Sunday|
Good Friday|Passover|Mother's Day|Memorial Day|Father's Day|Juneteenth|Independence Day|
Fourth of July|July 4th|Labor Day|Columbus Day|Rosh Hashanah|Yom Kippur|Halloween|
Veterans Day|Thanksgiving|Thanksgiving Day|Hanukkah|Chanukah|Christmas|Christmas Eve|
Christmas Day|Kwanzaa|Ramadan|Eid|Diwali|Lunar New Year|Chinese New Year|Boxing Day|
Mardi Gras|Ash Wednesday|Palm Sunday|Cinco de Mayo|Election Day|Super Bowl Sunday"""

# USPS Publication 28, appendix C1: common suffixes and their standard abbreviations.
STREET_SUFFIXES = """Alley Aly Avenue Ave Av Boulevard Blvd Bypass Byp Causeway Cswy Circle Cir
Court Ct Cove Cv Crescent Cres Crossing Xing Drive Dr Expressway Expy Extension Ext
Freeway Fwy Gardens Gdns Heights Hts Highway Hwy Hill Hl Junction Jct Lane Ln Loop
Manor Mnr Mews Parkway Pkwy Path Pike Place Pl Plaza Plz Point Pt Ridge Rdg Road Rd
Route Rte Row Run Square Sq Station Sta Street St Terrace Ter Trace Trce Trail Trl
Turnpike Tpke Valley Vly View Vw Walk Way Wy Green Grn Park Pk Landing Lndg Meadow
Mdw Pass Pointe Commons Cmns Center Ctr Estates Est Glen Gln Grove Grv Harbor Hbr
Knoll Knl Lake Lk Mill Ml Square Spur Summit Smt Vista Vis"""

STREET_BASES = """Main Oak Maple Pine Cedar Elm Walnut Chestnut Birch Willow Spruce Hickory
Poplar Magnolia Sycamore Cherry Dogwood Laurel Holly Juniper Aspen Cypress Hemlock
Washington Lincoln Jefferson Madison Franklin Adams Jackson Monroe Grant Harrison
Highland Lake Hill Park River Spring Meadow Forest Valley Ridge Sunset Sunrise
Church School Mill Bridge Water Market Center Union Liberty Pleasant Prospect
Summit Orchard Brook Fairview Lakeview Hillside Riverside Woodland Greenwood
Rosewood Briarwood Fox Deer Hawk Eagle Heron Quail Robin Sparrow Canyon Harbor
Bay Shore Ocean Beacon Colonial Country Meadowbrook Stonegate Windsor Cambridge
Oxford Hampton Lexington Concord Salem Dover Kingston Clinton Warren Marion Grove
Academy College Railroad Depot Canal Ferry Mountain Pond Creek Falls Glen Cliff
First Second Third Fourth Fifth Sixth Seventh Eighth Ninth Tenth Elmwood Oakwood
Pinecrest Crestview Bayview Westfield Northfield Southgate Eastgate Ashford Belmont"""

HOSPITAL_WORDS = """hospital hospitals medical center centre clinic clinics memorial general
saint st st. regional community university health healthcare infirmary sanatorium
institute rehabilitation rehab nursing home hospice children's childrens women's
veterans va county district mercy sacred heart baptist methodist presbyterian
lutheran episcopal adventist jewish deaconess samaritan good providence trinity
holy cross family medicine surgical surgery cancer cardiac heart eye ear
orthopedic psychiatric behavioral care urgent emergency outpatient ambulatory
specialty center's pavilion campus unit wing ward station icu ccu micu sicu
nicu picu csru ed er pacu or"""

HOSPITAL_HEADS = """Mercy|Sacred Heart|Good Samaritan|Providence|Trinity|Holy Cross|
St. Anne's|St. Luke's|St. Mary's|St. Joseph's|St. Vincent's|St. Francis|Saint Elizabeth|
Riverside|Lakeside|Hillcrest|Bayview|Northgate|Westbrook|Eastview|Southfield|Fairhaven|
Brookside|Greenfield|Oakridge|Pinecrest|Cedar Valley|Maple Grove|Willow Creek|Highland Park|
Summit|Harborview|Crestwood|Glenwood|Clearwater|Stonebridge|Silver Lake|Redwood|
Ashford|Kingsley|Wexford|Thornton|Pembroke|Hollister|Danforth|Whitfield|Bramwell|Caldwell"""

HOSPITAL_TAILS = """Hospital|Medical Center|General Hospital|Memorial Hospital|Regional Medical Center|
Community Hospital|University Hospital|Clinic|Health Center|Rehabilitation Hospital|
Children's Hospital|Nursing Home|Infirmary|Health System|Cancer Center|Heart Institute|
Rehabilitation Center|Hospice|Family Health Center|Women's Hospital"""

ORGANIZATION_WORDS = """inc inc. llc ltd co co. corp corp. corporation company group partners
associates foundation association society institute bank trust insurance
university college school academy church temple synagogue mosque parish
department agency bureau office services systems solutions industries
enterprises holdings labs laboratories pharmacy pharmaceuticals store stores
market supermarket restaurant cafe diner bakery factory mill plant shipyard
airline airlines railroad railway transit authority police fire station
army navy marines air force guard union local club league team center
ymca ywca church's council committee board commission fund"""

ORG_HEADS = """Acme|Apex|Summit|Pinnacle|Keystone|Liberty|Heritage|Frontier|Northstar|
Bluewater|Redstone|Granite|Ironwood|Silverline|Goldleaf|Evergreen|Crescent|Horizon|
Atlas|Beacon|Cornerstone|Harbor|Meridian|Pioneer|Sterling|Tristate|Union|Vanguard|
Westwind|Zenith|Bright Star|Blue Ridge|Green Valley|Oak Hill|River City|Lakeshore|
Twin Pines|Highpoint|Eastside|Northside|Southside|Westside|Central|Metro|Capital|
Coastal|Prairie|Mountain View|Sunbelt|Hometown"""

ORG_TAILS = """Logistics|Insurance|Bank|Credit Union|Construction|Manufacturing|Foods|
Bakery|Diner|Auto Repair|Trucking|Airlines|Realty|Hardware|Grocery|Pharmacy|
Elementary School|High School|Community College|University|Baptist Church|
Methodist Church|Fire Department|Police Department|Public Schools|Steel|Textiles|
Shipping|Printing|Dairy|Farms|Electric|Gas Company|Telephone Company|Motors|
Landscaping|Plumbing|Roofing|Daycare|Senior Center|Country Club|Golf Club|
Post Office|Library|Newspaper|Radio|Casino|Hotel|Restaurant|Cafe"""

PROFESSIONS = """accountant|actor|actress|actuary|administrator|agent|airline pilot|analyst|
architect|archivist|artist|assembler|astronaut|athlete|attorney|auditor|author|babysitter|
baker|bank teller|banker|barber|bartender|bookkeeper|bricklayer|builder|bus driver|butcher|
buyer|cab driver|cabinetmaker|carpenter|cartographer|cashier|caterer|chef|chemist|
chiropractor|civil engineer|cleaner|clergyman|clerk|coach|coal miner|commercial fisherman|
computer programmer|concierge|construction worker|consultant|contractor|cook|
correctional officer|cosmetologist|counselor|courier|crane operator|custodian|dancer|
data analyst|deckhand|delivery driver|dental assistant|dental hygienist|dentist|designer|
detective|dietitian|dishwasher|dispatcher|diver|dock worker|doorman|drafter|driver|
drywall installer|economist|editor|electrician|elementary school teacher|engineer|
entrepreneur|estimator|executive|factory worker|farmer|farmhand|fashion designer|file clerk|
financial advisor|firefighter|fireman|fisherman|flight attendant|florist|foreman|forester|
gardener|geologist|glazier|graphic designer|groundskeeper|guard|hairdresser|hairstylist|
handyman|health aide|historian|home health aide|homemaker|housekeeper|housewife|illustrator|
insurance agent|interior designer|interpreter|investigator|janitor|jeweler|journalist|judge|
kindergarten teacher|laborer|landscaper|laundry worker|lawyer|lecturer|librarian|lifeguard|
lineman|locksmith|longshoreman|machinist|mail carrier|mailman|maintenance worker|manager|
marine|mason|massage therapist|mathematician|mechanic|merchant|metalworker|midwife|
military officer|miner|minister|model|musician|nanny|naval officer|nurse|nurse's aide|
nursing assistant|nutritionist|occupational therapist|office manager|optician|optometrist|
painter|paralegal|paramedic|pastor|pathologist|pharmacist|photographer|physical therapist|
physician|physician assistant|physicist|pilot|pipefitter|plumber|police officer|policeman|
politician|postal worker|priest|principal|printer|prison guard|probation officer|professor|
programmer|property manager|psychologist|psychiatrist|publisher|rabbi|radiologist|
radiology technician|rancher|real estate agent|receptionist|recruiter|reporter|researcher|
respiratory therapist|restaurant manager|retail clerk|roofer|sailor|salesman|saleswoman|
sales representative|scientist|seamstress|secretary|security guard|sheet metal worker|
sheriff|shipbuilder|shoemaker|singer|social worker|software developer|software engineer|
soldier|speech therapist|statistician|steelworker|stockbroker|store manager|student|
surgeon|surveyor|tailor|tax preparer|taxi driver|teacher|teacher's aide|technician|
telemarketer|teller|therapist|tile setter|toolmaker|tour guide|translator|truck driver|
tutor|typist|upholsterer|urban planner|veterinarian|veterinary technician|waiter|waitress|
warehouse worker|watchmaker|web developer|welder|writer|youth counselor|zookeeper|
bus mechanic|school nurse|retired teacher|retired nurse|retired engineer|
retired police officer|retired firefighter|CNA|LPN|EMT|security officer|housecleaner|
child care worker|day care worker|construction manager|electrical engineer|
mechanical engineer|chemical engineer|hospital administrator|medical assistant|
lab technician|phlebotomist|pharmacy technician|x-ray technician|ultrasound technician|
bus aide|crossing guard|garbage collector|sanitation worker|meat cutter|line cook|
short order cook|dairy farmer|cattle rancher|fruit picker|migrant worker|logger|
sawmill worker|textile worker|shoe factory worker|auto mechanic|auto worker|
assembly line worker|forklift operator|heavy equipment operator|train conductor|
railroad engineer|ship captain|fishing boat captain|air traffic controller|
flight engineer|mortgage broker|loan officer|claims adjuster|underwriter|
investment banker|marketing manager|advertising executive|copywriter|proofreader|
film director|producer|cameraman|sound engineer|stagehand|comedian|magician|
professional golfer|tennis instructor|personal trainer|yoga instructor|dance instructor|
music teacher|piano teacher|art teacher|substitute teacher|guidance counselor|
school psychologist|college professor|graduate student|medical student|nursing student|
law student|research assistant|lab assistant|teaching assistant|postdoctoral fellow|
bus dispatcher|carpet installer|cement mason|chimney sweep|claims clerk|court reporter|
dog groomer|fitness trainer|funeral director|hotel clerk|ironworker|landlord|
lumberjack|mortician|office clerk|oil rig worker|painter and decorator|parking attendant|
pest control worker|pizza delivery driver|quality inspector|refinery worker|
school bus driver|shop owner|small business owner|stonemason|subway operator|
tree trimmer|valet|vending machine repairer|window washer|bank manager|
computer technician|it specialist|network administrator|systems analyst|
tattoo artist|theology professor|veteran|unemployed|disabled|retired|homemaker"""

# Words that look like names or places in notes but are not PHI: eponyms, drugs,
# devices, units, abbreviations, ward jargon.
CLINICAL_WORDS = """Swan-Ganz Swan Ganz Parkinson Parkinson's Foley Coumadin Alzheimer Alzheimer's
Hodgkin Hodgkin's Crohn Crohn's Cushing Addison Bell's Babinski Kernig Brudzinski
Murphy Murphy's McBurney Homan Homans Trendelenburg Fowler Sims Valsalva Heimlich
Glasgow Apgar Ranson Wells Child-Pugh Pugh Gleason Breslow Clark Bishop Braden
Norton Morse Richmond Ramsay Wernicke Korsakoff Guillain-Barre Guillain Barre
Bell Graves Hashimoto Raynaud Kawasaki Marfan Down Turner Klinefelter Tourette
Huntington Lou Gehrig Gehrig's Meniere Barrett Barrett's Mallory-Weiss Mallory Weiss
Zollinger-Ellison Whipple Roux-en-Y Roux Nissen Billroth Hartmann Pfannenstiel
Kocher Kussmaul Cheyne-Stokes Cheyne Stokes Korotkoff Levine Austin Flint Graham
Steell Wolff-Parkinson-White Mobitz Wenckebach Brugada Osborn Holter Doppler
Hickman Quinton Groshong Broviac Passy-Muir Passy Diff PICC Port-a-cath Mediport Jackson-Pratt JP Hemovac Blake
Penrose Salem Sump Dobhoff Corpak Levin Miller Macintosh Ambu BiPAP CPAP Bair Hugger
Pleurevac Ohio Pneumovax Heparin Lovenox Warfarin Plavix Aspirin ASA Tylenol
Motrin Advil Lasix Lopressor Metoprolol Captopril Lisinopril Norvasc Zocor Lipitor
Protonix Pepcid Zantac Nexium Prilosec Colace Senna Dulcolax Ativan Haldol Versed
Fentanyl Morphine Dilaudid Percocet Vicodin Oxycodone Neurontin Dilantin Keppra
Depakote Tegretol Lamictal Zoloft Prozac Paxil Celexa Lexapro Wellbutrin Seroquel
Zyprexa Risperdal Ambien Insulin Lantus Humalog NovoLog Regular NPH Glucophage
Metformin Glipizide Zosyn Vancomycin Vanco Levaquin Cipro Flagyl Bactrim Keflex
Ancef Ceftriaxone Rocephin Zithromax Azithromycin Unasyn Meropenem Gentamicin
Tobramycin Fluconazole Diflucan Acyclovir Prednisone Solumedrol Decadron Albuterol
Atrovent Combivent Flovent Advair Spiriva Digoxin Amiodarone Diltiazem Cardizem
Nitroglycerin NTG Nitro Dopamine Dobutamine Levophed Neo-Synephrine Neo Vasopressin
Propofol Diprivan Precedex Nimbex Vecuronium Succinylcholine Narcan Flumazenil
Kayexalate Calcium Gluconate Magnesium Potassium KCL KPhos Sodium Bicarbonate
Albumin PRBC FFP Platelets Cryo TPN PPN Ensure Jevity Promote Nepro Glucerna
Pulmocare Impact Peptamen Boost Normal Saline NS LR D5W D5NS Thiamine Folate MVI
Synthroid Levothyroxine Allopurinol Colchicine Flomax Proscar Detrol Aricept
Namenda Sinemet Requip Mirapex Xanax Klonopin Valium Restoril Benadryl Phenergan
Zofran Reglan Compazine Imodium Lomotil Carafate Sucralfate Maalox Mylanta
mg mcg g kg ml mL cc L dL mmHg mEq meq units U IU gtt gtts tab tabs cap caps
po PO pr PR iv IV im IM sc SC sq SQ SL ng NG ngt NGT ogt OGT peg PEG prn PRN qd QD
bid BID tid TID qid QID qhs QHS qod QOD hs HS ac AC pc PC stat STAT npo NPO
HR BP RR SpO2 SaO2 FiO2 PEEP PS CPAP SIMV AC IMV TV Vt RSBI ABG VBG CO2 pCO2 pO2
WBC RBC Hct HCT Hgb HGB Plt PLT INR PT PTT BUN Cr Creat Na K Cl Mg Ca Phos Gluc
ALT AST LDH CK CPK MB Trop Troponin BNP Lactate Lytes CBC BMP CMP UA LFTs
CXR CT MRI MRA EKG ECG ECHO TTE TEE EEG EMG KUB US IVC SVC RA RV LA LV EF
CABG PCI PTCA MI CHF COPD CAD HTN DM IDDM NIDDM CRF ESRD ARF AKI CKD UTI URI PNA
DVT PE GI GU CNS MS ICU CCU MICU SICU CSRU NICU PACU ED ER OR EMS EMT ETT ET
MAE PERRL PERRLA CTA RRR NSR SR ST SB AF AFib VT VF PVC PAC PAD PVD TIA CVA
NKDA NKA ROS HPI PMH PSH SH FH ADL ADLs OOB DNR DNI CMO PCP SNF LTC VNA PT OT
alert oriented lethargic sedated restless agitated calm cooperative confused
afebrile febrile tachycardic bradycardic hypotensive hypertensive diaphoretic
stable unstable intubated extubated suctioned ambulating voiding incontinent
rhonchi crackles rales wheezes diminished clear coarse edema pitting trace
pulses palpable dopplerable dressing incision drainage serosanguinous sanguinous
bilious guaiac heme stool urine output foley drain chest tube sheath line
a-line art line cvl cordis introducer pacer wires epicardial transvenous
neuro cardiac resp pulm renal endo heme ID skin social dispo plan assessment
impression diagnosis history physical exam allergies medications labs vitals
admission discharge followup follow-up consult pending negative positive
Gram Ziehl-Neelsen Wright Giemsa Papanicolaou Pap Mantoux PPD Tine Schilling
Coombs Kleihauer Westergren Fick Frank-Starling Starling Bainbridge Bezold
Jarisch Cushing's Horner Horner's Argyll Robertson Romberg Rinne Weber Snellen
Allen Allen's Phalen Tinel Lachman McMurray Thompson Finkelstein Spurling Hoffmann
Hoffman Chvostek Trousseau Grey Turner Cullen Rovsing Psoas Obturator Kehr
Virchow Virchow's Sister Mary Joseph Krukenberg Blumer Meckel Meckel's Zenker
Hirschsprung Wilms Ewing Burkitt Kaposi Merkel Paget Paget's Bowen Reed-Sternberg
Sternberg Auer Howell-Jolly Heinz Pappenheimer Dohle Charcot Charcot-Leyden Leyden
Curschmann Lewy Pick Creutzfeldt-Jakob Jakob Gerstmann Tay-Sachs Sachs Gaucher
Niemann Fabry Pompe Wilson Wilson's Menkes Hunter Hurler Sanfilippo Morquio
Ehlers-Danlos Ehlers Danlos Sjogren Sjogren's Behcet Reiter Still Still's Felty
Wegener Wegener's Churg-Strauss Takayasu Buerger Henoch-Schonlein Schonlein
Goodpasture Alport Berger Fanconi Bartter Gitelman Liddle Conn Conn's Nelson
Sheehan Kallmann Prader-Willi DiGeorge Bruton Wiskott-Aldrich Chediak-Higashi
Stevens-Johnson Johnson Lyme Rocky Mountain Epstein-Barr Epstein Barr Coxsackie
Norwalk Legionella Klebsiella Pseudomonas Enterococcus Staph Strep MRSA VRE
C.diff Clostridium Candida Aspergillus Pneumocystis PCP Serratia Proteus Acinetobacter"""

# Head nouns of clinical terms named after a person or a place ("Murphy sign", "Glasgow Coma
# Scale", "Foley catheter", "Parkinson disease"): an eponym right before one is no PHI.
CLINICAL_HEADS = """sign signs disease diseases syndrome syndromes scale score scores coma criteria
catheter catheters cath tube tubes drain drains line lines reflex reflexes maneuver manoeuvre test tests
procedure operation repair classification stage staging fracture fractures lymphoma palsy phenomenon
triad murmur node nodes cell cells body bodies ulcer ulcers bag bags boot boots collar stockings
mask pump filter valve shunt position equation formula rule rules law protocol respiration
respirations breathing fistula hernia cyst cysts aneurysm tumor tumour sarcoma leukemia dementia
encephalopathy deformity contracture esophagus diverticulum solution ringer's ringers lactate
suture sutures stitch forceps blade retractor dressing gauze tape splint cast walker cane
chair bed mattress pillow mouthpiece valve speaking sponge trach tracheostomy airway
block anastomosis fundoplication resection incision approach technique method index ratio
curve effect disorder lesion lesions nodule nodules spots pearls rings loop loops
thyroiditis encephalitis hepatitis arteritis vasculitis colitis ileitis esophagitis
angina infarct infarction sclerosis dystrophy myopathy neuropathy anemia anaemia"""

TITLES = """Dr Dr. Doctor Mr Mr. Mrs Mrs. Ms Ms. Miss Mx Prof Prof. Professor Sr Sr.
Jr Jr. II III IV MD M.D. DO D.O. RN R.N. NP PA PA-C CNA LPN RRT RT PharmD PhD
Ph.D. MSW LICSW LCSW DDS DMD Rev Rev. Father Sister Nurse Attending Resident
Intern Fellow Hon Hon. Sgt Capt Lt Col Gen"""

RELATIONS = """wife husband son daughter mother father mom dad brother sister
grandson granddaughter grandmother grandfather grandma grandpa aunt uncle niece
nephew cousin friend neighbor neighbour partner fiance fiancee girlfriend boyfriend
spouse sibling stepson stepdaughter stepmother stepfather guardian caregiver
son-in-law daughter-in-law mother-in-law father-in-law sister-in-law brother-in-law
proxy hcp family children kids"""

# Function words that are never PHI on their own: a predicted span of nothing but these,
# punctuation and one letter is dropped (crfdeid/recognizers/hygiene.py). Words that are
# also names or months (May, Will, Don, Art) are left out on purpose.
STOP_WORDS = """a an the and or nor but of to in on at by for with from into onto upon
over under as is are was were be been being am has have had do does did not no yes
this that these those it its he she him her his hers they them their theirs we us our
ours you your yours i me my mine who whom whose which what when where why how there here
than then so if per via s x w/ w/o c/o re also too very just only all any some each
both either neither other such same own more most less than up down out off about
after before again further once"""

# Clinical scales and scores: a number right after one of these (or after "scale", "score",
# "grade", "class", "stage") is a score, never PHI (crfdeid/recognizers/clinical.py).
CLINICAL_SCALES = """GCS RASS CIWA CIWA-Ar APGAR NIHSS MELD CHADS2 CHA2DS2-VASc HAS-BLED NYHA ASA
SOFA qSOFA APACHE MMSE MoCA TIMI CURB-65 Killip ECOG Karnofsky KPS Braden Morse Ramsay
Richmond Mallampati Fisher Hunt-Hess Gleason Bishop Aldrete Borg Wells PHQ-9 GAD-7 CAM-ICU
BPS CPOT FLACC PAINAD FIM mRS Rankin Ranson Child-Pugh Apfel Caprini STOP-BANG Norton
Waterlow Barthel NRS VAS Glasgow scale score scores grade class stage"""

# Issue 34: public clinical vocabulary the shipped model took for PHI. Written for crfdeid from
# general clinical knowledge (textbook eponyms, products on public labels, the names of hospital
# services), never from a corpus. Multi-word entries are split by "|".

# Eponyms and place-named terms of medicine: signs, syndromes, fractures, rules, scores, grades,
# protocols, procedures, devices and instruments named after a person or a place.
EPONYMS = """Wolff-Parkinson-White|WPW|Holter|Holter monitor|Colles|Colles fracture|Smith fracture|Barton fracture|
Monteggia|Galeazzi|Bennett|Rolando|Boxer fracture|Jones fracture|Maisonneuve|Lisfranc|Chopart|Jefferson fracture|
Hangman fracture|Chance fracture|Salter-Harris|Weber|Garden|Pipkin|Schatzker|Neer|Hill-Sachs|Bankart|Segond|
Ottawa ankle rules|Ottawa knee rules|Ottawa rules|Canadian C-spine rule|Canadian CT head rule|NEXUS|
San Francisco syncope rule|PERC|Wells|Geneva score|Nottingham grade|Bloom-Richardson|Gleason|Breslow|Clark|
Dukes|Ann Arbor|Lugano|Rai|Binet|Durie-Salmon|Bethesda|Bosniak|Fleischner|Lung-RADS|BI-RADS|TI-RADS|LI-RADS|
Bruce|Bruce protocol|modified Bruce|Naughton|Balke|Duke|Duke criteria|Duke treadmill score|Jones criteria|
Light criteria|Light's criteria|Ranson|Glasgow|Glasgow-Blatchford|Blatchford|Rockall|Forrest|Los Angeles grade|
Savary-Miller|Prague criteria|Boston bowel preparation scale|Mayo|Mayo score|Truelove|Harvey-Bradshaw|
Montreal classification|
Child-Pugh|Child-Turcotte-Pugh|Killip|Forrester|Stanford|DeBakey|Crawford|Spetzler-Martin|Hunt and Hess|Fisher|
Hunt-Hess|Rankin|modified Rankin|Barthel|Katz|Lawton|Folstein|Montreal Cognitive Assessment|Hamilton|
Montgomery-Asberg|Beck|Edinburgh|Edmonton|Karnofsky|Zubrod|Lansky|Ashworth|Tardieu|Brunnstrom|Berg|Tinetti|
Braden|Morse|Norton|Waterlow|Richmond|Riker|Ramsay|Aldrete|Mallampati|Cormack-Lehane|Apgar|Ballard|Dubowitz|
Silverman|Tanner|Denver developmental screen|Bayley|Wechsler|Stanford-Binet|Snellen|Jaeger|Ishihara|Amsler|
Schirmer|Seidel|Rinne|
Dix-Hallpike|Epley|Semont|Romberg|Unterberger|Fukuda|Babinski|Hoffmann|Hoffman|Kernig|Brudzinski|Lasegue|
Patrick|FABER|Gaenslen|Thomas test|Ober|Trendelenburg|Lachman|McMurray|Apley|Thessaly|Finkelstein|Phalen|Tinel|
Durkan|Froment|Allen test|Adson|Wright test|Roos|Spurling|Lhermitte|Hawkins|Hawkins-Kennedy|Jobe|Speed test|
Yergason|O'Brien test|Neer test|Murphy|Murphy sign|McBurney|Rovsing|Psoas sign|Obturator sign|Blumberg|Carnett|
Grey Turner|Cullen|Kehr|Courvoisier|Virchow|Virchow node|Sister Mary Joseph|Trousseau|Chvostek|Homans|Kussmaul|
Cheyne-Stokes|Biot|Austin Flint|Graham Steell|Duroziez|Quincke|de Musset|Corrigan|Traube|Osler|Osler node|
Janeway|Janeway lesions|Roth|Roth spots|Kayser-Fleischer|Argyll Robertson|Marcus Gunn|Horner|Horner syndrome|
Brown-Sequard|Bell palsy|Bell's palsy|Erb|Erb palsy|Klumpke|Saturday night palsy|Parkinson|Parkinson disease|
Alzheimer|Huntington|Lou Gehrig|Guillain-Barre|Miller Fisher|Lambert-Eaton|Creutzfeldt-Jakob|Wernicke|Korsakoff|
Todd|Todd paralysis|Charcot|Charcot foot|Charcot-Marie-Tooth|Duchenne|Becker|Friedreich|Tourette|Asperger|Rett|
Down|Down syndrome|Turner|Klinefelter|Marfan|Ehlers-Danlos|Noonan|Williams|Angelman|Prader-Willi|DiGeorge|
Crohn|Hirschsprung|Meckel|Zenker|Barrett|Barrett esophagus|Mallory-Weiss|Boerhaave|Plummer-Vinson|Schatzki|
Whipple|Whipple procedure|Nissen|Nissen fundoplication|Toupet|Heller|Billroth|Roux-en-Y|Hartmann|Hartmann pouch|
Kasai|Ladd|Puestow|Frey|Beger|Sugiura|Kock pouch|Indiana pouch|Mitrofanoff|Bricker|Studer|Pfannenstiel|
Kocher|Chevron|Lanz|Rockey-Davis|Maylard|Lichtenstein|Shouldice|Bassini|McVay|Stoppa|Graham patch|
Fontan|Glenn|Norwood|Blalock-Taussig|Sano|Rastelli|Ross|Ross procedure|Bentall|David procedure|Maze|Cox-Maze|
Konno|Jatene|Mustard|Senning|Ebstein|Eisenmenger|Fallot|tetralogy of Fallot|Kawasaki|Takayasu|Buerger|Raynaud|
Wegener|Churg-Strauss|Henoch-Schonlein|Behcet|Sjogren|Still disease|Felty|Reiter|Kaposi|Hodgkin|non-Hodgkin|
Burkitt|Ewing|Wilms|Merkel|Paget|Bowen|Waldenstrom|Zollinger-Ellison|Cushing|Addison|Conn|Graves|Hashimoto|
de Quervain|Riedel|Sheehan|Kallmann|Nelson|Bartter|Gitelman|Liddle|Fanconi|Alport|Berger|Goodpasture|
Wilson disease|Gaucher|Fabry|Pompe|Niemann-Pick|Tay-Sachs|Hurler|Hunter|Gilbert|Crigler-Najjar|Dubin-Johnson|
Budd-Chiari|Caroli|Osgood-Schlatter|Legg-Calve-Perthes|Perthes|Scheuermann|Kienbock|Sever|Dupuytren|Peyronie|
Baker cyst|Bartholin|Skene|Morton neuroma|Achilles|Heberden|Bouchard|Tietze|Mondor|Stevens-Johnson|Lyme|
Rocky Mountain spotted fever|West Nile|Ebola|Marburg|Lassa|Epstein-Barr|Coxsackie|Norwalk|Ross River|Zika|
Chikungunya|Hantavirus|Legionella|Gram stain|Ziehl-Neelsen|Wright stain|Giemsa|Papanicolaou|Pap smear|Mantoux|
Coombs|Kleihauer-Betke|Westergren|Schilling|Fick|Frank-Starling|Bezold-Jarisch|Valsalva|Muller maneuver|
Heimlich|Sellick|Kocher maneuver|Pringle|Seldinger|Swan-Ganz|Swan|Hickman|Broviac|Groshong|Quinton|Mahurkar|
Tenckhoff|Foley|Coude|Malecot|Pigtail|Penrose|Jackson-Pratt|JP drain|Blake drain|Hemovac|Pleurx|Heimlich valve|
Salem sump|Dobhoff|Corpak|Levin tube|Miller blade|Macintosh blade|Mac blade|Ambu|Bair Hugger|Passy-Muir|Shiley|
Portex|Bivona|Montgomery|Minerva|Philadelphia collar|Miami J|Aspen collar|Halo|Thomas splint|Buck traction|
Bryant traction|Sugar-tong|Jones dressing|Unna boot|Ace wrap|Ilizarov|Harrington|Steinmann pin|Kirschner wire|
K-wire|Gigli saw|Kelly clamp|Allis|Babcock|Metzenbaum|Mayo scissors|Adson forceps|DeBakey forceps|Richardson|
Deaver|Balfour|Bookwalter|Weitlaner|Gelpi|Yankauer|Frazier|Poole|Veress|Hasson|Trendelenburg position|
Fowler|Semi-Fowler|Sims position|Doppler|Korotkoff|Levine sign|Levine grade|Mobitz|Wenckebach|Brugada|Osborn|
Lown-Ganong-Levine|Bazett|Framingham|Sokolow-Lyon|Cornell|Romhilt-Estes|Sgarbossa|Wellens|de Winter|
Cabrera|Einthoven|Goldberger|Wilson leads|Lewis lead|Mason-Likar|Starling|Poiseuille|Laplace|Henderson-Hasselbalch|
Winter formula|Cockcroft-Gault|Parkland|Parkland formula|Lund-Browder|Brooke formula|Holliday-Segar|Mosteller|
Du Bois|Friedewald|Harris-Benedict|Mifflin-St Jeor|Devine|Hamwi|Rule of nines|Berlin criteria|
Atlanta classification|Tokyo guidelines|Milan criteria|Denver shunt|LeVeen|Sengstaken-Blakemore|Minnesota tube|Linton|
Watchman|MitraClip|Impella|HeartMate|HeartWare|Zio|Zio patch|LifeVest|Micra|Mobitz II|Lugol|Dakin|Burow|
Whitfield|Castellani|Ringer|lactated Ringer|Hartmann solution|Hank|Krebs|Tyrode|Plasma-Lyte"""

# Brand names of drugs, devices and supplies, and their makers; cars (as in an accident
# history). Public product names as printed on labels; the names of the one-word drugs are in
# drug_names (built from a public dictionary), this list adds what it lacks.
BRAND_NAMES = """Humira|Norco|Enbrel|Remicade|Stelara|Otezla|Xeljanz|Rinvoq|Skyrizi|Taltz|Cosentyx|Dupixent|
Ozempic|Wegovy|Mounjaro|Zepbound|Trulicity|Victoza|Jardiance|Farxiga|Invokana|Januvia|Janumet|Tradjenta|
Eliquis|Xarelto|Pradaxa|Savaysa|Brilinta|Effient|Entresto|Repatha|Praluent|Leqvio|Nexletol|Vascepa|
Keytruda|Opdivo|Tecentriq|Imfinzi|Yervoy|Herceptin|Avastin|Rituxan|Revlimid|Imbruvica|Ibrance|Tagrisso|
Biktarvy|Genvoya|Descovy|Truvada|Triumeq|Dovato|Harvoni|Epclusa|Mavyret|Paxlovid|Lagevrio|Tamiflu|Xofluza|
Narcan|Suboxone|Subutex|Sublocade|Vivitrol|Chantix|Nicorette|Nicoderm|Percocet|Vicodin|Lortab|Dilaudid|
OxyContin|MS Contin|Duragesic|Ultram|Nucynta|Tylenol|Motrin|Advil|Aleve|Excedrin|Mucinex|Robitussin|Sudafed|
Claritin|Zyrtec|Allegra|Flonase|Nasonex|Singulair|Symbicort|Advair|Breo|Trelegy|Spiriva|Anoro|Stiolto|Incruse|
ProAir|Ventolin|Proventil|Xopenex|DuoNeb|Pulmicort|Qvar|Dulera|Lasix|Bumex|Demadex|Aldactone|Coreg|Toprol|
Lopressor|Norvasc|Cardizem|Zestril|Prinivil|Cozaar|Diovan|Benicar|Lipitor|Crestor|Zocor|Pravachol|Zetia|
Plavix|Coumadin|Jantoven|Lovenox|Arixtra|Synthroid|Levoxyl|Armour Thyroid|Lantus|Basaglar|Toujeo|Levemir|
Tresiba|Humalog|Novolog|Admelog|Apidra|Fiasp|Lyumjev|Humulin|Novolin|Glucophage|Glucotrol|Amaryl|Actos|
Protonix|Nexium|Prilosec|Pepcid|Zantac|Carafate|Reglan|Zofran|Phenergan|Compazine|Colace|Senokot|Miralax|
Dulcolax|Lactulose|Xifaxan|Creon|Zenpep|Ativan|Xanax|Klonopin|Valium|Restoril|Ambien|Lunesta|Belsomra|
Seroquel|Zyprexa|Risperdal|Abilify|Geodon|Latuda|Invega|Haldol|Clozaril|Depakote|Lamictal|Keppra|Dilantin|
Tegretol|Trileptal|Topamax|Neurontin|Lyrica|Vimpat|Briviact|Aricept|Namenda|Sinemet|Requip|Mirapex|Azilect|
Zoloft|Prozac|Paxil|Celexa|Lexapro|Effexor|Pristiq|Cymbalta|Wellbutrin|Remeron|Trintellix|Buspar|Adderall|
Ritalin|Concerta|Vyvanse|Strattera|Flomax|Proscar|Avodart|Detrol|Ditropan|Myrbetriq|Vesicare|Viagra|Cialis|
Fosamax|Boniva|Prolia|Xgeva|Evenity|Forteo|Tymlos|Premarin|Estrace|Provera|Depo-Provera|Nexplanon|Mirena|
Kyleena|Paragard|Yaz|Yasmin|Ortho Tri-Cyclen|Plan B|Diflucan|Valtrex|Zovirax|Keflex|Augmentin|Zithromax|
Z-Pak|Levaquin|Cipro|Bactrim|Macrobid|Flagyl|Zosyn|Rocephin|Ancef|Unasyn|Vancocin|Dificid|Cubicin|Zyvox|
Tygacil|Merrem|Invanz|Cleocin|Doryx|Minocin|Medrol|Solu-Medrol|Decadron|Deltasone|Kenalog|Depo-Medrol|
Benadryl|Atarax|Vistaril|Imodium|Lomotil|Pedialyte|Ensure|Boost|Glucerna|Jevity|Nepro|Osmolite|Vital|Peptamen|
Pulmocare|Promote|Isosource|Juven|Prosource|Beneprotein|Thick-It|SimplyThick|Epogen|Procrit|Aranesp|Neupogen|
Neulasta|Venofer|Feraheme|Injectafer|Infed|Renvela|Renagel|PhosLo|Sensipar|Zemplar|Hectorol|Calcitriol|
Medtronic|Boston Scientific|Abbott|St. Jude Medical|St Jude|Biotronik|Sorin|LivaNova|Zoll|Philips|Respironics|
ResMed|Fisher & Paykel|Dexcom|Freestyle Libre|Libre|Guardian|Omnipod|Tandem|t:slim|Accu-Chek|OneTouch|Contour|
Baxter|Alaris|Sigma|Hospira|B. Braun|Fresenius|NxStage|Gambro|Prismaflex|Hill-Rom|Stryker|Zimmer|Biomet|
Zimmer Biomet|DePuy|DePuy Synthes|Synthes|Smith & Nephew|Arthrex|Wright Medical|Exactech|Globus|NuVasive|
Cook|Bard|Covidien|Ethicon|Olympus|Pentax|Fujifilm|Hologic|GE Healthcare|Siemens|Siemens Healthineers|Canon|
Edwards|Edwards Lifesciences|Abiomed|Medline|Cardinal Health|McKesson|Hollister|Coloplast|ConvaTec|Kendall|
3M|Tegaderm|Mepilex|Aquacel|Allevyn|DuoDERM|Xeroform|Kerlix|Coban|Steri-Strips|Dermabond|Prevena|V.A.C.|
Wound VAC|Flexi-Seal|Purewick|Primofit|Sage|Sequential|SCDs|Venodyne|Kendall SCD|Arjo|Maxi Move|Hoyer|
Azure|Azure XT|Azure XT DR|Micra AV|Evera|Visia|Claria|Amplia|Cobalt|Crome|Percepta|Serena|Advisa|Revo|
Accolade|Essentio|Proponent|Valitude|Visionist|Resonate|Vigilant|Momentum|Autogen|Emblem|Assurity|Endurity|
Ellipse|Gallant|Neutrino|Entrant|Quadra|Allure|Edora|Evia|Rivacor|Amvia|Reveal LINQ|LINQ II|Confirm Rx|
Jot Dx|BioMonitor|Kardia|KardiaMobile|Apple Watch|Fitbit|Amulet|Sapien|Sapien 3|CoreValve|Evolut|Evolut R|
Evolut PRO|Portico|Navitor|Acurate|Lotus|Xience|Resolute|Resolute Onyx|Onyx Frontier|Synergy|Promus|Orsiro|
Ultimaster|Absorb|Taxus|Cypher|Endeavor|Vision|Multi-Link|Integrity|Driver|Emerge|Trek|Sprinter|NC Trek|
Euphora|Angio-Seal|Perclose|ProGlide|StarClose|Mynx|FemoStop|TR Band|Impella CP|Impella 5.5|Tandem Heart|
CardioMEMS|HeartMate 3|HeartMate II|HVAD|Barostim|Inspire|Optune|Neuropace|RNS|VNS|Percept|Activa|Intellis|
Evoke|Proclaim|Infinity|Vercise|Senza|Spectra|WaveWriter|SynchroMed|Prometra|InterStim|Axonics|Cochlear|
Nucleus|Kanso|Baha|Oticon|Phonak|Ford|Chevrolet|Chevy|Toyota|Honda|Nissan|Subaru|Jeep|Dodge|Chrysler|Buick|
Cadillac|GMC|Pontiac|Oldsmobile|Plymouth|Hyundai|Kia|Mazda|Mitsubishi|Volkswagen|VW|BMW|Mercedes|
Mercedes-Benz|Audi|Volvo|Tesla|Lexus|Acura|Infiniti|Porsche|Jaguar|Land Rover|Range Rover|Mini Cooper|Fiat|
Harley|Harley-Davidson|Yamaha|Kawasaki motorcycle|Ducati|Camry|Corolla|Civic|Accord|Altima|Sentra|F-150|
Silverado|Ram|Tacoma|Tundra|Wrangler|Grand Cherokee|Cherokee|Explorer|Escape|Focus|Fusion|Mustang|Malibu|
Impala|Equinox|Tahoe|Suburban|Outback|Forester|Prius|RAV4|CR-V|Odyssey|Sienna|Caravan|Pacifica|Model 3|Model Y"""

# Hospital departments, services, clinics and the headers notes are written under, as a
# hospital names them (upper, Title and lower case all occur).
DEPARTMENTS = """Internal Medicine|Family Medicine|General Medicine|Hospital Medicine|Hospitalist Service|
Geriatrics|Geriatric Medicine|Geriatrics Clinic|Pediatrics|Paediatrics|Neonatology|Obstetrics|Gynecology|
Obstetrics and Gynecology|OB/GYN|Labor and Delivery|L&D|Mother Baby|Nursery|NICU|PICU|MICU|SICU|CCU|CVICU|
CSRU|CTICU|Neuro ICU|NSICU|Trauma ICU|TSICU|Burn Unit|Step-Down|Stepdown|Telemetry|Tele|Med-Surg|
Medical-Surgical|Observation Unit|Clinical Decision Unit|Emergency Department|Emergency Medicine|Emergency Room|
ED|ER|Triage|Fast Track|Urgent Care|Walk-In Clinic|Trauma|Trauma Surgery|Acute Care Surgery|General Surgery|
Surgery|Surgical Oncology|Colorectal Surgery|Vascular Surgery|Cardiac Surgery|Cardiothoracic Surgery|
Thoracic Surgery|Neurosurgery|Neurological Surgery|Orthopedics|Orthopaedics|Orthopedic Surgery|Spine|
Hand Surgery|Plastic Surgery|Plastics|Burn Surgery|Transplant|Transplant Surgery|Urology|Otolaryngology|ENT|
Ophthalmology|Ophtho|Optometry|Dermatology|Derm|Cardiology|Cardiology Clinic|Electrophysiology|EP Lab|
Cath Lab|Heart Failure Clinic|Anticoagulation Clinic|Coumadin Clinic|Pulmonology|Pulmonary|Pulmonary Medicine|
Critical Care|Critical Care Medicine|Pulmonary and Critical Care|Sleep Medicine|Sleep Lab|Nephrology|Renal|
Dialysis Unit|Hemodialysis|Gastroenterology|GI|GI Lab|Endoscopy|Hepatology|Liver Clinic|
Endocrinology|Endocrine|Diabetes Clinic|Rheumatology|Allergy|Immunology|Allergy and Immunology|
Infectious Disease|Infectious Diseases|ID|Hematology|Oncology|Hematology-Oncology|Heme-Onc|Heme/Onc|
Radiation Oncology|Rad Onc|Infusion Center|Chemo Infusion|Cancer Center|Breast Center|Palliative Care|
Palliative Medicine|Pain Management|Pain Clinic|Pain Service|Anesthesia|Anesthesiology|PACU|Pre-Op|
Preop|Pre-Admission Testing|Same Day Surgery|Ambulatory Surgery|Operating Room|OR|Post-Op|Recovery Room|
Neurology|Neuro|Stroke Unit|Stroke Service|Epilepsy Monitoring Unit|Memory Clinic|Psychiatry|Psych|
Behavioral Health|Mental Health|Consult-Liaison Psychiatry|CL Psychiatry|Addiction Medicine|Detox|
Physical Medicine and Rehabilitation|PM&R|Inpatient Rehab|Physical Therapy|PT|
Occupational Therapy|OT|Speech Therapy|Speech-Language Pathology|SLP|Respiratory Therapy|RT|Social Work|
Case Management|Care Management|Discharge Planning|Utilization Review|Nutrition|Nutrition Services|Dietary|
Pharmacy|Clinical Pharmacy|Laboratory|Lab|Microbiology|Pathology|Blood Bank|Radiology|Interventional Radiology|
IR|Nuclear Medicine|Ultrasound|CT|MRI|Echo Lab|Vascular Lab|Wound Care|Wound Clinic|Ostomy Nursing|
Infection Control|Infection Prevention|Employee Health|Occupational Health|Primary Care|Primary Care Clinic|
Adult Medicine|Women's Health|Men's Health|Travel Clinic|Sports Medicine|Podiatry|Dental|Oral Surgery|
Chaplaincy|Pastoral Care|Spiritual Care|Patient Relations|Interpreter Services|Medical Records|
Health Information Management|Admitting|Registration|Patient Access|Billing|Nursing|Nursing Administration|
House Supervisor|Float Pool|Rapid Response|Code Team|Chief Complaint|History of Present Illness|HPI|
Past Medical History|Past Surgical History|Social History|Family History|Review of Systems|Physical Exam|
Physical Examination|Assessment|Assessment and Plan|Plan|Impression|Diagnosis|Diagnoses|Hospital Course|
Brief Hospital Course|Discharge Diagnosis|Discharge Condition|Discharge Instructions|Discharge Medications|
Admission Medications|Medications on Admission|Allergies|Labs|Laboratory Data|Imaging|Procedures|Vital Signs|
Disposition|Follow-Up|Follow Up|Followup|Addendum|Attestation|Interval History|Subjective|Objective|
Progress Note|Nursing Note|Nursing Progress Note|Consult Note|Consultation|Operative Note|Procedure Note|
Triage Note|ED Course|Medical Decision Making|MDM|Code Status|Advance Directive|Goals of Care"""

# Clinical abbreviations, nursing words and ward jargon in the forms notes write them, lower
# case: devices and lines, drugs on drips, nursing verbs and nouns.
CLINICAL_ABBREVS = """swan aline a-line art-line artline cvl tlc cordis picc midline port portacath hickman
quinton trialysis permcath ij sc subclavian fem femoral rad radial ett ogt ngt dht peg pej jtube j-tube gtube
g-tube ostomy colostomy ileostomy urostomy nephrostomy suprapubic foley condom texas rectal-tube flexiseal
purewick chest-tube ct pleurx jp hemovac wound-vac vac ecmo iabp balloon pump lvad rvad impella crrt cvvh
cvvhd cvvhdf hd pd uf bipap cpap hfnc nrb nc fm vm venti trach vent ett-tube ambu pacer pacing wires tvp
defib aicd icd ppm bivent crt-d milrinone dobutamine dopamine levophed levo neo neosynephrine phenylephrine
vasopressin vaso epi epinephrine nitro ntg nipride nicardipine cardene esmolol labetalol hydralazine
amio amiodarone lido lidocaine heparin hep lovenox argatroban bival insulin gtt gtts drip drips propofol
fent fentanyl versed midaz precedex dex ativan morphine mso4 dilaudid kcl kphos naphos mag mgso4 calcium
cagluc bicarb amp abx vanco zosyn cefepime meropenem flagyl cipro levo-flox tpn ppn lipids tf tube-feeds
feeds npo clears cld fld adat diet po-intake i&o ins outs uo ua ucx bcx scx cxr kub abg vbg lactate lytes
cbc chem chem7 coags inr ptt hct hgb plt wbc trop troponin cks bnp fs fsbg accuchecks accucheck glucose
plan notify notified phoned paged called informed aware consulted updated reinforced instructed assisted
encouraged tolerated tol refused denied repositioned turned suctioned ambulated dangled oob chair commode
bsc bedpan urinal voided voiding incontinent continent bowel bowels bm bms stool stools flatus nausea emesis
cuff bp nibp art map cvp pap pcwp wedge co ci svr svo2 scvo2 sats spo2 rr hr temp tmax afeb febrile
afebrile sbp dbp ectopy pvcs pacs nsr sr sb afib aflutter svt vt vf asystole pea rosc code rapid-response
rrt stat prn qh q1h q2h q4h q6h q8h q12h qd bid tid qid qhs qam qpm ac hs sl sq subq im iv ivp ivpb po pr
neb nebs mdi inh o2 ra nc 2l 4l 6l fio2 peep psv simv ac-mode prvc aprv rsbi sbt wean weaning extubate
extubated intubate intubated reintubated trached decannulated sx suction secretions sputum rhonchi crackles
rales wheezes diminished coarse clear cta dim ls bs bsx4 abd soft nt nd distended firm tender edema pitting
trace 1+ 2+ 3+ pulses palp dop dopplerable cap-refill skin intact breakdown decub decubitus stage ulcer
pressure-injury sacrum coccyx heels duoderm mepilex allevyn tegaderm dsg drsg dressing d/c dc'd dcd
neuro neuros perrl perrla mae gcs rass cam-icu sedated sedation arousable lethargic obtunded alert oriented
a&ox3 aox3 aaox3 confused agitated restless calm cooperative restraints sitter safety fall-risk bed-alarm
pain tylenol oxy percocet norco ultram toradol motrin pca pcea epidural nerve-block lido-patch
social sw cm pt ot slp rt rn lpn cna pca-aide np pa md ho intern resident fellow attending team micu-team
family fam hcp proxy dnr dni full-code cmo comfort dispo
"""
# (No facility types, "rehab", "hospice", "snf", "home": they stand in place names, "Oakdale Rehab".)
# Names left out of the surrogate lists (gazetteers/surrogates/): frequent enough to be drawn,
# but a reader takes them for a joke, an insult or a clinical word in a note ("Mr. Payne
# reports pain"). The surrogate lists only: the tagger's lists keep every name.
SURROGATE_DENY = """Ball Balls Bastard Blood Bone Bones Bull Burns Butt Butts Case Cockrell Coffin
Cox Crook Cure Dead Death Dick Dicks Doctor Fannie Fanny Gay Graves Grave Gross Hooker Hurt Killer
Looney Nurse Pain Paine Payne Pitts Rash Ruff Savage Sexton Sick Sickles Slaughter Wiener Woody"""

# Clinical values kept as written (issue 50): crfdeid/recognizers/values.py reads these lists.
# Scores, scales and instruments written before their value (``GAD-7 12``, ``Mini-Cog 3/5``,
# ``Glasgow Coma Scale 14``); from the instruments' own published names (typed here, not
# taken from notes). An entry that is also a name, a place or a common word (``Wells``,
# ``Morse``, ``NEWS``) is judged with stricter evidence by the rule.
SCORE_NAMES = """GCS|Glasgow Coma Scale|Glasgow Coma Score|Glasgow|GAD-7|GAD7|GAD-2|PHQ-9|PHQ9|PHQ-2|PHQ2|PHQ-A|
AUDIT-C|AUDIT|CAGE|CRAFFT|DAST-10|DAST|Mini-Cog|Mini Cog|MiniCog|Mini-Mental|MMSE|MoCA|SLUMS|AMTS|AMT|4AT|
NIHSS|APGAR|Apgar|Apgars|CURB-65|CURB65|CRB-65|PSI|CHA2DS2-VASc|CHA2DS2VASc|CHADS2|CHADS|HAS-BLED|
Wells|Wells score|Geneva|PERC|Centor|McIsaac|Braden|Braden score|Morse|Morse Fall Scale|Morse fall score|
RASS|CAM-ICU|CAM|Bristol|Bristol stool|Bristol stool chart|Bristol stool scale|Bristol type|BSS|
CIWA|CIWA-Ar|COWS|EPDS|Edinburgh|HADS|K10|Kessler|PEWS|NEWS|NEWS2|MEWS|qSOFA|SOFA|APACHE|APACHE II|
HEART|HEART score|TIMI|GRACE|Alvarado|Waterlow|Norton|MUST|Barthel|mRS|Rankin|ECOG|Karnofsky|KPS|NYHA|
ASA|Mallampati|Child-Pugh|MELD|MELD-Na|Ranson|BISAP|Gleason|Hunt-Hess|Fisher|Killip|Aldrete|Borg|CPOT|
BPS|FLACC|PAINAD|NRS|VAS|pain|pain score|ABCD2|ROSIER|Tanner|Tanner stage|Blatchford|Glasgow-Blatchford|
Rockall|Caprini|Padua|IPSS|Bishop|Bishop score|Ballard|Sarnat|C-SSRS|BDI|HAM-D|MADRS|YMRS|PANSS|AIMS|SAS|
Riker|Ramsay|Richmond|Clinical Frailty Scale|CFS|Rockwood|Berg|Tinetti|TUG|Oswestry|ODI|WOMAC|DASH|
Lysholm|Beighton|Epworth|ESS|STOP-BANG|STOPBANG|MRC|MRC dyspnoea|mMRC|CAT|ACT|Modified Rankin|
Lawton IADL|Lawton|IADL|ADL|Katz|Katz ADL|Oxford Shoulder Score|Oxford Hip Score|Oxford Knee Score|
Hoehn and Yahr|Hoehn & Yahr|Hoehn-Yahr|SPADI|KOOS|Constant score|Manchester Triage|UPDRS|EDSS|Gleason score|
Ann Arbor|Manchester Triage Scale|Manchester Triage System|MTS|Australasian Triage Scale|ATS|CTAS|triage category|
QRISK|QRISK2|QRISK3|FRAX|SCORE2|Framingham|ASCVD"""

# Headings and field labels of notes (issue 50): words a heading or a label is made of
# (``ED TRIAGE NOTE``, ``HANDOFF TO NIGHT RN``, ``MRN:``); common documentation terms.
NOTE_LABELS = """note notes triage handoff handover hand-off sign-out signout admission admit discharge
progress summary assessment plan history hpi ros pmh psh fhx shx meds medications allergies nkda vitals
vs labs imaging exam examination consult consultation report impression findings procedure operative
op post-op pre-op nursing nsg physician medical surgical resident attending addendum event events update
transfer transition care shift night day evening overnight weekend morning am pm ed er ae a&e edu icu
ccu micu sicu nicu picu csru pacu ward floor unit clinic outpatient inpatient opd ipd follow-up fu f/u
review interval subjective objective s/o soap disposition dispo chief complaint cc reason referral
mrn dob ssn acct apt appt dx ddx hx fx px rx tx sx mx obs obx name sex gender age date time id no
number patient pt pts record chart encounter visit location room bed hospital service team provider
doctor nurse rn md round rounds clerking reconciliation medicines pharmacy visit letter coded employee
employer payroll pupil uhid chi ihi nhi urn hcn pps medicare nhs ip rio"""

# Words of headings of notes and letters that neither ``note_labels`` nor ``departments`` holds (issue 50,
# third round: ``Antenatal Clinic``, ``District Nursing Visit``, ``School Nursing Service``, ``Pharmacy
# Medicines Reconciliation``): services, settings and kinds of visit of US, UK, IE, AU, NZ, IN and CA care.
# Read only in a heading's run (recognizers/fields.py): never a reason alone.
HEADING_WORDS = """antenatal postnatal maternity perinatal district school community nursing service services
health memory falls diabetes visit round rounds review reconciliation medicines occupational report letter
referral assessment care home homes clinic clinics department emergency casualty outpatients opd ipd mental
crisis liaison older adult adults child children young people specialist team teams telephone phone video
virtual domiciliary intermediate rehabilitation rehab hospice palliative respite continence tissue viability
wound stoma podiatry dietetics physiotherapy orthotics audiology optometry dental sexual contraception
vaccination immunisation immunization screening well-being wellbeing welfare safeguarding incident form
record records sheet chart old age elderly haematology paediatric geriatric general acute out hours after
walk-in urgent minor injuries injury orthopaedic orthopedic surgical medical cardiac renal respiratory neurological
psychiatric pediatric obstetric gynaecological urological vascular stroke unit units"""

# Staff roles in role phrases (``Radiologist aware``, ``d/w night RN``): clinical occupations
# and their abbreviations, US, UK, AU, IE, IN and CA usage; the modifiers of a role.
STAFF_ROLES = """rn rns lpn lvn cna hca np nps pa pas md mds mbbs do dr drs gp gps fy1 fy2 f1 f2 sho spr
st1 st2 st3 ct1 ct2 rmo jmo hmo jho intern interns resident residents registrar registrars reg consultant
consultants attending attendings fellow fellows hospitalist hospitalists intensivist intensivists
radiologist radiologists radiographer sonographer anaesthetist anesthetist anesthesiologist
anaesthesiologist surgeon surgeons physician physicians cardiologist neurologist nephrologist
oncologist pathologist psychiatrist psychologist pediatrician paediatrician obstetrician
gynaecologist gynecologist urologist dermatologist endocrinologist gastroenterologist pulmonologist
rheumatologist neurosurgeon pharmacist pharmacists dietitian dietician nutritionist physio
physiotherapist pt ot slp salt rt rrt physiotherapists therapist therapists sw msw nurse nurses
midwife midwives matron sister charge crna nurse-practitioner paramedic paramedics emt emts tech
techs technician phlebotomist chaplain interpreter coordinator case-manager cm ccm scribe porter
night day evening overnight covering cross-covering on-call oncall bedside primary admitting
consulting treating duty senior junior head staff floor unit team ward icu ed er house housestaff
occupational physical respiratory speech language social worker aide manager specialist practitioner
assistant support community district practice psychiatric health home specialty"""

# Vaccines written with a dose number (``DTaP #4``, ``MMR dose 2``): CDC and NHS schedule names.
VACCINES = """DTaP|Tdap|DTP|DT|Td|TdaP|MMR|MMRV|IPV|OPV|Hib|HepA|HepB|Hep A|Hep B|HBV|HAV|PCV|PCV7|PCV10|
PCV13|PCV15|PCV20|PPSV23|PPV23|HPV|Gardasil|MenACWY|MenB|MenC|Bexsero|Varicella|VZV|Shingrix|Zostavax|
RZV|BCG|Rotavirus|RV|Rotarix|RotaTeq|Pentacel|Pediarix|Vaxelis|Infanrix|Boostrix|Adacel|ProQuad|
Priorix|Prevnar|Pneumovax|Flu|influenza|IIV|LAIV|COVID|COVID-19|Comirnaty|Spikevax|Novavax|Hexaxim|
Pentavalent|6-in-1|4-in-1|MenQuadfi|Menveo|Nimenrix|Typhim|Vivotif|Ixiaro|Dukoral|YF|Stamaril"""

# Contrast agents and radiopharmaceuticals, written with their strength (``Omnipaque 300``):
# brand and generic names of the FDA and EMA labels.
CONTRAST_AGENTS = """Omnipaque|Visipaque|Isovue|Optiray|Ultravist|Oxilan|Conray|Cysto-Conray|Cystografin|
Gastrografin|Omnipaque 300|Omnipaque 350|Visipaque 320|Isovue 370|Readi-Cat|Readi Cat|E-Z-Paque|
Varibar|Lipiodol|Gadavist|Magnevist|Dotarem|Clariscan|ProHance|MultiHance|Eovist|Primovist|Omniscan|
Elucirem|Vueway|Feraheme|Definity|Optison|Lumason|SonoVue|iohexol|iodixanol|iopamidol|ioversol|
iopromide|gadobutrol|gadoterate|gadoteridol|gadobenate|gadoxetate|gadodiamide|Technetium|Tc-99m|
sestamibi|Cardiolite|Myoview|tetrofosmin|Lexiscan|regadenoson|FDG|Thallium|Gallium|Octreoscan|DaTscan"""

# Charting and clinical information systems named in notes (``as per CareVue``): vendors' product
# names, as their makers publish them.
CHARTING_SYSTEMS = """CareVue|Carevue charting|CareView|MetaVision|IntelliVue|IntelliSpace|Epic|EpicCare|
Hyperspace|Haiku|Canto|Cerner|PowerChart|Millennium|Meditech|Expanse|Allscripts|Sunrise Clinical Manager|
eClinicalWorks|athenahealth|
athenaOne|NextGen|Centricity|Soarian|Paragon|Cerner FirstNet|FirstNet|Picis|Philips ICCA|ICCA|Mosaiq|ARIA|
Omnicell|Pyxis|PACS|Synapse|iSite|PowerScribe|Dragon|CPOE|eMAR|BCMA|SystmOne|EMIS|Vision|Lorenzo|Cosmic|
TrakCare|Medinet|Best Practice|MedicalDirector|Genie|Zedmed|Cortex|Accuro|OSCAR|PS Suite|Telus|RiO|Mosaic|
Carenotes|Lorenzo"""

# Head words of the names of organisations, places of care, wards and streets (issue 50):
# a name-cased run before one is that kind of place ("Millbeck Surgery", "Ridgeline Freight",
# "Hollins Green Primary School", "Larch Ward", "Harbison Way"). Written for crfdeid from the
# naming conventions of UK, Irish, Australian, New Zealand, Canadian, Indian and US firms,
# schools, GP practices, care homes and hospitals (companies' legal suffixes as the UK
# Companies Act, the Indian Companies Act and the Australian Corporations Act spell them).
ORGANIZATION_HEADS = """Surgery|Practice|Medical Practice|Family Practice|Group Practice|Health Centre|
Health Center|Medical Centre|Family Health Team|Health Team|Pharmacy|Pharmacies|Chemist|Chemists|Dispensary|
Associates|Partners|Partnership|Group|Pediatrics|Paediatrics|Internal Medicine|Family Medicine|Counseling|
Counselling|Memory Service|Community Nursing|Home Care|Homecare|Home Health|Care Home|Nursing Home|
Residential Home|Rest Home|Retirement Home|Retirement Village|Aged Care|Assisted Living|Senior Living|Lodge|
Freight|Freight Lines|Logistics|Haulage|Transport|Trucking|Shipping|Couriers|Removals|Construction|Builders|
Engineering|Plumbing|Electrical|Motors|Garage|Textiles|Foods|Farms|Dairy|Bakery|Brewery|Mills|Factory|
Industries|Enterprises|Holdings|Solutions|Services|Ltd|Limited|PLC|Inc|LLC|Pty|Pty Ltd|Pvt Ltd|
Private Limited|GmbH|Company|Corporation|Corp|Bank|Credit Union|Building Society|Insurance|Assurance|
Trust|Foundation|Charity|Council|School|Primary School|Secondary School|High School|Grammar School|
Elementary School|Middle School|Public School|National School|Academy|College|University|Uni|Polytechnic|
Nursery|Preschool|Kindergarten|Daycare|Day Care|Church|Chapel|Mosque|Temple|Synagogue|Gurdwara|Marae|
Club|GAA Club|RFC|AFC|FC|Hotel|Pub|Inn|Tavern|Restaurant|Cafe|Café|Supermarket|Store|Stores|Market|
Warehouse|Depot|Meals on Wheels|Fire Department|Fire Service|Fire and Rescue|Police|Ambulance Service|
Paramedic Services|Prison|Mills|Family Medical|Health Plan|Health Plans|HMO|Health Maintenance|Medical Aid|
Medical Scheme|Assurance Company|& Sons|and Sons|Bros|Parish|Parish Church|Pte Ltd|Pte|Sdn Bhd|Bhd|
Nig Ltd|Cooperative|Co-operative|Sacco|Credit Society"""

HOSPITAL_HEADS_OF_NAMES = """Hospital|Infirmary|Medical Center|Medical Centre|Clinic|Health System|Hospice|
Unit|Institute|Cancer Institute|Cancer Centre|Cancer Center|Sanatorium|Rehabilitation Centre|
Rehabilitation Center|Medical Group|Nursing Home|Multispeciality Hospital|Multispecialty Hospital|
Women's Unit|Children's Hospital|Maternity Hospital|Health Campus"""

# Wards, wings and rooms named within a place of care ("Larch Ward", "Wattle Wing",
# "Primrose Lounge"; the Malay "Wad").
WARD_HEADS = """Ward|Wing|Lounge|Wad|Suite|Pavilion"""

# What follows a town's first word in its name ("Whitley Bay", "Niagara Falls", "Stoke-on-Trent"
# is a join): a town only after a place or a name the tagger found.
TOWN_HEADS = """Bay|Beach|Falls|Heights|Springs|Harbour|Harbor|Valley|Hills|Bridge|Green|Cross|End|Town|
City|on Sea|on-Sea|upon Tyne|Regis|Spa|Wells|Junction|Park|Vale|Creek|Point|Lakes|Head|Heads"""

# National and public health schemes and insurance programmes, written by their public names
# (issue 50): no identifier of a person (``Medicaid, Sandia Community Health Plan member ...``:
# the plan is an organisation's name, the scheme is not), so no insurer's name after a cue.
HEALTH_SCHEMES = """Medicare|Medicaid|Medi-Cal|MediCal|Tricare|CHIP|SCHIP|Obamacare|Marketplace|NHS|HSE|
OHIP|RAMQ|MSP|PhilHealth|NHIF|SHA|NHIS|MediShield|MediShield Life|MediSave|Medisave|MediFund|CPF|
PMJAY|Ayushman Bharat|CGHS|ESIC|ACC|Pharmac|PBS|Bulk Billing|Workers Compensation|Workers' Compensation|
WorkCover|WSIB|Social Security|SSI|SSDI|Medigap"""

# Street types after a house number and words ("1200 Harbison Way", "22 Kirkgate Road"):
# the full words of USPS Publication 28 (appendix C1) and of Royal Mail, An Post, Australia
# Post and NZ Post addresses, and their usual abbreviations; Indian road words (Tamil "Salai");
# Afrikaans and Dutch ones ("Straat", "Weg", "Laan").
STREET_TYPES = """Street|Road|Avenue|Lane|Drive|Way|Crescent|Close|Court|Place|Terrace|Grove|Gardens|
Mews|Square|Parade|Row|Walk|Rise|Hill|View|Boulevard|Highway|Parkway|Circle|Trail|Wynd|Brae|Gate|Green|
Quay|Esplanade|Promenade|Vale|Loop|Run|Path|Pike|Alley|Plaza|Heights|Chase|Croft|Fold|Glade|Glen|Mount|
Ridge|Bank|Cove|Point|Expressway|Freeway|Turnpike|Causeway|Broadway|Marg|Nagar|Colony|Layout|Chowk|Salai|
Straat|Weg|Laan|
St|Rd|Ave|Av|Ln|Dr|Cres|Cl|Ct|Pl|Tce|Terr|Gr|Gdns|Sq|Pde|Blvd|Hwy|Pkwy|Cir|Trl|Wy|Hts|Esp|Prom"""

# Street types written before the street's name ("6 Heol y Felin", "3 Bóthar na Trá",
# "Jalan Ampang", "Rue Saint-Denis"): Welsh, Irish, Malay, French, Spanish, Portuguese, Italian, Hindi/Urdu.
STREET_PREFIXES = """Heol|Ffordd|Stryd|Lôn|Lon|Bóthar|Bothar|Sráid|Sraid|Jalan|Lorong|Rue|Chemin|Calle|
Avenida|Rua|Via|Viale|Gali|Mohalla|Sector"""

# Eponyms and eponymous devices of the notes of other countries (issue 50) that the lists above
# lack, written from clinical knowledge: read beside ``eponyms`` and ``clinical_heads`` by the
# clinical filter (a model's saved list checksums cover only the lists it was trained with).
EPONYMS_MORE = """Zimmer|Zimmer frame|Riedel|Riedel lobe|Epley manoeuvre|Epley maneuver|Dix-Hallpike|Hallpike|
Lasegue|Lasègue|Tarlov|Tarlov cyst|Fazekas|Bosniak|Garden|Pfirrmann|Modic|Hawkins-Kennedy|Neer|Caesarean|
Guthrie|Guthrie card|Ann Arbor|Breslow|Clark|Gleason|Dukes|Breslow thickness|Tanner|Tanner stage|Apgar|Bishop score|
Hartmann|Hartmann's|Whipple|Nissen|Roux-en-Y|Kocher|Pfannenstiel|Lanz|Rutherford Morison|Pringle|
Schober|Schober's test|modified Schober|Mepitel|Mepilex|Allevyn|Aquacel|Inadine|Tegaderm|DuoDERM|Kaltostat|
FreeStyle Libre|Libre|Dexcom|Omnipod|GlucoGel|Hypostop"""
CLINICAL_HEADS_MORE = """lobe lobes frame frames manoeuvre manoeuvres gait pouch incision stage thickness card"""

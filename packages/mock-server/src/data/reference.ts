/**
 * Reference data of the data set (data, not logic): the banks (real BSBs), the energy retailers, the
 * names the end users are drawn from, and the localities (with their electricity distributor and
 * NMI prefix) and streets of addresses.
 */

export const BANKS: { id: string; name: string; brand: string; bsbs: string[]; website: string }[] = [
  {
    id: "inst_cba",
    name: "Commonwealth Bank",
    brand: "cba",
    bsbs: ["062-000", "063-010", "064-123"],
    website: "https://www.commbank.com.au",
  },
  {
    id: "inst_westpac",
    name: "Westpac",
    brand: "westpac",
    bsbs: ["032-000", "033-075", "034-702"],
    website: "https://www.westpac.com.au",
  },
  {
    id: "inst_nab",
    name: "National Australia Bank",
    brand: "nab",
    bsbs: ["083-004", "082-057", "084-034"],
    website: "https://www.nab.com.au",
  },
  {
    id: "inst_anz",
    name: "ANZ",
    brand: "anz",
    bsbs: ["012-003", "013-006", "014-002"],
    website: "https://www.anz.com.au",
  },
  {
    id: "inst_mqg",
    name: "Macquarie Bank",
    brand: "mqg",
    bsbs: ["182-512", "182-222"],
    website: "https://www.macquarie.com.au",
  },
  { id: "inst_ing", name: "ING", brand: "ing", bsbs: ["923-100"], website: "https://www.ing.com.au" },
  {
    id: "inst_bendigo",
    name: "Bendigo Bank",
    brand: "bendigo",
    bsbs: ["633-000", "633-108"],
    website: "https://www.bendigobank.com.au",
  },
];

export const RETAILERS: { id: string; name: string; brand: string; website: string }[] = [
  { id: "inst_agl", name: "AGL", brand: "agl", website: "https://www.agl.com.au" },
  { id: "inst_origin", name: "Origin Energy", brand: "origin", website: "https://www.originenergy.com.au" },
  {
    id: "inst_energyaustralia",
    name: "EnergyAustralia",
    brand: "energyaustralia",
    website: "https://www.energyaustralia.com.au",
  },
  { id: "inst_red_energy", name: "Red Energy", brand: "red-energy", website: "https://www.redenergy.com.au" },
  { id: "inst_alinta", name: "Alinta Energy", brand: "alinta", website: "https://www.alintaenergy.com.au" },
];

export const FIRST_NAMES = [
  "Olivia",
  "Liam",
  "Charlotte",
  "Noah",
  "Amelia",
  "Jack",
  "Isla",
  "William",
  "Mia",
  "Oliver",
  "Chloe",
  "Lachlan",
];
export const MIDDLE_NAMES = ["Grace", "James", "Rose", "Thomas", "Jane", "Edward", "May", "Patrick"];
export const LAST_NAMES = [
  "Nguyen",
  "Smith",
  "Wilson",
  "Taylor",
  "Brown",
  "Williams",
  "Kelly",
  "Martin",
  "Chen",
  "Singh",
  "O'Brien",
  "Walker",
];
export const ORG_NAMES = [
  "Harbourside Joinery",
  "Southern Cross Landscaping",
  "Banksia Bakery",
  "Blue Gum Electrical",
  "Wattle Street Physio",
];

export const LOCALITIES: {
  suburb: string;
  state: string;
  postcode: string;
  distributor: string;
  nmiPrefix: string;
}[] = [
  { suburb: "Marrickville", state: "NSW", postcode: "2204", distributor: "Ausgrid", nmiPrefix: "4102" },
  {
    suburb: "Parramatta",
    state: "NSW",
    postcode: "2150",
    distributor: "Endeavour Energy",
    nmiPrefix: "4310",
  },
  { suburb: "Brunswick", state: "VIC", postcode: "3056", distributor: "Jemena", nmiPrefix: "6001" },
  { suburb: "Richmond", state: "VIC", postcode: "3121", distributor: "CitiPower", nmiPrefix: "6102" },
  { suburb: "Paddington", state: "QLD", postcode: "4064", distributor: "Energex", nmiPrefix: "3120" },
  { suburb: "Norwood", state: "SA", postcode: "5067", distributor: "SA Power Networks", nmiPrefix: "2001" },
  { suburb: "Braddon", state: "ACT", postcode: "2612", distributor: "Evoenergy", nmiPrefix: "7001" },
  // Where the documents' example service points are (NMIs 6305123456 and 4103987654).
  { suburb: "Lilydale", state: "VIC", postcode: "3140", distributor: "AusNet Services", nmiPrefix: "6305" },
  { suburb: "Hamilton", state: "NSW", postcode: "2303", distributor: "Ausgrid", nmiPrefix: "4103" },
];

/** The index in LOCALITIES of the locality whose distributor gives NMIs like `nmi`. */
export function localityOfNmi(nmi: string): number {
  const index = LOCALITIES.findIndex((l) => nmi.startsWith(l.nmiPrefix));
  if (index < 0) throw new Error(`no locality has the NMI prefix of ${nmi}`);
  return index;
}

export const STREETS: [string, string][] = [
  ["King", "STREET"],
  ["Illawarra", "ROAD"],
  ["Sydney", "ROAD"],
  ["Church", "STREET"],
  ["The", "PARADE"],
  ["Wattle", "AVENUE"],
  ["Banksia", "CRESCENT"],
  ["Station", "STREET"],
  ["Given", "TERRACE"],
  ["Lonsdale", "STREET"],
];

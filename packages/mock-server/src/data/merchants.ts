/** Merchants the end users spend with, by weight of spending group (data, not logic). */

export interface Merchant {
  name: string;
  category: string;
  mcc: string;
  min: number;
  max: number;
}

export const PERSONAL_SPEND: { weight: number; merchants: Merchant[] }[] = [
  {
    weight: 5,
    merchants: [
      { name: "Woolworths", category: "GROCERIES", mcc: "5411", min: 18, max: 210 },
      { name: "Coles", category: "GROCERIES", mcc: "5411", min: 15, max: 190 },
      { name: "ALDI", category: "GROCERIES", mcc: "5411", min: 12, max: 120 },
      { name: "Harris Farm Markets", category: "GROCERIES", mcc: "5411", min: 20, max: 95 },
    ],
  },
  {
    weight: 3,
    merchants: [
      { name: "Guzman y Gomez", category: "DINING", mcc: "5814", min: 14, max: 38 },
      { name: "Grill'd", category: "DINING", mcc: "5812", min: 19, max: 55 },
      { name: "Single O Cafe", category: "DINING", mcc: "5814", min: 5, max: 26 },
      { name: "Mr Wong", category: "DINING", mcc: "5812", min: 70, max: 240 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Transport for NSW Opal", category: "TRANSPORT", mcc: "4111", min: 3, max: 50 },
      { name: "Ampol", category: "TRANSPORT", mcc: "5541", min: 45, max: 110 },
      { name: "BP", category: "TRANSPORT", mcc: "5541", min: 40, max: 105 },
      { name: "Uber", category: "TRANSPORT", mcc: "4121", min: 11, max: 65 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Kmart", category: "SHOPPING", mcc: "5311", min: 8, max: 150 },
      { name: "JB Hi-Fi", category: "SHOPPING", mcc: "5732", min: 25, max: 900 },
      { name: "Bunnings Warehouse", category: "SHOPPING", mcc: "5200", min: 9, max: 320 },
      { name: "Myer", category: "SHOPPING", mcc: "5311", min: 30, max: 400 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Hoyts", category: "ENTERTAINMENT", mcc: "7832", min: 18, max: 60 },
      { name: "Ticketek", category: "ENTERTAINMENT", mcc: "7922", min: 60, max: 260 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Chemist Warehouse", category: "HEALTH", mcc: "5912", min: 7, max: 85 },
      { name: "Priceline Pharmacy", category: "HEALTH", mcc: "5912", min: 6, max: 60 },
    ],
  },
];

export const BUSINESS_SPEND: { weight: number; merchants: Merchant[] }[] = [
  {
    weight: 4,
    merchants: [
      { name: "Bunnings Trade", category: "SHOPPING", mcc: "5200", min: 40, max: 1800 },
      { name: "Timber Supplies Co", category: "SHOPPING", mcc: "5211", min: 300, max: 6500 },
      { name: "Total Tools", category: "SHOPPING", mcc: "5251", min: 60, max: 1400 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Ampol", category: "TRANSPORT", mcc: "5541", min: 70, max: 180 },
      { name: "Linkt Tolls", category: "TRANSPORT", mcc: "4784", min: 20, max: 90 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Officeworks", category: "SHOPPING", mcc: "5943", min: 15, max: 450 },
      { name: "Xero Australia", category: "UTILITIES", mcc: "7372", min: 70, max: 70 },
    ],
  },
  { weight: 1, merchants: [{ name: "Bakers Delight", category: "DINING", mcc: "5462", min: 8, max: 60 }] },
];

/** Income derived from the transactions: regular credits grouped by source, with frequency and confidence. */
import { toEpochDay } from "../dates.js";
import type { Account, Income, Transaction } from "./model.js";

const PREFIXES = ["SALARY ", "INVOICE PAYMENT "];
const ACRONYMS = new Set(["NSW", "BHP", "ATO", "J", "K", "NZ"]);

/** The payer named in an income description, or the description itself. */
function sourceOf(description: string): string {
  for (const prefix of PREFIXES) if (description.startsWith(prefix)) return description.slice(prefix.length);
  return description;
}

function frequencyOf(medianGap: number): Income["frequency"] {
  if (medianGap >= 6 && medianGap <= 8) return "WEEKLY";
  if (medianGap >= 13 && medianGap <= 15) return "FORTNIGHTLY";
  if (medianGap >= 28 && medianGap <= 31) return "MONTHLY";
  return "IRREGULAR";
}

/** Groups posted INCOME credits by account and source; transactions are newest first. */
export function deriveIncomes(transactions: Transaction[], accounts: Account[]): Income[] {
  const groups = new Map<string, Transaction[]>();
  for (const transaction of transactions) {
    if (transaction.category !== "INCOME" || transaction.amountCents <= 0 || transaction.status !== "POSTED")
      continue;
    const key = `${transaction.accountId}\u0000${sourceOf(transaction.description)}`;
    const group = groups.get(key) ?? [];
    group.push(transaction);
    groups.set(key, group);
  }
  const incomes: Income[] = [];
  const accountOrder = new Map(accounts.map((account, index) => [account.id, index]));
  for (const [key, group] of groups) {
    if (group.length < 3) continue;
    const [accountId, source] = key.split("\u0000") as [string, string];
    const days = group.map((t) => toEpochDay(t.postedDate)).sort((a, b) => a - b);
    const gaps = days.slice(1).map((day, i) => day - days[i]!);
    const sortedGaps = [...gaps].sort((a, b) => a - b);
    const medianGap = sortedGaps[Math.floor(sortedGaps.length / 2)] ?? 0;
    const meanGap = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const spread = Math.sqrt(gaps.reduce((acc, gap) => acc + (gap - meanGap) ** 2, 0) / gaps.length);
    const regularity = meanGap > 0 ? Math.max(0, 1 - spread / meanGap) : 0;
    const frequency = frequencyOf(medianGap);
    const confidence =
      frequency === "IRREGULAR"
        ? Math.min(0.6, 0.3 + regularity * 0.3)
        : Math.min(0.99, 0.5 + regularity * 0.5);
    const total = group.reduce((acc, t) => acc + t.amountCents, 0);
    const latest = group[0]!;
    incomes.push({
      endUserId: latest.endUserId,
      accountId,
      source: source.replace(/[A-Za-z']+/g, (word) =>
        ACRONYMS.has(word) ? word : word.charAt(0) + word.slice(1).toLowerCase(),
      ),
      frequency,
      averageCents: Math.round(total / group.length),
      lastCents: latest.amountCents,
      lastDate: latest.postedDate,
      confidence: Math.round(confidence * 100) / 100,
    });
  }
  return incomes.sort(
    (a, b) =>
      (accountOrder.get(a.accountId) ?? 0) - (accountOrder.get(b.accountId) ?? 0) ||
      b.averageCents - a.averageCents,
  );
}

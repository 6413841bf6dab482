/** Calendar arithmetic on `YYYY-MM-DD` strings, in UTC, independent of the wall clock. */
const DAY_MS = 86_400_000;

export function toEpochDay(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromEpochDay(toEpochDay(date) + days);
}

export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, lastDay)).padStart(2, "0")}`;
}

/** Day of week, 0 = Sunday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** A timestamp on that date, at a time of day given in minutes. */
export function timestamp(date: string, minuteOfDay = 0): string {
  const hours = String(Math.floor(minuteOfDay / 60) % 24).padStart(2, "0");
  const minutes = String(minuteOfDay % 60).padStart(2, "0");
  return `${date}T${hours}:${minutes}:00Z`;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An RFC 3339 date-time: a date, `T`, a time with optional fraction, and `Z` or an offset. */
const DATE_TIME_PATTERN = /^(\d{4}-\d{2}-\d{2})[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The instant a `YYYY-MM-DD` date (its start, UTC) or an RFC 3339 date-time names, in milliseconds;
 * undefined for any other text (`Date.parse` would also take `2026` or `July 1, 2026`).
 */
export function instantOf(text: string): number | undefined {
  const date = DATE_TIME_PATTERN.exec(text)?.[1] ?? text;
  if (!isCalendarDate(date)) return undefined;
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? undefined : instant;
}

/** Whether the text is a real calendar date in `YYYY-MM-DD` form. */
export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  // A month or day out of range (2026-13-01) parses as no date at all.
  if (!match || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return false;
  return fromEpochDay(toEpochDay(text)) === text;
}

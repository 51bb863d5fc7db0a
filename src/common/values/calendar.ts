/**
 * Proleptic Gregorian calendar arithmetic on plain numbers (ISO 8601, the calendar of every temporal
 * value). Dates are counted as epoch days: day 0 is 1970-01-01. All functions are pure and allocate
 * nothing except `civilFromDays`, which returns its three fields.
 */

export const NANOS_PER_SECOND = 1_000_000_000;
export const SECONDS_PER_DAY = 86_400;
export const NANOS_PER_DAY = 86_400_000_000_000;

/** Year bounds of every temporal value, the range Cypher implementations commonly accept. */
export const YEAR_MIN = -999_999_999;
export const YEAR_MAX = 999_999_999;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function lengthOfMonth(year: number, month: number): number {
  switch (month) {
    case 2:
      return isLeapYear(year) ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    default:
      return 31;
  }
}

export function lengthOfYear(year: number): number {
  return isLeapYear(year) ? 366 : 365;
}

export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Modulo with the sign of the divisor; `b` must be positive. Never returns -0. */
export function floorMod(a: number, b: number): number {
  const m = a % b;
  return m < 0 ? m + b : m + 0;
}

/** Days since 1970-01-01 of a valid civil date (era-based algorithm, exact for the whole year range). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function civilFromDays(epochDay: number): CivilDate {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** ISO day of week, Monday = 1 ... Sunday = 7. */
export function dayOfWeek(epochDay: number): number {
  // 1970-01-01 was a Thursday (4).
  return floorMod(epochDay + 3, 7) + 1;
}

export function dayOfYear(year: number, month: number, day: number): number {
  return daysFromCivil(year, month, day) - daysFromCivil(year, 1, 1) + 1;
}

/** Epoch day of the Monday that starts ISO week 1 of `weekYear` (the week holding January 4th). */
export function weekYearStart(weekYear: number): number {
  const jan4 = daysFromCivil(weekYear, 1, 4);
  return jan4 - (dayOfWeek(jan4) - 1);
}

/** Number of ISO weeks (52 or 53) in a week-based year. */
export function weeksInWeekYear(weekYear: number): number {
  return (weekYearStart(weekYear + 1) - weekYearStart(weekYear)) / 7;
}

export function weekYearOf(epochDay: number, year: number): number {
  if (epochDay >= weekYearStart(year + 1)) return year + 1;
  if (epochDay < weekYearStart(year)) return year - 1;
  return year;
}

export function weekOfWeekYear(epochDay: number, weekYear: number): number {
  return Math.floor((epochDay - weekYearStart(weekYear)) / 7) + 1;
}

export function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3) + 1;
}

export function dayOfQuarter(year: number, month: number, day: number): number {
  const firstMonth = (quarterOf(month) - 1) * 3 + 1;
  return daysFromCivil(year, month, day) - daysFromCivil(year, firstMonth, 1) + 1;
}

export function isValidCivil(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= YEAR_MIN &&
    year <= YEAR_MAX &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= lengthOfMonth(year, month)
  );
}

/** Adds months the ISO way: the day is clamped to the end of a shorter month (Jan 31 + 1 month = Feb 28/29). */
export function plusMonths(year: number, month: number, day: number, months: number): CivilDate {
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return { year: y, month: m, day: Math.min(day, lengthOfMonth(y, m)) };
}

/**
 * Civil dates and time zones, one way each (issue 24): proleptic Gregorian day numbers and wall times
 * (civil-date.ts), and zones read through Intl with RFC 5545's reading of a wall time (time-zone.ts).
 * Used by the recurrence engine, calendar's events and availability, and lending's loan dates.
 */
export {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  MIN_YEAR,
  MAX_YEAR,
  MIN_MS,
  MAX_MS,
  WEEKDAYS,
  isLeapYear,
  daysInMonth,
  daysInYear,
  daysFromCivil,
  civilFromDays,
  weekdayOf,
  isValidDate,
  wallMsOf,
  formatDay,
  formatWall,
  formatInstant,
  formatOffset,
  type CivilDate,
} from './civil-date';
export {
  resolveZone,
  fixedOffsetZone,
  canonicalTimeZone,
  isIanaTimeZone,
  steadyOffsetForLocalDay,
  localDateTime,
  UTC,
  FLOATING,
  MAX_OFFSET_MS,
  type Zone,
} from './time-zone';

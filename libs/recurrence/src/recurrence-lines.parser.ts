import { parseDuration, parseIcalDate, parseIcalDateTime, type Duration } from './ical-values';
import { RecurrenceReason as R, invalid } from './recurrence.errors';
import { parseRule, type RecurrenceRule } from './rrule.parser';
import { resolveZone, type Zone } from '@platform/time';

/** One RDATE/EXDATE value: a day, or a wall time in a zone (null zone = floating, the series' own). */
export type DateEntry =
  | { kind: 'date'; days: number; line: number }
  | {
      kind: 'date-time';
      wallMs: number;
      zone: Zone | null;
      line: number;
      /** RDATE;VALUE=PERIOD: the instance's own end (a wall time in the same zone) or duration. */
      periodEnd?: { wallMs: number } | { duration: Duration };
    };

export interface RecurrenceLines {
  rrules: RecurrenceRule[];
  exrules: RecurrenceRule[];
  rdates: DateEntry[];
  exdates: DateEntry[];
}

export const MAX_LINES = 100;
export const MAX_LINE_CHARS = 16_384;
export const MAX_DATE_VALUES = 10_000;

interface ContentLine {
  name: string;
  params: Map<string, string>;
  value: string;
}

/**
 * Splits 'NAME;PARAM=v;PARAM="quoted:v":value' (RFC 5545 3.1). Parameter names are upper-cased;
 * quoted parameter values may hold ':' and ';'.
 */
function splitContentLine(text: string, line: number): ContentLine {
  let i = 0;
  while (i < text.length && text[i] !== ';' && text[i] !== ':') i++;
  const name = text.slice(0, i).toUpperCase();
  if (!/^[A-Z][A-Z0-9-]*$/.test(name)) throw invalid(R.LINE_SYNTAX, text, line);
  const params = new Map<string, string>();
  while (text[i] === ';') {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw invalid(R.LINE_SYNTAX, text, line);
    const pname = text.slice(i + 1, eq).toUpperCase();
    if (!/^[A-Z][A-Z0-9-]*$/.test(pname)) throw invalid(R.BAD_PARAMETER, text.slice(i + 1, eq + 1), line);
    let j = eq + 1;
    let pvalue: string;
    if (text[j] === '"') {
      const close = text.indexOf('"', j + 1);
      if (close < 0) throw invalid(R.BAD_PARAMETER, text.slice(i + 1), line);
      pvalue = text.slice(j + 1, close);
      j = close + 1;
    } else {
      while (j < text.length && text[j] !== ';' && text[j] !== ':' && text[j] !== '"') j++;
      pvalue = text.slice(eq + 1, j);
    }
    if (params.has(pname)) throw invalid(R.BAD_PARAMETER, `${pname}=${pvalue}`, line);
    params.set(pname, pvalue);
    i = j;
  }
  if (text[i] !== ':') throw invalid(R.LINE_SYNTAX, text, line);
  const value = text.slice(i + 1);
  if (value.length === 0) throw invalid(R.LINE_SYNTAX, text, line);
  return { name, params, value };
}

function zoneParam(params: Map<string, string>, line: number): Zone | null {
  const tzid = params.get('TZID');
  if (tzid === undefined) return null;
  // A leading '/' marks a globally unique id (RFC 5545 3.2.19); tzdb names are the ones we know.
  const zone = resolveZone(tzid.startsWith('/') ? tzid.slice(1) : tzid);
  if (!zone) throw invalid(R.UNKNOWN_TIME_ZONE, `TZID=${tzid}`, line);
  return zone;
}

function checkParams(params: Map<string, string>, allowed: string[], line: number): void {
  for (const [name, value] of params) {
    // X- parameters and unknown IANA ones are ignored, as RFC 5545 3.2 asks.
    if (allowed.includes(name) || !['VALUE', 'TZID'].includes(name)) continue;
    throw invalid(R.BAD_PARAMETER, `${name}=${value}`, line);
  }
}

function parseDateList(
  cl: ContentLine,
  line: number,
  allowPeriod: boolean,
  budget: { left: number },
): DateEntry[] {
  checkParams(cl.params, ['VALUE', 'TZID'], line);
  const valueType = cl.params.get('VALUE')?.toUpperCase();
  if (
    valueType !== undefined &&
    valueType !== 'DATE' &&
    valueType !== 'DATE-TIME' &&
    !(allowPeriod && valueType === 'PERIOD')
  ) {
    throw invalid(R.BAD_PARAMETER, `VALUE=${valueType}`, line);
  }
  const zone = zoneParam(cl.params, line);
  const items = cl.value.split(',');
  budget.left -= items.length;
  if (budget.left < 0) throw invalid(R.TOO_LARGE, `${cl.name} values`, line);
  const out: DateEntry[] = [];
  for (const item of items) {
    const upper = item.toUpperCase();
    if (valueType === 'PERIOD') {
      out.push(parsePeriod(upper, zone, line));
      continue;
    }
    // Without VALUE the default is DATE-TIME; a bare 'YYYYMMDD' is read as the DATE it clearly is.
    if (valueType === 'DATE' || (valueType === undefined && upper.length === 8)) {
      const days = parseIcalDate(upper);
      if (days === null) throw invalid(R.BAD_VALUE, item, line);
      out.push({ kind: 'date', days, line });
      continue;
    }
    out.push(dateTimeEntry(upper, zone, line));
  }
  return out;
}

function dateTimeEntry(text: string, zone: Zone | null, line: number): DateEntry & { kind: 'date-time' } {
  const dt = parseIcalDateTime(text);
  if (!dt) throw invalid(R.BAD_VALUE, text, line);
  // TZID on a UTC value is a contradiction RFC 5545 3.2.19 forbids.
  if (dt.utc && zone) throw invalid(R.BAD_VALUE, text, line);
  return { kind: 'date-time', wallMs: dt.wallMs, zone: dt.utc ? resolveZone('UTC') : zone, line };
}

function parsePeriod(text: string, zone: Zone | null, line: number): DateEntry {
  const slash = text.indexOf('/');
  if (slash < 0) throw invalid(R.BAD_VALUE, text, line);
  const start = dateTimeEntry(text.slice(0, slash), zone, line);
  const endText = text.slice(slash + 1);
  if (endText.startsWith('P') || endText.startsWith('+P')) {
    const duration = parseDuration(endText);
    if (!duration) throw invalid(R.BAD_VALUE, text, line);
    return { ...start, periodEnd: { duration } };
  }
  const end = dateTimeEntry(endText, zone, line);
  // Both ends must be of one kind (UTC or local) for the end to be read in the start's zone.
  if ((end.zone === null) !== (start.zone === null) || end.zone?.name !== start.zone?.name) {
    throw invalid(R.BAD_VALUE, text, line);
  }
  if (end.wallMs < start.wallMs) throw invalid(R.END_BEFORE_START, text, line);
  return { ...start, periodEnd: { wallMs: end.wallMs } };
}

/**
 * Parses the stored recurrence lines of a series: RRULE, EXRULE (deprecated by RFC 5545 but still
 * met; accepted), RDATE (DATE, DATE-TIME with TZID or Z, PERIOD) and EXDATE (DATE, DATE-TIME).
 * Folded lines (CRLF + space) are unfolded. Anything else throws a RecurrenceError.
 */
export function parseRecurrenceLines(lines: readonly string[]): RecurrenceLines {
  if (!Array.isArray(lines)) throw invalid(R.LINE_SYNTAX, 'lines must be an array');
  if (lines.length > MAX_LINES) throw invalid(R.TOO_LARGE, `${lines.length} lines`);
  const out: RecurrenceLines = { rrules: [], exrules: [], rdates: [], exdates: [] };
  const budget = { left: MAX_DATE_VALUES };
  lines.forEach((rawLine, line) => {
    if (typeof rawLine !== 'string') throw invalid(R.LINE_SYNTAX, String(rawLine), line);
    if (rawLine.length > MAX_LINE_CHARS * 2) throw invalid(R.TOO_LARGE, rawLine, line);
    const text = rawLine.replace(/\r?\n[ \t]/g, '');
    if (text.length > MAX_LINE_CHARS) throw invalid(R.TOO_LARGE, text, line);
    if (/[\s\p{Cc}]/u.test(text.replace(/"[^"]*"/g, ''))) throw invalid(R.LINE_SYNTAX, text, line);
    const cl = splitContentLine(text, line);
    switch (cl.name) {
      case 'RRULE':
      case 'EXRULE':
        for (const [name, value] of cl.params) {
          if (!name.startsWith('X-')) throw invalid(R.BAD_PARAMETER, `${name}=${value}`, line);
        }
        (cl.name === 'RRULE' ? out.rrules : out.exrules).push(parseRule(cl.value, line));
        break;
      case 'RDATE':
        out.rdates.push(...parseDateList(cl, line, true, budget));
        break;
      case 'EXDATE':
        out.exdates.push(...parseDateList(cl, line, false, budget));
        break;
      default:
        throw invalid(R.UNKNOWN_PROPERTY, cl.name, line);
    }
  });
  return out;
}

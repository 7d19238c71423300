import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ORACLE_CASES, type OracleCase } from '../test-oracle/cases';
import { expandRecurrence } from './expand';

/**
 * Every case of test-oracle/cases.ts through python-dateutil 2.8.2 (Debian's python3-dateutil,
 * installed by scripts/ensure-deps.sh) and through the engine; the lists must be equal, except where
 * dateutil departs from RFC 5545: there the case's RFC answer is asserted, and dateutil's differing
 * answer is asserted too, so the deviation note cannot go stale.
 */
const PYTHON = '/usr/bin/python3';
const ORACLE = join(__dirname, '..', 'test-oracle', 'dateutil_oracle.py');

type OracleAnswer = string[] | { error: string };

function runOracle(cases: OracleCase[]): Record<string, OracleAnswer> {
  let out: Buffer;
  try {
    out = execFileSync(PYTHON, [ORACLE], {
      input: JSON.stringify(cases),
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (e) {
    throw new Error(
      `the dateutil oracle did not run: ${PYTHON} with python3-dateutil is needed (scripts/ensure-deps.sh installs it)`,
      { cause: e },
    );
  }
  return JSON.parse(out.toString('utf8')) as Record<string, OracleAnswer>;
}

function engineAnswer(c: OracleCase): string[] {
  const result = expandRecurrence(
    { start: c.start, lines: c.lines },
    { from: '1900-01-01T00:00:00Z', to: c.to ?? '9999-12-31T00:00:00Z', limit: c.max },
  );
  expect(result.truncated).toBeNull();
  return result.occurrences.map((o) => ('date' in o.start ? o.start.date : o.start.instant));
}

describe('recurrence engine against python-dateutil', () => {
  let oracle: Record<string, OracleAnswer>;

  beforeAll(() => {
    oracle = runOracle(ORACLE_CASES);
  });

  it('has the cases it claims (RFC 5545 3.8.5.3 examples and 80+ in all)', () => {
    expect(ORACLE_CASES.filter((c) => c.id.startsWith('rfc-')).length).toBeGreaterThanOrEqual(42);
    expect(ORACLE_CASES.length).toBeGreaterThanOrEqual(80);
    expect(new Set(ORACLE_CASES.map((c) => c.id)).size).toBe(ORACLE_CASES.length);
  });

  it.each(ORACLE_CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const theirs = oracle[c.id];
    if (!Array.isArray(theirs)) throw new Error(`dateutil failed on ${c.id}: ${theirs?.error}`);
    const ours = engineAnswer(c);
    if (c.rfc) {
      expect(ours).toEqual(c.rfc.expected);
      expect(theirs).not.toEqual(c.rfc.expected);
    } else {
      expect(ours).toEqual(theirs);
    }
  });
});

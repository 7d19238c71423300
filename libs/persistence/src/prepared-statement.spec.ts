import { MAX_PREPARED_TEXTS, statementName } from './prepared-statement';

describe('statementName', () => {
  it('gives one text one name, and different texts different names', () => {
    const a = statementName('SELECT 1 WHERE $1 = 1');
    expect(a).toMatch(/^s[A-Za-z0-9_-]{22}$/);
    expect(statementName('SELECT 1 WHERE $1 = 1')).toBe(a);
    expect(statementName('SELECT 2 WHERE $1 = 1')).not.toBe(a);
  });

  it('stops naming new texts past MAX_PREPARED_TEXTS, and keeps the names it gave', () => {
    const first = statementName('SELECT $1::int AS kept');
    for (let i = 0; i < MAX_PREPARED_TEXTS; i++) statementName(`SELECT ${i} AS filler`);
    expect(statementName('SELECT $1::int AS late')).toBeNull();
    expect(statementName('SELECT $1::int AS kept')).toBe(first);
  });
});

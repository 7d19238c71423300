import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CALDAV, DAV } from './dav-xml';
import { DAV_PRECONDITIONS, DavError, davError } from './dav.errors';

const DOCS = resolve(__dirname, '../../../../docs');
/** docs/caldav.md and its translations, each with the same table of reasons. */
const FILES = ['caldav.md', 'caldav.ru.md', 'caldav.kk.md', 'caldav.uz.md', 'caldav.tr.md', 'caldav.es.md'];
const PREFIX: Record<string, string> = { [DAV]: 'DAV', [CALDAV]: 'CALDAV' };

/** What dav.errors.ts says of each reason, as the table writes it: status and precondition element. */
const expected = Object.values(DavError)
  .map((code) => {
    const pre = DAV_PRECONDITIONS[code];
    return `${code} | ${davError.specs[code].status} | ${pre ? `${PREFIX[pre.ns]}:${pre.name}` : '—'}`;
  })
  .sort();

/** The rows of the reasons table: `| \`CALDAV_…\` | status | \`precondition\` or — | when |`. */
function rows(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => /^\|\s*`CALDAV_[A-Z_]+`\s*\|/.test(line))
    .map((line) => {
      const [code, status, pre] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/^`|`$/g, ''));
      return `${code} | ${status} | ${pre}`;
    })
    .sort();
}

describe('CalDAV documentation (docs/caldav*.md)', () => {
  it.each(FILES)(
    '%s lists every CalDAV reason once, with the status and precondition the code answers',
    (f) => {
      expect(rows(readFileSync(resolve(DOCS, f), 'utf8'))).toEqual(expected);
    },
  );

  it('the English page links each translation', () => {
    const en = readFileSync(resolve(DOCS, 'caldav.md'), 'utf8');
    for (const f of FILES.slice(1)) expect(en).toContain(`](${f})`);
  });
});

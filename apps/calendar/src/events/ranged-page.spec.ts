import { comparator, mergePage, type SortKeys, type SortSpec } from './ranged-page';

/** Random plain rows and occurrences; every page of the merge equals the slice of one full sort. */
describe('mergePage', () => {
  const key = (start: number | null, id: string, seq = 0, updated: number | null = null): SortKeys => ({
    start,
    end: start === null ? null : start + 10,
    updated,
    id,
    seq,
  });
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };

  for (const sort of [
    { by: 'start', direction: 'ASC' },
    { by: 'start', direction: 'DESC' },
    { by: 'updated', direction: 'ASC' },
    { by: 'updated', direction: 'DESC' },
  ] as SortSpec[]) {
    it(`slices exactly like one sort (${sort.by} ${sort.direction})`, () => {
      for (let round = 0; round < 40; round++) {
        const cmp = comparator(sort);
        const plain = Array.from({ length: rand(30) }, (_, i) =>
          key(
            rand(10) === 0 ? null : rand(50),
            `p${String(i).padStart(3, '0')}`,
            0,
            rand(3) ? rand(9) : null,
          ),
        ).sort(cmp);
        const occ = Array.from({ length: rand(30) }, (_, i) =>
          key(rand(50), 'm1', i, rand(2) ? 4 : null),
        ).sort(cmp);
        const all = [...plain, ...occ].sort(cmp);
        for (const offset of [0, 1, 3, 7, 20, 45, 80]) {
          for (const limit of [1, 5, 50]) {
            const plainFrom = Math.max(0, offset - occ.length);
            const page = mergePage({
              plain: plain.slice(plainFrom, offset + limit),
              plainFrom,
              occurrences: occ,
              keyOfPlain: (p) => p,
              keyOfOccurrence: (o) => o,
              sort,
              offset,
              limit,
            }).map((x) => ('plain' in x ? x.plain : x.occurrence));
            expect(page).toEqual(all.slice(offset, offset + limit));
          }
        }
      }
    });
  }
});

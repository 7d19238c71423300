import type { FieldDescriptor, FieldKind } from './route-manifest';

/**
 * Boundary and hostile values per declared kind, as raw JSON text (so numbers JSON.stringify would
 * round, like 2^53+1, arrive exactly as an attacker would send them). Every kind also gets the
 * generic ones: wrong types, NUL, lone surrogates, unicode extremes, huge and deeply nested values.
 */
const j = (v: unknown) => JSON.stringify(v);

const GENERIC: string[] = [
  'null',
  'true',
  '0',
  '-1',
  '1e400',
  '[]',
  '{}',
  j(''),
  j(' '),
  j('a\u0000b'),
  '"\\ud800"',
  '"x\\udc00"',
  j('\u202e\u200b\ufeff'),
  j('x'.repeat(100_000)),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(40)}${']'.repeat(40)}`,
];

function strings(f: Omit<FieldDescriptor, 'name' | 'required'>): string[] {
  const max = f.maxChars ?? 256;
  return [
    j('😀'.repeat(max)),
    j('😀'.repeat(max + 1)),
    j('❤️'.repeat(Math.ceil(max / 2) + 1)),
    j('x'.repeat(max + 1)),
    j('é'.repeat(max)),
    j('%00'),
    j('__proto__'),
    j('constructor'),
    '12',
    '["a"]',
  ];
}

const BY_KIND: Record<FieldKind, (f: Omit<FieldDescriptor, 'name' | 'required'>) => string[]> = {
  string: strings,
  timezone: () => [j('Mars/Olympus'), j('UTC\u0000'), j('x'.repeat(1000)), j('Etc/GMT+99'), j('')],
  int: (f) => [
    String(f.min ?? 0),
    String((f.min ?? 0) - 1),
    String(f.max ?? 2147483647),
    String((f.max ?? 2147483647) + 1),
    '2147483648',
    '-2147483649',
    '9007199254740993',
    '1e20',
    '-1e20',
    '1.5',
    '-0',
    '1e308',
    j('1'),
  ],
  number: () => ['1e308', '-1e308', '1e-400', '9007199254740993', j('1')],
  boolean: () => [j('true'), '1', '0'],
  instant: () =>
    [
      '2026-13-01T00:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-12-01T24:00:00Z',
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+01:00',
      '9999-12-31T23:59:59-14:00',
      '+275760-09-13T00:00:00Z',
      '2026-12-01T10:00:00',
      '2026-12-01',
      'now',
      '2026-12-01T10:00:00+99:00',
    ].map(j),
  date: () =>
    ['2026-13-01', '2026-12-32', '2026-02-29', '0000-01-01', '9999-12-31', '2026-1-1', '20261201'].map(j),
  enum: (f) => [j(''), j((f.values?.[0] ?? 'x').toUpperCase()), j('x'), j([f.values?.[0] ?? 'x'])],
  array: (f) => [
    j(Array.from({ length: (f.max ?? 100) + 1 }, () => 'a')),
    j(Array.from({ length: 10_001 }, (_, i) => i)),
    '[null]',
    '[[[]]]',
    j('not-a-list'),
    j(['a\u0000']),
    '["\\ud800"]',
  ],
  object: () => [j('x'), '[]', '{"unknown":1}', '{"__proto__":{"x":1}}', '{"hasOwnProperty":1}'],
  map: () => [
    '{"":"v"}',
    '{"__proto__":"x"}',
    '{"constructor":"x"}',
    '{"toString":"x"}',
    '{"k":1}',
    '{"k":null}',
    '{"k":{"deep":"x"}}',
    j(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))),
    j({ ['k'.repeat(65)]: 'v' }),
    '["a"]',
    '{"k\\u0000":"v"}',
  ],
  unknown: () => [],
};

export function hostileJsonValues(f: Omit<FieldDescriptor, 'name' | 'required'>): string[] {
  return [...BY_KIND[f.kind](f), ...GENERIC];
}

/** Query-string values, already percent-encoded (or deliberately not). */
export function hostileQueryValues(f: FieldDescriptor): string[] {
  const max = f.maxChars ?? f.items?.maxChars ?? 256;
  return [
    '',
    '%00',
    'a%00b',
    '%ff%fe',
    '%ed%a0%80',
    '%',
    '%zz',
    '1e19',
    '99999999999999999999',
    '-1',
    '0x10',
    '%20',
    'x'.repeat(max + 1),
    encodeURIComponent('😀'.repeat(max + 1)),
    'x'.repeat(6000),
    'garbage',
    'room:',
    '2026-13-01',
    '2026-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    ',,,',
    encodeURIComponent(',a,'.repeat(60)),
  ];
}

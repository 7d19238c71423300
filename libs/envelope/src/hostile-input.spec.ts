import { exceedsJsonDepth, inspectJsonStrings, inspectUrl, isPrototypeMemberName } from './hostile-input';

const rules = (problems: { field: string; rule: string }[]) => problems.map((p) => `${p.field}:${p.rule}`);

describe('hostile input checks', () => {
  it('measures JSON depth outside strings only', () => {
    expect(exceedsJsonDepth(Buffer.from('[[[]]]'), 3)).toBe(false);
    expect(exceedsJsonDepth(Buffer.from('[[[[]]]]'), 3)).toBe(true);
    expect(exceedsJsonDepth(Buffer.from(`{"a":"${'['.repeat(100)}\\"["}`), 3)).toBe(false);
  });

  it('names NUL characters and lone surrogates in values and keys, with their path', () => {
    const parsed = JSON.parse(
      '{"a":"x\\u0000","b":["ok","\\ud800"],"c":{"k\\u0000":"v"},"d":"😀"}',
    ) as unknown;
    expect(rules(inspectJsonStrings(parsed))).toEqual([
      'a:noNulCharacter',
      'b.1:wellFormedUnicode',
      'c.k\u0000:noNulCharacter',
    ]);
  });

  it('points at the strings that held undecodable bytes', () => {
    const text = Buffer.concat([Buffer.from('{"a":"ok","b":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(rules(inspectJsonStrings(JSON.parse(text.toString('utf8')), { replacedBytes: true }))).toEqual([
      'b:wellFormedUtf8',
    ]);
  });

  it('checks the percent-encoding of the path and every query parameter', () => {
    expect(inspectUrl('/health/live')).toEqual([]);
    expect(inspectUrl('/Calendar/events?text=caf%C3%A9&a=1+2')).toEqual([]);
    expect(rules(inspectUrl('/x?text=a%00b&q=%ff&constructor=1&ok=%25'))).toEqual([
      'text:noNulCharacter',
      'q:wellFormedUtf8',
      'constructor:whitelistValidation',
    ]);
    expect(rules(inspectUrl('/x/%E0%A4%A'))).toEqual(['(path):wellFormedUtf8']);
    expect(rules(inspectUrl('/x%00'))).toEqual(['(path):noNulCharacter']);
  });

  it('knows the names of Object.prototype members', () => {
    expect(['__proto__', 'constructor', 'hasOwnProperty', 'prototype'].every(isPrototypeMemberName)).toBe(
      true,
    );
    expect(isPrototypeMemberName('title')).toBe(false);
  });
});

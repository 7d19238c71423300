import { service } from '@platform/registry';
import { AREA_OF_PATH, LENDING_AREAS, LENDING_SCOPES } from './scopes';

describe('lending scopes and the gateway prefixes', () => {
  it('give every routed base path a scope area, and every area a routed path', () => {
    const prefixes = [...service('lending').gateway.prefixes].sort();
    expect(Object.keys(AREA_OF_PATH).sort()).toEqual(prefixes);
    const mapped = new Set(Object.values(AREA_OF_PATH));
    expect(LENDING_AREAS.filter((a) => !mapped.has(a))).toEqual([]);
  });

  it('have a read and a write scope per area', () => {
    expect(LENDING_SCOPES).toHaveLength(LENDING_AREAS.length * 2);
    expect(LENDING_SCOPES).toContain('loans:write');
  });
});

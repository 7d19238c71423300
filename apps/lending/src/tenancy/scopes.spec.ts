import { service } from '@platform/registry';
import { AREA_OF_PATH, KEY_SCOPES, LENDING_AREAS, LENDING_SCOPES, WEBHOOK_SCOPES } from './scopes';

describe('lending scopes and the gateway prefixes', () => {
  it('give every routed base path a scope area, and every area a routed path', () => {
    const prefixes = [...service('lending').gateway.prefixes].sort();
    expect(Object.keys(AREA_OF_PATH).sort()).toEqual(prefixes);
    const mapped = new Set(Object.values(AREA_OF_PATH));
    expect(LENDING_AREAS.filter((a) => !mapped.has(a))).toEqual([]);
    expect(mapped.has('keys')).toBe(true);
    expect(mapped.has('webhooks')).toBe(true);
  });

  it('have a read and a write scope per area, the key administration and the webhook scopes', () => {
    expect(LENDING_SCOPES).toHaveLength(LENDING_AREAS.length * 2 + KEY_SCOPES.length + WEBHOOK_SCOPES.length);
    expect(LENDING_SCOPES).toEqual(expect.arrayContaining(['webhooks:read', 'webhooks:write']));
    expect(LENDING_SCOPES).toContain('loans:write');
    expect(LENDING_SCOPES).toEqual(expect.arrayContaining(['keys:read', 'keys:admin']));
    expect(new Set(LENDING_SCOPES).size).toBe(LENDING_SCOPES.length);
  });
});

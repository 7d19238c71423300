import { defineAccess, missingScopes } from './access.decorators';

describe('access rules', () => {
  it('all-of needs every scope, any-of one, an exemption none', () => {
    expect(missingScopes({ kind: 'all-of', scopes: ['a', 'b'] }, ['a'])).toEqual(['b']);
    expect(missingScopes({ kind: 'all-of', scopes: ['a', 'b'] }, ['b', 'a'])).toEqual([]);
    expect(missingScopes({ kind: 'any-of', scopes: ['a', 'b'] }, ['b'])).toEqual([]);
    expect(missingScopes({ kind: 'any-of', scopes: ['a', 'b'] }, ['c'])).toEqual(['a', 'b']);
    expect(missingScopes({ kind: 'exempt', reason: 'own data' }, [])).toEqual([]);
  });

  it('refuses scopes outside the vocabulary and an exemption without a reason', () => {
    const Access = defineAccess({ schemes: ['k'], scopes: ['x:read'] });
    const untyped = Access.RequireScopes as (...s: string[]) => unknown;
    expect(() => untyped('x:raed')).toThrow('unknown scopes: x:raed');
    expect(() => Access.NoScopeRequired(' ')).toThrow('an exemption needs a reason');
    expect(() => Access.RequireScopes('x:read')).not.toThrow();
  });
});

import { bureauUidOf } from './bureau-uid';

describe('bureau record UID', () => {
  it('is the application id, a hyphen and a check character that changes with any digit', () => {
    const id = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
    const uid = bureauUidOf(id);
    expect(uid).toMatch(/^6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d-[0-9a-f]$/);
    expect(bureauUidOf(id.toUpperCase())).toBe(uid);
    expect(bureauUidOf(id.replace(/d$/, 'e')).slice(-1)).not.toBe(uid.slice(-1));
  });
});

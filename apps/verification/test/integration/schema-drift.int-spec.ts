import { schemaDrift } from '@platform/testing';
import { VERIFICATION_DATABASE } from '../../src/database';

describe('verification entities and migrations agree', () => {
  it('leave nothing for TypeORM to change after the migrations ran', async () => {
    expect(await schemaDrift(VERIFICATION_DATABASE)).toEqual([]);
  });
});

import { schemaDrift } from '@platform/testing';
import { PUBLIC_STATUS_DATABASE } from '../../src/database';

describe('public-status entities and migrations agree', () => {
  it('leave nothing for TypeORM to change after the migrations ran', async () => {
    expect(await schemaDrift(PUBLIC_STATUS_DATABASE)).toEqual([]);
  });
});

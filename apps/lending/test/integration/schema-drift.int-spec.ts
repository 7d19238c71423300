import { schemaDrift } from '@platform/testing';
import { LENDING_DATABASE } from '../../src/database';

describe('lending entities and migrations agree', () => {
  it('leave nothing for TypeORM to change after the migrations ran', async () => {
    expect(await schemaDrift(LENDING_DATABASE)).toEqual([]);
  });
});

import { schemaDrift } from '@platform/testing';
import { CALENDAR_DATABASE } from '../../src/database';

describe('calendar entities and migrations agree', () => {
  it('leave nothing for TypeORM to change after the migrations ran', async () => {
    expect(await schemaDrift(CALENDAR_DATABASE)).toEqual([]);
  });
});

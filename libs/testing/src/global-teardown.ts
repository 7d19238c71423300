import type { RunningPostgres } from '@platform/dev-infra';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as unknown as Record<string, unknown>;
  const pg = state.__platformPg as RunningPostgres | undefined;
  if (pg) await pg.stop();
  // The mock cluster lives on native threads of this process; destroying it blocks ~1 s and the
  // process is about to exit anyway.
}

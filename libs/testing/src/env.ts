/** Environment for an app under test: its own database, the run's broker, quiet logs, a free port. */
export function serviceEnv(
  databaseUrl: string | undefined,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_CONSUMER_MAX_WAIT_MS: '100',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  };
}

/** Polls until `check` returns a value that is not undefined, or fails after the timeout. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met in ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

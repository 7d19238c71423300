import { ConfigError, loadConfig } from '@platform/config';
import { VerificationConfig } from '../config/verification.config';
import { SandboxIdentityProvider, sandboxScenario } from './sandbox.provider';

const input = (applicantName: string | null, kind: 'KYC' | 'KYB' = 'KYC') => ({
  sessionId: 's-1',
  kind,
  applicantName,
  applicantBirthDate: null,
  applicantCountryCode: 'KZ',
  externalReferenceId: 'APP-1',
});

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(VerificationConfig, env);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('the sandbox identity provider', () => {
  const sandbox = new SandboxIdentityProvider();

  it.each([
    ['Sandbox Clear', 'clear'],
    ['Aigerim sandbox  CONSIDER', 'consider'],
    ['Sandbox Reject LLP', 'rejected'],
    ['Sandbox Error', 'error'],
    ['Sandbox Error Sandbox Clear', 'error'],
    ['Aigerim Nurlanova', 'clear'],
    [null, 'clear'],
  ])('reads the magic input of %p as %s', (name, scenario) => {
    expect(sandboxScenario(name).scenario).toBe(scenario);
  });

  it('answers deterministically and in full, KYC and KYB alike', async () => {
    const a = await sandbox.startSession(input('Sandbox Reject'));
    expect(a).toEqual(await sandbox.startSession(input('Sandbox Reject')));
    expect(a).toMatchObject({
      status: 'Completed',
      result: 'rejected',
      breakdown: { watchlist: { result: 'rejected', reason: 'SANDBOX_SANCTIONS_HIT' } },
    });
    expect(await sandbox.startSession(input('x', 'KYB'))).toMatchObject({
      status: 'Completed',
      result: 'clear',
      breakdown: { company_registry: { result: 'clear' }, sanctions: { result: 'clear' } },
    });
    expect(await sandbox.startSession(input('Sandbox Error'))).toMatchObject({
      status: 'Failed',
      retryable: true,
    });
  });

  it('is refused in production unless IDENTITY_PROVIDER_ALLOW_SANDBOX says so', () => {
    const refused = 'IDENTITY_PROVIDER=sandbox in production needs IDENTITY_PROVIDER_ALLOW_SANDBOX=true';
    expect(problems({ NODE_ENV: 'production' })).toContain(refused);
    expect(problems({ NODE_ENV: 'production', IDENTITY_PROVIDER_ALLOW_SANDBOX: 'true' })).not.toContain(
      refused,
    );
    expect(problems({ NODE_ENV: 'test' })).not.toContain(refused);
    expect(problems({ NODE_ENV: 'test', IDENTITY_PROVIDER: 'onfido' }).join()).toMatch(/IDENTITY_PROVIDER/);
  });
});

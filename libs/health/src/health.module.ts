import { Controller, Get, Inject, Module, type DynamicModule } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';

export type HealthCheck = () => Promise<void>;

export interface HealthCheckDefinition {
  name: string;
  inject?: unknown[];
  useFactory: (...deps: never[]) => HealthCheck;
}

const CHECKS = Symbol('HEALTH_CHECKS');
const SERVICE = Symbol('HEALTH_SERVICE_NAME');

interface NamedCheck {
  name: string;
  run: HealthCheck;
}

export interface ReadinessReport {
  service: string;
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number; error?: string }>;
}

async function timed(check: NamedCheck, timeoutMs: number) {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up' as const, latencyMs: Date.now() - started };
  } catch (err) {
    return { status: 'down' as const, latencyMs: Date.now() - started, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller('health')
class HealthController {
  constructor(
    @Inject(CHECKS) private readonly checks: NamedCheck[],
    @Inject(SERVICE) private readonly service: string,
  ) {}

  /** Liveness: the process answers. Never touches dependencies, so a broker outage does not restart pods. */
  @Public()
  @Get('live')
  @ApiOperation({ summary: 'Liveness probe' })
  live() {
    return { service: this.service, status: 'up' };
  }

  /** Readiness: every dependency answers; 503 in the envelope otherwise. */
  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness probe: database and broker' })
  async ready(): Promise<ReadinessReport> {
    const results = await Promise.all(this.checks.map(async (c) => [c.name, await timed(c, 2500)] as const));
    const report: ReadinessReport = {
      service: this.service,
      status: results.every(([, r]) => r.status === 'up') ? 'up' : 'down',
      checks: Object.fromEntries(results),
    };
    if (report.status === 'down') {
      const failed = results.filter(([, r]) => r.status === 'down').map(([n]) => n);
      throw commonError(CommonError.NOT_READY, { failed: failed.join(', ') }, { ...report });
    }
    return report;
  }
}

@Module({})
export class HealthModule {
  /** @param imports modules exporting what the checks inject, when it is not global. */
  static forRoot(
    service: string,
    checks: HealthCheckDefinition[],
    imports: DynamicModule['imports'] = [],
  ): DynamicModule {
    return {
      module: HealthModule,
      imports,
      controllers: [HealthController],
      providers: [
        { provide: SERVICE, useValue: service },
        ...checks.map((c, i) => ({
          provide: `health-check-${i}`,
          inject: (c.inject ?? []) as never[],
          useFactory: (...deps: never[]): NamedCheck => ({ name: c.name, run: c.useFactory(...deps) }),
        })),
        {
          provide: CHECKS,
          inject: checks.map((_, i) => `health-check-${i}`),
          useFactory: (...named: NamedCheck[]) => named,
        },
      ],
    };
  }
}

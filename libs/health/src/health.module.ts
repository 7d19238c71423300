import {
  Controller,
  Get,
  Inject,
  Module,
  type DynamicModule,
  type Provider,
  type Type,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import type { KafkaClientConfig } from '@platform/config';
import { CommonError, commonError } from '@platform/envelope';
import { HealthReporter, type ReportBasis } from './health-reporter';
import {
  Readiness,
  failingChecks,
  type HealthCheck,
  type NamedCheck,
  type ReadinessReport,
} from './readiness';
import { KafkaReportSink } from './report-sink';

export interface HealthCheckDefinition {
  name: string;
  inject?: unknown[];
  useFactory: (...deps: never[]) => HealthCheck;
}

/** How the app reports its health on Kafka (`platform.service.health-reported.v1`). */
export interface HealthReportingOptions {
  /** The app's typed config class: brokers, INSTANCE_ID, HEALTH_HEARTBEAT_MS, HEALTH_CHECK_MS. */
  config: Type<KafkaClientConfig>;
  /** `ready` (default): the readiness checks decide; `live`: up while the process answers. */
  basis?: ReportBasis;
}

const CHECKS = Symbol('HEALTH_CHECKS');
const SERVICE = Symbol('HEALTH_SERVICE_NAME');

@ApiTags('health')
@Controller('health')
class HealthController {
  constructor(
    private readonly readiness: Readiness,
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
    const report = await this.readiness.evaluate();
    if (report.status === 'down')
      throw commonError(CommonError.NOT_READY, { failed: failingChecks(report).join(', ') }, { ...report });
    return report;
  }
}

function reporterProvider(reporting: HealthReportingOptions): Provider {
  return {
    provide: HealthReporter,
    inject: [Readiness, reporting.config],
    useFactory: (readiness: Readiness, cfg: KafkaClientConfig) =>
      new HealthReporter(readiness, new KafkaReportSink(cfg), {
        instance: cfg.INSTANCE_ID,
        heartbeatMs: cfg.HEALTH_HEARTBEAT_MS,
        checkMs: cfg.HEALTH_CHECK_MS,
        basis: reporting.basis ?? 'ready',
      }),
  };
}

@Module({})
export class HealthModule {
  /**
   * @param imports modules exporting what the checks inject, when it is not global.
   * @param reporting when given, the app publishes its health on Kafka (libs/health HealthReporter).
   */
  static forRoot(
    service: string,
    checks: HealthCheckDefinition[],
    imports: DynamicModule['imports'] = [],
    reporting?: HealthReportingOptions,
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
        {
          provide: Readiness,
          inject: [SERVICE, CHECKS],
          useFactory: (name: string, named: NamedCheck[]) => new Readiness(name, named),
        },
        ...(reporting ? [reporterProvider(reporting)] : []),
      ],
      exports: [Readiness, ...(reporting ? [HealthReporter] : [])],
    };
  }
}

import {
  Controller,
  Get,
  Inject,
  Injectable,
  Logger,
  Module,
  Res,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@platform/auth';
import { RawResponse } from '@platform/envelope';
import {
  collectProcessMetrics,
  scrapeMetrics,
  startMetricsServer,
  type MetricsServer,
} from '@platform/observability';

/**
 * Prometheus's scrape of the process's registry (libs/observability). Anonymous like the probes: the
 * gateway never routes it (libs/registry `internalPaths`), so only what the cluster's NetworkPolicies
 * admit reaches it (Prometheus from the monitoring namespace, and the gateway, which has no route to
 * it). Not part of the API reference.
 */
@ApiExcludeController()
@Controller()
class MetricsController {
  @Public()
  @RawResponse()
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) res: Response): Promise<string> {
    const { contentType, body } = await scrapeMetrics();
    res.setHeader('content-type', contentType);
    return body;
  }
}

/** Settings of an app that serves its metrics on a port of their own. */
export interface MetricsPortConfig {
  HOST: string;
  /** 0: not served. */
  METRICS_PORT: number;
}

const CONFIG = Symbol('METRICS_PORT_CONFIG');

@Injectable()
class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: MetricsServer;

  constructor(@Inject(CONFIG) private readonly cfg: MetricsPortConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.cfg.METRICS_PORT <= 0) return;
    this.server = await startMetricsServer(this.cfg.METRICS_PORT, this.cfg.HOST);
    new Logger('Metrics').log(`metrics on ${this.cfg.HOST}:${this.server.port}/metrics`);
  }

  /** The port it listens on, or null when off. */
  get port(): number | null {
    return this.server?.port ?? null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}

/**
 * `GET /metrics` (Prometheus text) of every app: the process's HTTP histograms, database pools, consumer
 * lag, outbox, webhook and rate-limit figures and Node's own (docs/runbooks/dashboards.md).
 */
@Module({})
export class MetricsModule {
  /** On the app's own port: the services, whose port only the gateway and Prometheus reach. */
  static forRoot(): DynamicModule {
    collectProcessMetrics();
    return { module: MetricsModule, controllers: [MetricsController] };
  }

  /**
   * On a port of its own (`METRICS_PORT`) and not on the app's: the gateway, whose own port the ingress
   * exposes to everyone.
   */
  static onOwnPort(config: Type<MetricsPortConfig>): DynamicModule {
    collectProcessMetrics();
    return {
      module: MetricsModule,
      providers: [{ provide: CONFIG, useExisting: config }, MetricsListener],
      exports: [MetricsListener],
    };
  }
}

export { MetricsListener };

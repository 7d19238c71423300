import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { RawResponse } from '@platform/envelope';
import { RelayService } from './relay.service';

/**
 * Operational endpoints of the relay. Not routed by the gateway: they are for the cluster (probes,
 * Prometheus), reached on the pod's own port.
 */
@ApiTags('relay')
@Controller()
export class RelayController {
  constructor(private readonly relay: RelayService) {}

  @Public()
  @Get('relay/lag')
  @ApiOperation({ summary: 'Unsent events and the age of the oldest, per schema' })
  async lag() {
    const schemas = await this.relay.lag();
    return {
      pending: schemas.reduce((n, s) => n + s.pending, 0),
      oldestPendingSeconds: Math.max(0, ...schemas.map((s) => s.oldestPendingSeconds)),
      dead: schemas.reduce((n, s) => n + s.dead, 0),
      schemas,
      totals: this.relay.totals,
    };
  }

  @Public()
  @RawResponse()
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4')
  @ApiOperation({ summary: 'Prometheus metrics: outbox lag per schema' })
  async metrics(): Promise<string> {
    const schemas = await this.relay.lag();
    const lines = [
      '# HELP outbox_pending_events Events written but not yet published.',
      '# TYPE outbox_pending_events gauge',
      ...schemas.map((s) => `outbox_pending_events{schema="${s.schema}"} ${s.pending}`),
      '# HELP outbox_oldest_pending_seconds Age of the oldest unpublished event.',
      '# TYPE outbox_oldest_pending_seconds gauge',
      ...schemas.map(
        (s) => `outbox_oldest_pending_seconds{schema="${s.schema}"} ${s.oldestPendingSeconds.toFixed(3)}`,
      ),
      '# HELP outbox_dead_events Events moved to the dead-letter topic.',
      '# TYPE outbox_dead_events gauge',
      ...schemas.map((s) => `outbox_dead_events{schema="${s.schema}"} ${s.dead}`),
      '# HELP outbox_published_total Events published by this replica.',
      '# TYPE outbox_published_total counter',
      `outbox_published_total ${this.relay.totals.sent}`,
    ];
    return `${lines.join('\n')}\n`;
  }
}

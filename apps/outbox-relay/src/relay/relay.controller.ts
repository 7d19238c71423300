import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { RelayService } from './relay.service';

/**
 * Operational endpoints of the relay. Not routed by the gateway: they are for the cluster, reached on
 * the pod's own port. The same figures are on `/metrics` (relay.metrics.ts, libs/health MetricsModule).
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
}

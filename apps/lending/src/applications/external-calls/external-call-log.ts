import { Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import type { ProviderCall } from '../providers/provider-call';
import type { ProviderMode } from '../../config/lending.config';
import { TenantData } from '../../tenancy/tenant-data';
import type { ExternalCallStatus } from './external-call.entity';
import { ExternalCallsRepository } from './external-calls.repository';
import { redact, redactText } from './redaction';

export interface CallRecord {
  applicationId: string | null;
  customerId: string | null;
  checkStep: string | null;
  provider: string;
  mode: ProviderMode;
  call: ProviderCall;
  status: ExternalCallStatus;
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

const MAX_ERROR_CHARS = 1000;

/**
 * Writes the external-call log: every provider call, stub or live, in its own short transaction right
 * after the call (so a call is on record even when what follows fails), its bodies and error text
 * redacted here, in the one place every call passes through.
 */
@Injectable()
export class ExternalCallLog {
  constructor(
    private readonly data: TenantData,
    private readonly calls: ExternalCallsRepository,
  ) {}

  async record(organizationId: OrganizationId, r: CallRecord): Promise<void> {
    await this.data.run(organizationId, (tx) =>
      this.calls.add(
        organizationId,
        {
          applicationId: r.applicationId,
          customerId: r.customerId,
          checkStep: r.checkStep,
          provider: r.provider,
          operation: r.call.operation,
          mode: r.mode,
          status: r.status,
          request: redact(r.call.request),
          response: redact(r.call.response),
          error: r.error === null ? null : redactText(r.error.slice(0, MAX_ERROR_CHARS)),
          startedAt: r.startedAt,
          durationMs: r.durationMs,
        },
        tx,
      ),
    );
  }
}

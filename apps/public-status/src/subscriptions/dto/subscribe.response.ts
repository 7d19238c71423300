import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SubscribeResponse {
  @ApiProperty({ enum: ['email', 'webhook'] }) kind: string;
  @ApiProperty({
    enum: ['confirmation_pending', 'active'],
    description:
      'Email: always `confirmation_pending`, whether or not the address was already subscribed (no enumeration)',
  })
  status: string;
  @ApiPropertyOptional({
    description: 'Webhook only, shown once: the signing secret of `X-Service-Signature` (decision 0018)',
    example: 'whsec_...',
  })
  secret?: string;
  @ApiPropertyOptional({
    description:
      'Webhook only, shown once: `POST /PublicStatus/Unsubscribe?token=` with it removes the webhook',
  })
  unsubscribeToken?: string;
  @ApiPropertyOptional({
    type: [String],
    description: 'Webhook only: the event types that will be sent (`X-Service-Event`)',
  })
  events?: string[];
}

export class SubscriptionStatusResponse {
  @ApiProperty({ enum: ['confirmed', 'unsubscribed'] }) status: string;
}

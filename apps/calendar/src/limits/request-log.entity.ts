import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** The spec's request log of non-default keys: never headers, secrets or bodies. */
@Entity({ name: 'request_log' })
@Index('request_log_key_at_idx', ['keyId', 'at'])
export class RequestLogRecord {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ type: 'timestamptz', default: () => 'now()' }) at: Date;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @Column({ name: 'product_id', type: 'text' }) productId: string;
  @Column({ name: 'account_id', type: 'text', nullable: true }) accountId: string | null;
  @Column({ type: 'text' }) method: string;
  @Column({ type: 'text' }) path: string;
  @Column({ type: 'integer' }) status: number;
  @Column({ name: 'latency_ms', type: 'integer' }) latencyMs: number;
  @Column({ name: 'request_id', type: 'text', nullable: true }) requestId: string | null;
}

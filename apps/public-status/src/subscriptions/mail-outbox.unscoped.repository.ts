// Unscoped: the mail worker claims due mail of every business.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Language } from '@platform/i18n';
import { DataSource } from 'typeorm';
import type { MailNotice } from './mail-texts';

export interface ClaimedMail {
  id: string;
  kind: 'confirm' | 'notification';
  /** Confirmation: the business's name. Notification: the staff-written headline. */
  subject: string;
  body: string;
  /** A notification's data, rendered in `language`; null on rows queued before it existed. */
  notice: MailNotice | null;
  attempts: number;
  email: string;
  publicId: string;
  language: Language;
  confirmNonce: string | null;
  confirmExpiresAt: Date | null;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

/**
 * The mail outbox's claim and record statements. A claim is one statement: due rows FOR UPDATE SKIP
 * LOCKED, leased to the claiming worker (lease_owner, and next_attempt_at moved to the lease's end, so
 * a crashed replica's mail becomes due again when its lease ends). Records only land while the claim
 * still holds the lease.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async claim(owner: string, batch: number, leaseMs: number): Promise<ClaimedMail[]> {
    const [rows] = (await this.ds.query(
      `WITH due AS (
         SELECT id FROM mail_outbox WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE mail_outbox m SET status = 'sending', attempts = m.attempts + 1, lease_owner = $2,
              next_attempt_at = now() + $3 * interval '1 millisecond'
       FROM due, subscribers s WHERE m.id = due.id AND s.id = m.subscriber_id
       RETURNING m.id, m.kind, m.subject, m.body, m.notice, m.attempts, s.email, s.public_id AS "publicId",
         s.language,
         s.confirm_nonce AS "confirmNonce", s.confirm_expires_at AS "confirmExpiresAt",
         s.confirmed_at AS "confirmedAt", s.unsubscribed_at AS "unsubscribedAt"`,
      [batch, owner, leaseMs],
    )) as [ClaimedMail[], number];
    return rows;
  }

  async finish(
    id: string,
    owner: string,
    status: 'sent' | 'dropped' | 'dead',
    error?: string,
  ): Promise<void> {
    await this.ds.query(
      `UPDATE mail_outbox SET status = $3, finished_at = now(), lease_owner = NULL, last_error = $4
       WHERE id = $1 AND lease_owner = $2 AND status = 'sending'`,
      [id, owner, status, error?.slice(0, 500) ?? null],
    );
  }

  async retry(id: string, owner: string, delayMs: number, error: string): Promise<void> {
    await this.ds.query(
      `UPDATE mail_outbox SET status = 'pending', lease_owner = NULL, last_error = $4,
              next_attempt_at = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND lease_owner = $2 AND status = 'sending'`,
      [id, owner, delayMs, error.slice(0, 500)],
    );
  }
}

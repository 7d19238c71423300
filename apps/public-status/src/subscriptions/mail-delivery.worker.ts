import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import { PeriodicJob } from '@platform/scheduling';
import { backoffDelayMs } from '@platform/network';
import { I18nService } from 'nestjs-i18n';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createTransport, type Transporter } from 'nodemailer';
import { PublicStatusConfig } from '../config/public-status.config';
import { MailOutboxRepository, type ClaimedMail } from './mail-outbox.unscoped.repository';
import {
  renderConfirmation,
  renderFooter,
  renderNotice,
  type MailCatalog,
  type RenderedMail,
} from './mail-texts';
import { SubscriptionTokens } from './subscription-tokens';

const BATCH = 20;
const LEASE_MS = 60_000;

/**
 * Sends the mail outbox through SMTP (nodemailer, SMTP_URL). Stateless: every replica runs it
 * (PeriodicJob, cluster scope), claims are SKIP LOCKED leases. Links are rendered at send time
 * (nothing secret is stored in the outbox), and so are the texts, in the subscriber's language from the `mail` i18n namespace (decision 0024);
 * every mail carries RFC 8058 one-click unsubscribe headers. A notification to a subscriber who has
 * unsubscribed since it was queued is dropped, as is a confirmation whose link has died.
 * Failures retry with exponential backoff and full jitter (libs/network's, as webhooks') until
 * MAIL_MAX_ATTEMPTS, then the mail is dead.
 */
@Injectable()
export class MailDeliveryWorker extends PeriodicJob<number> {
  private readonly transport: Transporter;
  /** Null when subscriptions are off: the worker then does not run. */
  private readonly tokens: SubscriptionTokens | null;
  private readonly owner = `${hostname()}-${process.pid}`;

  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly config: PublicStatusConfig,
    private readonly i18n: I18nService,
  ) {
    // A round still sending at shutdown gets a few seconds; its leases expire and another replica resends.
    super(MailDeliveryWorker.name, 60_000, { stopWaitsAtMostMs: 5_000 });
    this.transport = createTransport(config.SMTP_URL);
    const secret = config.subscriptionTokenSecret();
    this.tokens = secret ? new SubscriptionTokens(secret) : null;
  }

  /** Off when subscriptions are off (no token secret). */
  protected intervalMs(): number {
    return this.tokens ? this.config.MAIL_WORKER_INTERVAL_MS : 0;
  }

  override async onApplicationShutdown(): Promise<void> {
    await super.onApplicationShutdown();
    this.transport.close();
  }

  /** One round (`runOnce`): claim due mail, send it in parallel, record each outcome; how many it claimed. */
  protected async work(): Promise<number> {
    const owner = `${this.owner}:${randomBytes(6).toString('hex')}`;
    const claimed = await this.outbox.claim(owner, BATCH, LEASE_MS);
    await Promise.all(claimed.map((m) => this.deliver(owner, m)));
    return claimed.length;
  }

  private async deliver(owner: string, m: ClaimedMail): Promise<void> {
    const tokens = this.tokens;
    if (!tokens) return;
    const t = this.catalog(m.language);
    const mail = this.render(tokens, t, m);
    if (mail === null) return this.outbox.finish(m.id, owner, 'dropped');
    const unsubscribe = this.link('Unsubscribe', tokens.unsubscribe(m.publicId));
    try {
      await this.transport.sendMail({
        from: this.config.MAIL_FROM,
        to: m.email,
        subject: mail.subject,
        text: `${mail.text}\n\n${renderFooter(t, unsubscribe)}`,
        headers: {
          'List-Unsubscribe': `<${unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Auto-Submitted': 'auto-generated',
        },
      });
      await this.outbox.finish(m.id, owner, 'sent');
    } catch (e) {
      const error = (e as Error).message;
      if (m.attempts >= this.config.MAIL_MAX_ATTEMPTS) return this.outbox.finish(m.id, owner, 'dead', error);
      const delay = backoffDelayMs(m.attempts, { backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 });
      await this.outbox.retry(m.id, owner, delay, error);
    }
  }

  /** The `mail` texts of one language, placeholders left in (mail-texts fills them). */
  private catalog(lang: Language): MailCatalog {
    // No `args`: the library then returns the text as written, without formatting it.
    return (key) => this.i18n.translate(`mail.${key}`, { lang });
  }

  /** The mail to send, or null when it must not go out any more. */
  private render(tokens: SubscriptionTokens, t: MailCatalog, m: ClaimedMail): RenderedMail | null {
    if (m.unsubscribedAt) return null;
    if (m.kind === 'notification') {
      if (!m.confirmedAt) return null;
      // A row queued before notices existed holds its (English) text.
      return m.notice ? renderNotice(t, m.notice) : { subject: m.subject, text: m.body };
    }
    if (!m.confirmNonce || !m.confirmExpiresAt || m.confirmExpiresAt.getTime() <= Date.now()) return null;
    return renderConfirmation(t, {
      business: m.subject,
      hours: this.config.SUBSCRIBE_CONFIRM_TTL_HOURS,
      link: this.link('Subscribe/confirm', tokens.confirm(m.publicId, m.confirmExpiresAt, m.confirmNonce)),
    });
  }

  private link(path: string, token: string): string {
    const base = this.config.PUBLIC_STATUS_URL.replace(/\/+$/, '');
    return `${base}/PublicStatus/${path}?token=${encodeURIComponent(token)}`;
  }
}

import type { IncidentImpact, IncidentStatus } from '../status/states';

export type IncidentEvent = 'created' | 'updated' | 'resolved';
export type MaintenanceEvent = 'scheduled' | 'started' | 'completed';

/**
 * What a notification mail says, without its framing texts: written to `mail_outbox.notice` in the
 * transaction of the change and rendered in the subscriber's language when the worker sends it
 * (decision 0024, "Languages"). Every string in it is staff-written or a public code, sent as written.
 */
export type MailNotice =
  | {
      type: 'incident';
      business: string;
      incident: string;
      status: IncidentStatus;
      impact: IncidentImpact;
      components: string[];
      body: string;
      url: string;
    }
  | {
      type: 'maintenance';
      event: MaintenanceEvent;
      business: string;
      maintenance: string;
      scheduledFor: string;
      scheduledUntil: string;
      components: string[];
      body: string;
      url: string;
    };

/**
 * A text of the `mail` i18n namespace in one language, placeholders left in (e.g. `unsubscribe` ->
 * "Отписаться: {link}"). The caller fills them with `fill`, not the i18n library: its formatter would
 * also expand `$t(...)` and `{...}` found in staff-written values, which must reach the mail as written.
 */
export type MailCatalog = (key: string) => string;

/** Replaces `{name}` placeholders in one pass: a value is never read as a template. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

export interface RenderedMail {
  subject: string;
  text: string;
}

export function renderNotice(t: MailCatalog, n: MailNotice): RenderedMail {
  const affected = n.components.length ? [fill(t('affected'), { components: n.components.join(', ') })] : [];
  if (n.type === 'incident') {
    const status = t(`incidentStatus.${n.status}`);
    return {
      subject: fill(t('incident.subject'), { business: n.business, incident: n.incident, status }),
      text: [
        n.incident,
        fill(t('incident.status'), { status, impact: t(`impact.${n.impact}`) }),
        ...affected,
        '',
        n.body,
        '',
        n.url,
      ].join('\n'),
    };
  }
  const event = t(`maintenanceEvent.${n.event}`);
  return {
    subject: fill(t('maintenance.subject'), { business: n.business, event, maintenance: n.maintenance }),
    text: [
      n.maintenance,
      fill(t('maintenance.window'), { event, from: n.scheduledFor, until: n.scheduledUntil }),
      ...affected,
      '',
      n.body,
      '',
      n.url,
    ].join('\n'),
  };
}

export function renderConfirmation(
  t: MailCatalog,
  c: { business: string; hours: number; link: string },
): RenderedMail {
  return {
    subject: fill(t('confirm.subject'), { business: c.business }),
    text: [
      fill(t('confirm.asked'), { business: c.business }),
      fill(t('confirm.link'), { hours: c.hours, link: c.link }),
      t('confirm.ignore'),
    ].join('\n'),
  };
}

/** The footer of every mail (the RFC 8058 headers carry the same link). */
export function renderFooter(t: MailCatalog, unsubscribeLink: string): string {
  return `--\n${fill(t('unsubscribe'), { link: unsubscribeLink })}\n`;
}

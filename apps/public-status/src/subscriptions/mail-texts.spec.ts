import { readTranslations, SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import { join } from 'node:path';
import { INCIDENT_IMPACTS, INCIDENT_STATUSES } from '../status/states';
import {
  fill,
  renderConfirmation,
  renderFooter,
  renderNotice,
  type MailCatalog,
  type MailNotice,
  type MaintenanceEvent,
} from './mail-texts';

const catalogs = readTranslations([join(__dirname, '../i18n')]);

/** The app's `mail` namespace in one language, as the worker reads it through I18nService. */
function catalog(lang: Language): MailCatalog {
  return (key) => {
    let node: unknown = catalogs[lang].mail;
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (typeof node !== 'string') throw new Error(`no text mail.${key} in ${lang}`);
    return node;
  };
}

const incident = (over: Partial<MailNotice> = {}): MailNotice =>
  ({
    type: 'incident',
    business: 'Acme',
    incident: 'Database degraded',
    status: 'investigating',
    impact: 'major',
    components: ['api/db'],
    body: 'Investigating slow queries',
    url: 'https://status.example.com/PublicStatus/StatusPage?business=acme#inc_1',
    ...over,
  }) as MailNotice;

const maintenance = (event: MaintenanceEvent): MailNotice => ({
  type: 'maintenance',
  event,
  business: 'Acme',
  maintenance: 'Database upgrade',
  scheduledFor: '2026-12-01T02:00:00.000Z',
  scheduledUntil: '2026-12-01T03:00:00.000Z',
  components: [],
  body: 'Writes pause.',
  url: 'https://status.example.com/x',
});

describe('subscriber mail texts', () => {
  it('English reads as the mails always did', () => {
    expect(renderNotice(catalog('en'), incident())).toEqual({
      subject: '[Acme] Database degraded: investigating',
      text: [
        'Database degraded',
        'Status: investigating (impact: major)',
        'Affected: api/db',
        '',
        'Investigating slow queries',
        '',
        'https://status.example.com/PublicStatus/StatusPage?business=acme#inc_1',
      ].join('\n'),
    });
    expect(renderNotice(catalog('en'), maintenance('scheduled'))).toEqual({
      subject: '[Acme] Maintenance scheduled: Database upgrade',
      text: [
        'Database upgrade',
        'Maintenance scheduled (window 2026-12-01T02:00:00.000Z - 2026-12-01T03:00:00.000Z UTC)',
        '',
        'Writes pause.',
        '',
        'https://status.example.com/x',
      ].join('\n'),
    });
    expect(renderFooter(catalog('en'), 'https://u')).toBe('--\nUnsubscribe: https://u\n');
    expect(renderConfirmation(catalog('en'), { business: 'Acme', hours: 48, link: 'https://c' })).toEqual({
      subject: 'Confirm your subscription: Acme',
      text: [
        'Someone (we hope you) asked to receive status notifications of Acme at this address.',
        'Confirm within 48 hours: https://c',
        'If it was not you, ignore this mail: nothing will be sent without confirmation.',
      ].join('\n'),
    });
  });

  it('Russian frames the same staff text in Russian', () => {
    const ru = renderNotice(catalog('ru'), incident({ status: 'resolved', impact: 'critical' }));
    expect(ru.subject).toBe('[Acme] Database degraded: решён');
    expect(ru.text).toContain('Статус: решён (влияние: критическое)');
    expect(ru.text).toContain('Затронутые компоненты: api/db');
    expect(renderConfirmation(catalog('ru'), { business: 'Acme', hours: 48, link: 'L' }).subject).toBe(
      'Подтвердите подписку: Acme',
    );
  });

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))(
    '%s translates every framing text (no English copies)',
    (lang) => {
      const en = catalog('en');
      const t = catalog(lang);
      const keys = [
        'confirm.subject',
        'confirm.asked',
        'confirm.link',
        'confirm.ignore',
        'unsubscribe',
        'affected',
        'incident.status',
        'maintenance.window',
        ...INCIDENT_STATUSES.map((s) => `incidentStatus.${s}`),
        ...INCIDENT_IMPACTS.map((i) => `impact.${i}`),
        ...(['scheduled', 'started', 'completed'] as const).map((e) => `maintenanceEvent.${e}`),
      ];
      expect(keys.filter((k) => t(k) === en(k))).toEqual([]);
    },
  );

  it('keeps staff-written text as written, placeholders and all', () => {
    const staff = 'Queue {status} at 100% $t(mail.unsubscribe) {{x | uppercase}}';
    const mail = renderNotice(catalog('tr'), incident({ incident: staff, body: staff }));
    expect(mail.subject).toBe(`[Acme] ${staff}: inceleniyor`);
    expect(mail.text.split('\n')).toEqual(
      expect.arrayContaining([staff, 'Durum: inceleniyor (etki: yüksek)']),
    );
    expect(fill('{a} {b}', { a: '{b}', b: '$1' })).toBe('{b} $1');
  });
});

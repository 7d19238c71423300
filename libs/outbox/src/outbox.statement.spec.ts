import { CalendarEventChanged, ContractViolation, type CalendarEventChangedV1 } from '@platform/messaging';
import { isoInstantSql, prepareOutboxAppend } from './outbox.statement';
import { OUTBOX_CHANNEL } from './sql';

const valid = (): CalendarEventChangedV1 => ({
  eventId: '7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59',
  accountId: 'acme',
  productId: 'crm',
  entityType: 'deal',
  entityId: 'D-1',
  version: 2,
  title: 'Review',
  startsAt: null,
  endsAt: null,
  status: 'confirmed',
  changedAt: '2026-11-20T09:15:02.120Z',
});

function binder() {
  const params: unknown[] = [];
  return { params, bind: (v: unknown) => `$${params.push(v)}` };
}

describe('prepareOutboxAppend', () => {
  it('validates the payload against its contract before any SQL exists', () => {
    expect(() =>
      prepareOutboxAppend('calendar', CalendarEventChanged, { ...valid(), status: 'maybe' as 'confirmed' }),
    ).toThrow(ContractViolation);
    const { eventId: _id, changedAt: _at, ...rest } = valid();
    expect(() =>
      prepareOutboxAppend(
        'calendar',
        CalendarEventChanged,
        { ...rest, version: 0 },
        {},
        { eventId: 'id', changedAt: isoInstantSql('updated_at') },
      ),
    ).toThrow('version must be >= 1');
  });

  it('refuses statement-filled fields for a contract without an example to validate them with', () => {
    const { eventId: _id, ...rest } = valid();
    expect(() =>
      prepareOutboxAppend(
        'calendar',
        { ...CalendarEventChanged, example: undefined },
        rest,
        {},
        { eventId: 'id' },
      ),
    ).toThrow('has no example');
  });

  it('inserts the same columns as OutboxWriter, keyed and notified the same way', () => {
    const append = prepareOutboxAppend('calendar', CalendarEventChanged, valid(), {
      tenantId: 'acme',
      requestId: 'req-1',
      eventId: '0b6c3a2e-2d1f-4c57-9a36-3f0f5c1e9d11',
    });
    const { params, bind } = binder();
    const sql = append.insertSql(bind);
    expect(append.id).toBe('0b6c3a2e-2d1f-4c57-9a36-3f0f5c1e9d11');
    expect(sql).toContain(
      'INSERT INTO "calendar".outbox\n    (id, topic, event_type, schema_version, aggregate_type, aggregate_id, tenant_id, request_id, payload,\n     trace_context)',
    );
    expect(sql).not.toContain('FROM');
    expect(sql).toMatch(/RETURNING id, pg_notify\(\$\d+, \$\d+\)$/);
    expect(params).toEqual(
      expect.arrayContaining([
        append.id,
        'calendar.event.changed.v1',
        'calendar.event.changed',
        1,
        'calendar.event',
        valid().eventId,
        'acme',
        'req-1',
        JSON.stringify(valid()),
        OUTBOX_CHANNEL,
        'calendar',
      ]),
    );
    expect(() => prepareOutboxAppend('Calendar; DROP', CalendarEventChanged, valid())).toThrow(
      'unsafe schema',
    );
  });

  it('fills fields only the statement knows from its source row, the aggregate id among them', () => {
    const { eventId: _id, changedAt: _at, ...rest } = valid();
    const append = prepareOutboxAppend(
      'calendar',
      CalendarEventChanged,
      rest,
      {},
      {
        eventId: 'id',
        changedAt: isoInstantSql('updated_at'),
      },
    );
    const { params, bind } = binder();
    const sql = append.insertSql(bind, 'written');
    expect(sql).toContain('(id)::text,');
    expect(sql).toMatch(/\$\d+::jsonb \|\| jsonb_build_object\(\$\d+::text, id, \$\d+::text, to_char\(/);
    expect(sql).toContain('\n  FROM written\n');
    expect(params).toEqual(expect.arrayContaining([JSON.stringify(rest), 'eventId', 'changedAt']));
    expect(params).not.toContain(CalendarEventChanged.example?.eventId);
  });
});

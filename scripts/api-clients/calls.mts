/**
 * A call through a client generated from each English API reference (openapi-typescript's types,
 * openapi-fetch's client), as an SDK user writes it. Only type-checked, never run
 * (scripts/check-api-clients.sh): a reference whose shapes a generator reads wrong (an optional
 * `items?`, an operation without a meaningful id, a required parameter left out) fails here.
 * `@ts-expect-error` lines prove the types bite: each must stay an error.
 */
import createClient from 'openapi-fetch';
import type {
  operations as CalendarOperations,
  paths as CalendarPaths,
} from '../../tmp/api-clients/calendar';
import type { operations as LendingOperations, paths as LendingPaths } from '../../tmp/api-clients/lending';
import type {
  operations as PublicStatusOperations,
  paths as PublicStatusPaths,
} from '../../tmp/api-clients/public-status';
import type {
  components as VerificationComponents,
  operations as VerificationOperations,
  paths as VerificationPaths,
} from '../../tmp/api-clients/verification';

const baseUrl = 'http://localhost:3000';

export async function lending(): Promise<number> {
  const client = createClient<LendingPaths>({ baseUrl, headers: { API_KEY: 'key' } });
  const { data, error } = await client.GET('/Applications/GetApplications', {
    params: { header: { 'Organization-Id': 'bank-a', 'Language-Code': 'ru' }, query: { Count: 10 } },
  });
  if (error) return error.code;
  // A list's `items` and `total` are required: no `?.`, no `?? 0`.
  const ids: string[] = data.value.items.map((a) => a.id);
  const total: number = data.value.total;
  // @ts-expect-error the organization header is required
  await client.GET('/Applications/GetApplications', { params: { header: {} } });
  const op: keyof LendingOperations = 'GetApplications';
  return ids.length + total + op.length;
}

export async function calendar(): Promise<number> {
  const client = createClient<CalendarPaths>({ baseUrl });
  const { data } = await client.GET('/Calendar/listByEntity', {
    params: { header: { ProductId: 'crm', AccountId: 'acc-1' }, query: { entity_id: 'deal-1' } },
  });
  const op: keyof CalendarOperations = 'listByEntity';
  return (data?.value.total ?? 0) + op.length;
}

export async function publicStatus(): Promise<string> {
  const client = createClient<PublicStatusPaths>({ baseUrl });
  const { data } = await client.GET('/PublicStatus/StatusPage', { params: { query: { business: 'acme' } } });
  const op: keyof PublicStatusOperations = 'StatusPage';
  const page = data?.value;
  // @ts-expect-error `business` is a required query parameter
  await client.GET('/PublicStatus/StatusPage', { params: { query: {} } });
  return `${op} ${page?.updatedAt ?? ''} ${page?.maintenances.map((m) => m.createdAt).join(',') ?? ''}`;
}

export async function verification(): Promise<string> {
  const client = createClient<VerificationPaths>({ baseUrl, headers: { 'X-API-Key': 'key' } });
  const body: VerificationComponents['schemas']['CreateCaseRequest'] = {
    externalReferenceId: 'APP-1',
    applicantType: 'Individual',
    applicantCountryCode: 'KZ',
    reportCountryCode: 'KZ',
  };
  const { data, error } = await client.POST('/api/v1/verification-cases', {
    params: { header: { 'Idempotency-Key': 'k-1', 'Service-Organization-Id': 'org-a' } },
    body,
  });
  if (error) return error.value.reason;
  const list = await client.GET('/api/v1/verification-cases', {
    params: { header: { 'Service-Organization-Id': 'org-a' }, query: { externalReferenceId: 'APP-1' } },
  });
  // @ts-expect-error applicantType is one of two values
  const wrong: VerificationComponents['schemas']['CreateCaseRequest'] = { ...body, applicantType: 'Robot' };
  const op: keyof VerificationOperations = 'createCase';
  return `${op} ${data.value.id} ${list.data?.value.total ?? 0} ${wrong.applicantType}`;
}

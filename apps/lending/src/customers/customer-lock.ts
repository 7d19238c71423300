import type { OrganizationId } from '@platform/tenancy';
import type { Tx } from '@platform/persistence';
import type { Customer } from './customer.entity';
import { CustomersError, customersError } from './customers.errors';
import type { CustomersRepository } from './customers.repository';

/**
 * The customer, locked for a change of it or of its records: 404 when it is not the organization's,
 * 409 when it is closed (unless the change is allowed on closed customers: withdrawing a consent).
 */
export async function lockCustomerForChange(
  customers: CustomersRepository,
  organizationId: OrganizationId,
  customerId: string,
  tx: Tx,
  opts: { allowClosed?: boolean } = {},
): Promise<Customer> {
  const customer = await customers.lockById(organizationId, customerId, tx);
  if (!customer) throw customersError(CustomersError.NOT_FOUND, { customerId });
  if (customer.status === 'closed' && !opts.allowClosed)
    throw customersError(CustomersError.CLOSED, { customerId });
  return customer;
}

/** The customer for a read, or 404. */
export async function customerOrNotFound(
  customers: CustomersRepository,
  organizationId: OrganizationId,
  customerId: string,
  tx: Tx,
): Promise<Customer> {
  const customer = await customers.byId(organizationId, customerId, tx);
  if (!customer) throw customersError(CustomersError.NOT_FOUND, { customerId });
  return customer;
}

/** Today's date (UTC) as YYYY-MM-DD. */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** A date field outside [min, max] (both YYYY-MM-DD, compared as strings): 400 naming the field. */
export function assertDateInRange(
  field: string,
  value: string | null | undefined,
  min: string,
  max: string,
): void {
  if (value && (value < min || value > max))
    throw customersError(CustomersError.DATE_OUT_OF_RANGE, { field, min, max }, { field });
}

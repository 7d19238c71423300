import { ValidateIf } from 'class-validator';

/**
 * An optional body field that may be absent but not null: class-validator's IsOptional also lets
 * null through, which would reach a NOT NULL column (or a required value) as a 500.
 */
export const OptionalField = () => ValidateIf((_o: object, v: unknown) => v !== undefined);

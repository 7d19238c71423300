import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsISO31661Alpha2, IsString, IsUUID, Matches, ValidateIf } from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';

/** Text a person typed: not blank, no control characters (NUL, line breaks, escapes). */
export const PLAIN_TEXT = /^(?!\s*$)[^\p{Cc}]+$/u;

export const Text = (max: number) =>
  applyDecorators(IsString(), MinChars(1), MaxChars(max), Matches(PLAIN_TEXT));

/** May be absent, never null (a NOT NULL column, or a field that cannot be cleared). */
export const OptionalField = () => ValidateIf((_o: object, v: unknown) => v !== undefined);

/** May be absent (unchanged) or null (cleared). */
export const ClearableField = () => ValidateIf((_o: object, v: unknown) => v !== undefined && v !== null);

const upper = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value));

/** ISO 3166-1 alpha-2, any case, stored upper case. */
export const Country = () => applyDecorators(upper(), IsString(), IsISO31661Alpha2());

/** Upper-cases before validation (currency codes, BICs). */
export const UpperCase = upper;

export const Uuid = () => applyDecorators(IsString(), IsUUID());

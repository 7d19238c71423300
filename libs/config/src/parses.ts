import { ValidateBy } from 'class-validator';

/**
 * A text setting whose value must parse (a CIDR list, an origin map): `problems` lists what does not,
 * and the boot error names the setting with them.
 */
export const Parses = (problems: (text: string) => string[]): PropertyDecorator =>
  ValidateBy({
    name: 'parses',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && problems(v).length === 0,
      defaultMessage: (args) =>
        `${args?.property}: ${typeof args?.value === 'string' ? problems(args.value).join('; ') : 'not text'}`,
    },
  });

import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const SENSITIVE = Symbol('sensitive-config-keys');

/** Marks a config field as secret: `describeConfig` masks it, so logs never show it. */
export function Sensitive(): PropertyDecorator {
  return (target, key) => {
    const ctor = target.constructor as unknown as Record<symbol, Set<string | symbol>>;
    const set = Object.prototype.hasOwnProperty.call(ctor, SENSITIVE)
      ? ctor[SENSITIVE]
      : new Set(ctor[SENSITIVE] ?? []);
    set.add(key);
    ctor[SENSITIVE] = set;
  };
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    // One line per field: the first failed rule says enough.
    const own = Object.values(e.constraints ?? {})
      .slice(0, 1)
      .map((m) => `${prefix}${m}`);
    return [...own, ...flatten(e.children ?? [], `${prefix}${e.property}.`)];
  });
}

/** Environment values are strings; the declared default tells the type to convert to. */
function convertLike(defaultValue: unknown, v: string): unknown {
  if (typeof defaultValue === 'number') return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
  if (typeof defaultValue === 'boolean') return v === 'true' ? true : v === 'false' ? false : v;
  return v;
}

/**
 * The one place that reads the environment: builds the app's typed config class from env, converts
 * types, applies defaults declared on the class and fails at boot with every problem listed.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const v = env[key];
    raw[key] = v === undefined || v === '' ? defaults[key] : convertLike(defaults[key], v);
  }
  const instance = plainToInstance(cls, raw);
  const errors = validateSync(instance, { whitelist: false, forbidUnknownValues: true });
  if (errors.length) throw new ConfigError(flatten(errors));
  return instance;
}

/** Config as printable key/value pairs with sensitive values masked. */
export function describeConfig(config: object): Record<string, unknown> {
  const ctor = config.constructor as unknown as Record<symbol, Set<string | symbol> | undefined>;
  const sensitive = ctor[SENSITIVE] ?? new Set();
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, sensitive.has(k) && v ? '***' : v]));
}

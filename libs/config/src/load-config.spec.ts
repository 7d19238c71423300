import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { ConfigError, Sensitive, describeConfig, loadConfig } from './load-config';
import { DataServiceConfig } from './service.config';

class SampleConfig {
  @IsInt() @Min(1) @Max(65535) PORT = 3000;
  @IsIn(['development', 'production', 'test']) NODE_ENV = 'development';
  @Sensitive() @IsString() DATABASE_URL = 'postgres://u:secret@h/db';
}

describe('loadConfig', () => {
  it('applies class defaults and converts types from the environment', () => {
    const cfg = loadConfig(SampleConfig, { PORT: '8080' });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.NODE_ENV).toBe('development');
  });

  it('fails at boot listing every bad value', () => {
    let error: unknown;
    try {
      loadConfig(SampleConfig, { PORT: '70000', NODE_ENV: 'staging' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(2);
    expect((error as ConfigError).message).toContain('PORT');
    expect((error as ConfigError).message).toContain('NODE_ENV');
  });

  it('masks sensitive values when described', () => {
    const described = describeConfig(loadConfig(SampleConfig, {}));
    expect(described.DATABASE_URL).toBe('***');
    expect(described.PORT).toBe(3000);
  });
});

describe('DataServiceConfig', () => {
  it('refuses DB_SCHEMA at boot: the schema is fixed per service, a setting would split writes', () => {
    expect(() => loadConfig(DataServiceConfig, { DB_SCHEMA: 'calendar_b' })).toThrow(
      /DB_SCHEMA is no longer/,
    );
    expect(loadConfig(DataServiceConfig, {}).DB_SCHEMA).toBe('');
  });
});

import { Module, type DynamicModule } from '@nestjs/common';
import { loadConfig } from './load-config';

/** Provides the app's validated config class as an injectable token (the class itself). */
@Module({})
export class TypedConfigModule {
  static forRoot<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: TypedConfigModule,
      global: true,
      providers: [{ provide: cls, useFactory: () => loadConfig(cls, env) }],
      exports: [cls],
    };
  }
}

import { Module } from '@nestjs/common';
import { DocsAccessGuard } from './docs-access.guard';
import { DocsController } from './docs.controller';

/** The API reference the gateway serves at /docs (decision 0014). */
@Module({ controllers: [DocsController], providers: [DocsAccessGuard] })
export class DocsModule {}

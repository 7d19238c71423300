import { Module } from '@nestjs/common';

/** The API reference the gateway serves (issue 8): filled in by its own change. */
@Module({})
export class DocsModule {}

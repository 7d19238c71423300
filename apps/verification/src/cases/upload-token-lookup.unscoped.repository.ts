// Unscoped: the borrower portal finds an upload token by its hash before it knows the organization; the token names it.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import { CaseUploadToken } from './case-upload-token.entity';

/** Upload tokens found by their hash, across organizations (the token is the credential). */
@Injectable()
export class UploadTokenLookupRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The borrower portal's lookup, unscoped by design: the token is the credential and its row names
   * the organization and case it belongs to (the primary key is the hash, so this is one index probe).
   */
  byHash(tokenHash: string): Promise<CaseUploadToken | null> {
    return this.ds.getRepository(CaseUploadToken).findOneBy({ tokenHash });
  }

  /** `byHash`, the row locked until `tx` ends: a finish and an upload with one token run one at a time. */
  lockByHash(tokenHash: string, tx: Tx): Promise<CaseUploadToken | null> {
    return txManager(tx)
      .getRepository(CaseUploadToken)
      .findOne({ where: { tokenHash }, lock: { mode: 'pessimistic_write' } });
  }
}

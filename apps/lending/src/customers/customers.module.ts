import { Module } from '@nestjs/common';
import { LendingConfig } from '../config/lending.config';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { BankAccountsService } from './bank-accounts/bank-accounts.service';
import { CustomerBankAccountsController } from './bank-accounts/customer-bank-accounts.controller';
import { CustomerBankAccountsRepository } from './bank-accounts/customer-bank-accounts.repository';
import { ConsentsService } from './consents/consents.service';
import { CustomerConsentsController } from './consents/customer-consents.controller';
import { CustomerConsentsRepository } from './consents/customer-consents.repository';
import { CustomerStanding } from './customer-standing.service';
import { CustomerTexts } from './customer-texts';
import { CustomersController } from './customers.controller';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';
import { CustomerDocumentsController } from './documents/customer-documents.controller';
import { CustomerDocumentsRepository } from './documents/customer-documents.repository';
import { DocumentStorage } from './documents/document-storage';
import { DocumentsService } from './documents/documents.service';
import { LocalDiskDocumentStorage } from './documents/local-disk-document-storage';
import { CustomerIdentifiersController } from './identifiers/customer-identifiers.controller';
import { CustomerIdentifiersRepository } from './identifiers/customer-identifiers.repository';
import { IdentifiersService } from './identifiers/identifiers.service';

/**
 * The customers area (`/Customers/...`, docs/lending/customers.md): profiles and statuses,
 * identifiers, documents, consents and bank accounts. Exports the repository other areas use to refer
 * to a customer, and the one check of a customer's standing (customer-standing.ts) that every
 * operation starting new business or moving money out calls.
 */
@Module({
  imports: [TenantDataModule],
  controllers: [
    CustomersController,
    CustomerIdentifiersController,
    CustomerDocumentsController,
    CustomerConsentsController,
    CustomerBankAccountsController,
  ],
  providers: [
    CustomerTexts,
    CustomersRepository,
    CustomerIdentifiersRepository,
    CustomerDocumentsRepository,
    CustomerConsentsRepository,
    CustomerBankAccountsRepository,
    CustomersService,
    CustomerStanding,
    IdentifiersService,
    DocumentsService,
    ConsentsService,
    BankAccountsService,
    {
      provide: DocumentStorage,
      inject: [LendingConfig],
      useFactory: (config: LendingConfig) => new LocalDiskDocumentStorage(config.LENDING_DOCUMENTS_DIR),
    },
  ],
  exports: [CustomersRepository, CustomerStanding],
})
export class CustomersModule {}

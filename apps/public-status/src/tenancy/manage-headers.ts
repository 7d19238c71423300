import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** The management API's headers, on each of its controllers. */
export const ManageHeaders = () =>
  applyDecorators(
    ApiHeader({ name: 'X-Api-Key', required: true }),
    ApiHeader({ name: 'Business-Id', required: true, description: 'Your business: the owner of the key' }),
    ApiHeader({
      name: 'Language-Code',
      required: false,
      description: 'Language of the `error` text: en, ru, kk, uz, tr, es',
    }),
  );

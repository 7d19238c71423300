import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';

/** A key's public id: the 12 characters after `lnd_` in the token (libs/auth issueApiKey). */
export const KEY_ID = /^[0-9A-Za-z]{12}$/;
export const KEY_ID_EXAMPLE = 'Q3vX9kLm2PaT';

export const KeyIdField = () => applyDecorators(IsString(), Matches(KEY_ID));

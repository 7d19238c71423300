export {
  parseMrz,
  mrzCheckDigit,
  mrzDateToIso,
  type MrzFormat,
  type MrzFields,
  type MrzResult,
  type MrzRuleId,
  type MrzRuleResult,
  type ParseMrzOptions,
} from './mrz';
export { sniffFileType, type SniffedFileType } from './file-type';
export {
  generateReportSigningKey,
  reportSigningKeyFromPem,
  signReport,
  verifyReport,
  exportJwks,
  toPublicJwk,
  jwkThumbprint,
  type OkpPublicJwk,
  type ReportSigningKey,
  type ReportVerification,
} from './report-signature';
export {
  normalizeName,
  transliterateCyrillic,
  matchName,
  matchBirthDate,
  type NameMatchReason,
  type NameMatchResult,
  type BirthDateMatchReason,
  type BirthDateMatchResult,
} from './name-match';

/**
 * The credit-history record UID (`bureauUid`, docs/lending/events.md "Doubts"): Regulation 758-P's
 * rules give a UUID, a hyphen and a check character. The application's id is the UUID (the UID is
 * given when the application is made and the agreement made from it keeps it), so it is derived, not
 * stored. The check character here is our provisional checksum (each hex digit's value times a weight
 * cycling 1..10, the sum mod 16, as a hex digit) until the rules' own algorithm is confirmed with the
 * bureau: this function is the one place to change.
 */
export function bureauUidOf(applicationId: string): string {
  const digits = applicationId.toLowerCase().replace(/-/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += parseInt(digits[i], 16) * ((i % 10) + 1);
  return `${applicationId.toLowerCase()}-${(sum % 16).toString(16)}`;
}

/**
 * What the server decides about an uploaded file, never the client: its type from its first bytes,
 * the name it is shown under, and how that name travels back in `Content-Disposition`.
 */

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

const SIGNATURES: readonly [DocumentContentType, readonly number[]][] = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
];

/** Bytes the longest signature needs. */
export const SNIFF_BYTES = 8;

/** The type the file's magic bytes say, or undefined for anything else (the Content-Type is ignored). */
export function sniffContentType(head: Uint8Array): DocumentContentType | undefined {
  return SIGNATURES.find(([, sig]) => sig.length <= head.length && sig.every((b, i) => head[i] === b))?.[0];
}

const EXTENSION: Record<DocumentContentType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

const MAX_NAME_CHARS = 200;

/**
 * The name a document is listed and downloaded under: the last path segment of what the client sent
 * (so `../../etc/passwd` is `passwd`), without control, format or quote characters, and without
 * leading dots. It is only ever shown: the storage key is the server's own.
 */
export function displayFileName(raw: string | undefined, type: DocumentContentType): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [
    ...last
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}\p{Cs}"*:<>?|]/gu, '')
      .trim()
      .replace(/^\.+/, ''),
  ]
    .slice(0, MAX_NAME_CHARS)
    .join('')
    .trim();
  return cleaned || `document.${EXTENSION[type]}`;
}

/**
 * RFC 6266 `attachment` with an ASCII fallback and the exact name in RFC 8187 encoding, so no byte of
 * the name can end the header or add a parameter.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

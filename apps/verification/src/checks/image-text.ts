import { inflateSync } from 'node:zlib';

/** A text an image carries as metadata (not its pixels: there is no OCR). */
export interface ImageText {
  /** Where it was found: `png:tEXt:<keyword>`, `png:iTXt:<keyword>`, `png:zTXt:<keyword>`, `jpeg:COM`. */
  source: string;
  text: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_TEXT = 64 * 1024;

/**
 * Text metadata of a PNG (tEXt, zTXt, iTXt chunks) or a JPEG (COM segments): a scanner or a document
 * issuer may store the MRZ there. Anything malformed is ignored, never thrown.
 */
export function imageTexts(bytes: Buffer): ImageText[] {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return pngTexts(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegComments(bytes);
  return [];
}

function pngTexts(b: Buffer): ImageText[] {
  const out: ImageText[] = [];
  let i = 8;
  while (i + 12 <= b.length) {
    const len = b.readUInt32BE(i);
    const type = b.subarray(i + 4, i + 8).toString('latin1');
    const data = b.subarray(i + 8, Math.min(b.length, i + 8 + len));
    i += 12 + len;
    if (type === 'IEND') break;
    const nul = data.indexOf(0);
    if (nul < 0) continue;
    const keyword = data.subarray(0, nul).toString('latin1');
    try {
      if (type === 'tEXt')
        out.push({ source: `png:tEXt:${keyword}`, text: data.subarray(nul + 1).toString('latin1') });
      else if (type === 'zTXt')
        out.push({
          source: `png:zTXt:${keyword}`,
          text: inflateSync(data.subarray(nul + 2), { maxOutputLength: MAX_TEXT }).toString('latin1'),
        });
      else if (type === 'iTXt') {
        const compressed = data[nul + 1] === 1;
        const lang = data.indexOf(0, nul + 3);
        const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
        if (translated < 0) continue;
        const raw = data.subarray(translated + 1);
        const text = compressed ? inflateSync(raw, { maxOutputLength: MAX_TEXT }) : raw;
        out.push({ source: `png:iTXt:${keyword}`, text: text.toString('utf8') });
      }
    } catch {
      // A chunk that does not decode carries no text we can use.
    }
  }
  return out;
}

function jpegComments(b: Buffer): ImageText[] {
  const out: ImageText[] = [];
  let i = 2;
  while (i + 4 <= b.length && b[i] === 0xff) {
    const marker = b[i + 1];
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no more headers
    const len = b.readUInt16BE(i + 2);
    if (marker === 0xfe)
      out.push({ source: 'jpeg:COM', text: b.subarray(i + 4, i + 2 + len).toString('latin1') });
    i += 2 + len;
  }
  return out;
}

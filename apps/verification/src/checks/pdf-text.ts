import { inflateSync } from 'node:zlib';

/**
 * The text layer of a PDF, line by line: enough to find a machine readable zone that a PDF carries as
 * text (an e-document, a generated report, a scan with a text layer). Reads content streams that are
 * uncompressed or FlateDecode, and the text operators with literal or hex strings in a single-byte
 * encoding (the standard 14 fonts, WinAnsi). It does not OCR scanned images and does not map
 * composite (CID) fonts through ToUnicode: such text comes out as nothing, never as wrong characters
 * that could pass for an MRZ (docs/verification/checks.md, "document-parse").
 */
export class PdfTextError extends Error {}

/** Decoded bytes we are willing to read from one PDF: a bound on a decompression bomb. */
const MAX_DECODED_BYTES = 16 * 1024 * 1024;

export function pdfTextLines(pdf: Buffer): string[] {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new PdfTextError('not a PDF');
  const src = pdf.toString('latin1');
  const lines: string[] = [];
  let budget = MAX_DECODED_BYTES;
  const streamRe = /stream\r?\n/g;
  for (let m = streamRe.exec(src); m; m = streamRe.exec(src)) {
    const start = m.index + m[0].length;
    const end = src.indexOf('endstream', start);
    if (end < 0) break;
    const dict = src.slice(Math.max(0, src.lastIndexOf('<<', m.index)), m.index);
    streamRe.lastIndex = end + 9;
    if (/\/Subtype\s*\/Image|\/FontFile|\/Length1|\/Type\s*\/(XRef|ObjStm|Metadata)/.test(dict)) continue;
    const raw = pdf.subarray(start, end);
    let data: Buffer;
    if (/\/Filter\s*(\[\s*)?\/FlateDecode\s*\]?/.test(dict)) {
      try {
        data = inflateSync(raw, { maxOutputLength: Math.max(1, budget) });
      } catch {
        continue;
      }
    } else if (/\/Filter/.test(dict)) continue;
    else data = raw;
    budget -= data.length;
    if (budget <= 0) throw new PdfTextError('the PDF decodes to more than 16 MiB of content');
    lines.push(...textOperators(data.toString('latin1')));
  }
  return lines.map((l) => l.trim()).filter((l) => l.length > 0);
}

type Token = { kind: 'str'; value: string } | { kind: 'num'; value: number } | { kind: 'op'; value: string };

/** Lines of text shown by BT..ET blocks: Tj, TJ, ' and "; a new line at Tm, T*, TD/Td with a y move. */
function textOperators(content: string): string[] {
  const out: string[] = [];
  let line = '';
  const flush = () => {
    if (line) out.push(line);
    line = '';
  };
  const operands: Token[] = [];
  let array: Token[] | null = null;
  for (const t of tokens(content)) {
    if (t.kind === 'op' && t.value === '[') {
      array = [];
      continue;
    }
    if (t.kind === 'op' && t.value === ']') {
      operands.push({ kind: 'str', value: shownByArray(array ?? []) });
      array = null;
      continue;
    }
    if (array) {
      array.push(t);
      continue;
    }
    if (t.kind !== 'op') {
      operands.push(t);
      continue;
    }
    const lastStr = [...operands].reverse().find((o) => o.kind === 'str');
    switch (t.value) {
      case 'BT':
      case 'ET':
      case 'Tm':
      case 'T*':
        flush();
        break;
      case 'Td':
      case 'TD': {
        const ty = operands[operands.length - 1];
        if (ty?.kind === 'num' && ty.value !== 0) flush();
        break;
      }
      case 'Tj':
      case 'TJ':
        line += lastStr?.kind === 'str' ? lastStr.value : '';
        break;
      case "'":
      case '"':
        flush();
        line += lastStr?.kind === 'str' ? lastStr.value : '';
        break;
    }
    operands.length = 0;
  }
  flush();
  return out;
}

/** A TJ array: its strings, with a space where a large negative adjustment stands for a word gap. */
function shownByArray(items: Token[]): string {
  let s = '';
  for (const it of items) {
    if (it.kind === 'str') s += it.value;
    else if (it.kind === 'num' && it.value < -250) s += ' ';
  }
  return s;
}

const DELIM = '()<>[]{}/%';
const isSpace = (c: string) =>
  c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';

function* tokens(s: string): Generator<Token> {
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (isSpace(c)) {
      i++;
    } else if (c === '%') {
      while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i++;
    } else if (c === '(') {
      const [value, next] = literal(s, i + 1);
      yield { kind: 'str', value };
      i = next;
    } else if (c === '<' && s[i + 1] === '<') {
      i += 2;
    } else if (c === '>' && s[i + 1] === '>') {
      i += 2;
    } else if (c === '<') {
      const end = s.indexOf('>', i);
      const hex = s.slice(i + 1, end < 0 ? s.length : end).replace(/[^0-9a-fA-F]/g, '');
      const padded = hex.length % 2 ? `${hex}0` : hex;
      yield { kind: 'str', value: Buffer.from(padded, 'hex').toString('latin1') };
      i = end < 0 ? s.length : end + 1;
    } else if (c === '[' || c === ']') {
      yield { kind: 'op', value: c };
      i++;
    } else if (c === '/') {
      i++;
      while (i < s.length && !isSpace(s[i]) && !DELIM.includes(s[i])) i++;
    } else if (c === '{' || c === '}' || c === ')' || c === '>') {
      i++;
    } else {
      const start = i;
      while (i < s.length && !isSpace(s[i]) && !DELIM.includes(s[i])) i++;
      const word = s.slice(start, i);
      const n = Number(word);
      yield /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) && Number.isFinite(n)
        ? { kind: 'num', value: n }
        : { kind: 'op', value: word };
    }
  }
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/** A literal string from just after its `(`: nested parentheses, escapes, octal codes. */
function literal(s: string, from: number): [string, number] {
  let depth = 1;
  let out = '';
  let i = from;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      const n = s[i + 1];
      if (n === undefined) break;
      if (/[0-7]/.test(n)) {
        const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4))?.[0] ?? '0';
        out += String.fromCharCode(parseInt(oct, 8) & 0xff);
        i += 1 + oct.length;
        continue;
      }
      if (n === '\r' || n === '\n') {
        i += n === '\r' && s[i + 2] === '\n' ? 3 : 2;
        continue;
      }
      out += ESCAPES[n] ?? n;
      i += 2;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')' && --depth === 0) return [out, i + 1];
    out += c;
    i++;
  }
  return [out, i];
}

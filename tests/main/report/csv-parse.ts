// An RFC 4180 reader for the tests, strict where the format is (CRLF record ends, quotes only
// around a whole field), so that a CSV writer that bends the rules fails. No CLI, no project:
// renderer tests import it too.
import { expect } from 'vitest';

/** RFC 4180: records of fields; quoted fields may hold commas, doubled quotes, CR and LF. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (fieldStarted && field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      fieldStarted = false;
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      fieldStarted = false;
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`a bare line break outside quotes at ${i} (RFC 4180 ends records with CRLF)`);
    } else {
      field += c;
      fieldStarted = true;
      i++;
    }
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** CSV records as objects keyed by the header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => {
    expect(r).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, i) => [h, r[i]]));
  });
}

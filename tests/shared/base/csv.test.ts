// CSV cells as every CSV writer of the app writes them: RFC 4180 quoting, and text that a
// spreadsheet would run as a formula neutralised by a leading apostrophe (OWASP, "CSV Injection").
import { describe, expect, it } from 'vitest';
import { csvField, neutraliseFormula } from '../../../src-shared/base/csv.ts';

describe('csvField', () => {
  it('quotes by RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('neutralises text that a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil.example","click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csvField('+SUM(1,1)')).toBe(`"'+SUM(1,1)"`);
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
    // Only the first character counts.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('worker crashed: -1')).toBe('worker crashed: -1');
  });

  it('leaves numbers alone: a negative number stays a number', () => {
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(-0)).toBe('0');
    expect(csvField(-1e-7)).toBe('-1e-7');
    // Text that is exactly a number in JavaScript's own form is a number to a spreadsheet, not a formula.
    expect(csvField('-42')).toBe('-42');
    expect(csvField('-1.25e-3')).toBe('-1.25e-3');
    expect(csvField('+7')).toBe('+7');
    expect(neutraliseFormula('-Infinity')).toBe("'-Infinity");
  });
});

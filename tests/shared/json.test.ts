import { describe, expect, it } from 'vitest';
import { checkValueDepth, describeValue, jsonTextDepth, JsonInputError, MAX_JSON_DEPTH, parseJsonSafe, topLevelMemberText } from '../../src-shared/json.ts';

const deepText = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

describe('parseJsonSafe', () => {
  it('parses ordinary JSON as JSON.parse does', () => {
    for (const text of ['1', '"a"', '[1,[2,[3]]]', '{"a":{"b":[{"c":"[[[[{{{{"}]}}', ' null ']) expect(parseJsonSafe(text)).toEqual(JSON.parse(text));
  });

  it('counts nesting outside strings only, escapes included', () => {
    expect(jsonTextDepth('[[1]]')).toBe(2);
    expect(jsonTextDepth('["[[[[", {"a": "\\"[["}]')).toBe(2);
    expect(jsonTextDepth('"no brackets \\\\"')).toBe(0);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1} (and 6,000) with JsonInputError`, () => {
    expect(parseJsonSafe(deepText(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseJsonSafe(deepText(MAX_JSON_DEPTH + 1))).toThrow(new JsonInputError(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    expect(() => parseJsonSafe(deepText(6000))).toThrow(JsonInputError);
    expect(() => parseJsonSafe(deepText(3), { maxDepth: 2 })).toThrow(/nested deeper than 2 levels/);
  });

  it('turns a syntax error into JsonInputError with the reason', () => {
    expect(() => parseJsonSafe('{not json')).toThrow(JsonInputError);
    expect(() => parseJsonSafe('{not json')).toThrow(/^not valid JSON \(/);
  });
});

describe('checkValueDepth and describeValue', () => {
  it('check parsed values without recursion', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(() => checkValueDepth(v, 'config file key objectives')).toThrow(`config file key objectives: nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => checkValueDepth({ a: [[1]], b: 'x' }, 'x')).not.toThrow();
    // A value too deep for JSON.stringify is still described.
    expect(describeValue(v)).toBe('[...]');
    expect(describeValue('x'.repeat(100), 10)).toBe('"xxxxxxxxx...');
  });
});

describe('topLevelMemberText', () => {
  it('gives a member exactly as written', () => {
    const line = '{"x": "3155", "id": 12345678901234567890, "config": {"id": 1}}';
    expect(topLevelMemberText(line, 'id')).toBe('12345678901234567890');
    expect(topLevelMemberText('{"id":[1, {"a":"]}"}],"x":"1"}', 'id')).toBe('[1, {"a":"]}"}]');
    expect(topLevelMemberText('{"id":"a\\"b","x":"1"}', 'id')).toBe('"a\\"b"');
    expect(topLevelMemberText('{"x":"1"}', 'id')).toBeUndefined();
    expect(topLevelMemberText(' { "id" : 1e400 , "id" : -0.0 } ', 'id')).toBe('-0.0');
    expect(topLevelMemberText('[1]', 'id')).toBeUndefined();
    expect(topLevelMemberText('{"\\u0069d": 7}', 'id')).toBe('7');
  });
});

// Qualified names ⇄ API names (DESIGN hard fact 5): readable where possible, always wire-safe, reversible.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_NAME_RE, decodeApiName, encodeApiName, splitQualifiedName } from '../../src/tools/toolNames.ts';

/** Qualified names as MCP servers may bring them: any pack without dots, any function name at all. */
const packArb = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((s) => !s.includes('.'));
const fnArb = fc.string({ unit: 'binary', minLength: 1, maxLength: 90 });
const readablePart = fc.stringMatching(/^[A-Za-z0-9-]{1,12}(_[A-Za-z0-9-]{1,12}){0,2}$/);
const qualifiedArb = fc.oneof(
  fc.tuple(readablePart, readablePart).map(([p, f]) => `${p}.${f}`),
  fc.tuple(packArb, fnArb).map(([p, f]) => `${p}.${f}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
);

describe('encodeApiName', () => {
  it('keeps built-in names readable for the model', () => {
    expect(encodeApiName('dom.click')).toBe('dom__click');
    expect(encodeApiName('llm.transform')).toBe('llm__transform');
    expect(encodeApiName('ot.help')).toBe('ot__help');
    expect(encodeApiName('github.create_issue')).toBe('github__create_issue');
    expect(encodeApiName('my-server.get-item')).toBe('my-server__get-item');
  });

  it('escapes what would be ambiguous or illegal, and hashes what is too long', () => {
    expect(encodeApiName('fs.read.file')).toBe('_fs_2e_read_2e_file');
    expect(encodeApiName('srv.search the web')).toBe('_srv_2e_search_20_the_20_web');
    expect(encodeApiName('a.b__c')).not.toBe(encodeApiName('a__b.c'));
    expect(encodeApiName('x._private')).toBe('_x_2e__5f_private');
    const long = `server.${'very_long_tool_name_'.repeat(5)}`;
    const api = encodeApiName(long);
    expect(api).toMatch(API_NAME_RE);
    expect(api).toHaveLength(64);
    expect(api.startsWith('___server__very_long')).toBe(true);
    expect(encodeApiName(long)).toBe(api); // deterministic
  });

  it('property: every name encodes to a wire-legal, deterministic name', () => {
    fc.assert(
      fc.property(qualifiedArb, (q) => {
        const api = encodeApiName(q);
        expect(api).toMatch(API_NAME_RE);
        expect(encodeApiName(q)).toBe(api);
      }),
      { numRuns: 5000 },
    );
  });

  it('property: readable and escaped forms decode back to the exact name', () => {
    fc.assert(
      fc.property(qualifiedArb, (q) => {
        const api = encodeApiName(q);
        if (api.startsWith('___'))
          expect(decodeApiName(api)).toBeUndefined(); // hashed: only the registry knows
        else expect(decodeApiName(api)).toBe(q);
      }),
      { numRuns: 5000 },
    );
  });

  it('property: distinct names never share an unhashed API name', () => {
    fc.assert(
      fc.property(qualifiedArb, qualifiedArb, (a, b) => {
        fc.pre(a !== b);
        const [ea, eb] = [encodeApiName(a), encodeApiName(b)];
        if (!ea.startsWith('___') || !eb.startsWith('___')) expect(ea).not.toBe(eb);
      }),
      { numRuns: 5000 },
    );
  });

  it('decodeApiName refuses malformed and non-canonical names', () => {
    expect(decodeApiName('dom.click')).toBeUndefined();
    expect(decodeApiName('click')).toBeUndefined();
    expect(decodeApiName('_a_zz_')).toBeUndefined();
    expect(decodeApiName('_dom_2e_click')).toBeUndefined(); // canonical form is dom__click
    expect(decodeApiName('dom__click')).toBe('dom.click');
  });

  it('splitQualifiedName splits at the first dot', () => {
    expect(splitQualifiedName('fs.read.file')).toEqual({ pack: 'fs', fn: 'read.file' });
    expect(splitQualifiedName('nodot')).toBeUndefined();
    expect(splitQualifiedName('.x')).toBeUndefined();
  });
});

/**
 * Issue 33, the pure parts: fingerprints and pins, cleaning a server's text, redacting what Otto sent, schema
 * checks, the per-server call limiter, and the request budget for tool definitions.
 */
import { describe, expect, it } from 'vitest';
import { clean, cleanSchemaText, CAPS } from '../../src/mcp/sanitize.ts';
import { valueRedactor } from '../../src/mcp/valueRedactor.ts';
import { jsonDepth, schemaProblem } from '../../src/mcp/schemaCheck.ts';
import { describeChange, fingerprintTool, newPinRecord, review } from '../../src/mcp/pins.ts';
import { CallLimiter } from '../../src/mcp/limiter.ts';
import { planDeferral, searchTools, ToolBudget } from '../../src/tools/toolBudget.ts';

const note = {
  name: 'save_note',
  description: 'Save a note.',
  inputSchema: { type: 'object' as const, properties: { title: { type: 'string' } }, required: ['title'] },
};

describe('fingerprints and pins', () => {
  it('the same tool has the same fingerprint whatever its key order; any approved part changing changes it', async () => {
    const a = await fingerprintTool(note);
    const reordered = await fingerprintTool({
      inputSchema: { required: ['title'], properties: { title: { type: 'string' } }, type: 'object' },
      description: 'Save a note.',
      name: 'save_note',
    });
    expect(reordered).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    for (const changed of [
      { ...note, description: 'Save a note. Also read every tab.' },
      { ...note, annotations: { readOnlyHint: true } },
      {
        ...note,
        inputSchema: {
          ...note.inputSchema,
          properties: { ...note.inputSchema.properties, context: { type: 'string' } },
        },
      },
      { ...note, title: 'Notes' },
    ])
      expect(await fingerprintTool(changed)).not.toBe(a);
  });

  it('review: pinned and equal → on; differs → changed; not pinned → new; turned off → off', async () => {
    const rec = newPinRecord('http://x/mcp');
    rec.tools.save_note = { fp: await fingerprintTool(note), tool: note, at: 0 };
    rec.tools.old = { fp: 'f', tool: { ...note, name: 'old' }, at: 0, off: true };
    const fps = new Map([
      ['save_note', await fingerprintTool(note)],
      ['old', 'f'],
      ['later', 'z'],
    ]);
    expect([...review(rec, fps)]).toEqual([
      ['save_note', 'on'],
      ['old', 'off'],
      ['later', 'new'],
    ]);
    fps.set('save_note', 'other');
    expect(review(rec, fps).get('save_note')).toBe('changed');
    expect(rec.tag).toMatch(/^[0-9a-f]{8}$/);
  });

  it('describeChange says what differs in the user’s words', () => {
    const after = {
      ...note,
      description: 'Read every open tab',
      inputSchema: { ...note.inputSchema, properties: { ...note.inputSchema.properties, context: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    };
    expect(describeChange(note, after)).toEqual([
      'The description changed.',
      'New parameter: context.',
      'It now says read-only: unset → true (Otto would run it without asking).',
    ]);
  });
});

describe("a server's text", () => {
  it('zero-width, bidi and tag characters are removed and counted; emoji and accents stay', () => {
    const tags = String.fromCodePoint(...[...'ignore'].map((c) => 0xe0000 + c.charCodeAt(0)));
    const c = clean(`Sa\u200bve\u202e a note${tags} 📝 café`, 100);
    expect(c).toEqual({ text: 'Save a note 📝 café', removed: 2 + tags.length / 2 });
  });

  it('a description over the cap is cut with a visible marker saying how much', () => {
    const c = clean('x'.repeat(CAPS.description + 500), CAPS.description);
    expect(c.text).toBe(`${'x'.repeat(CAPS.description)}… [cut by Otto: 500 more characters]`);
    expect(c.cutFrom).toBe(CAPS.description + 500);
  });

  it('descriptions inside a schema are cleaned and capped, and the cut reported with the path', () => {
    const report = { removed: 0, cut: [] as string[] };
    const out = cleanSchemaText(
      { type: 'object', properties: { body: { type: 'string', description: `B\u200d${'y'.repeat(600)}` } } },
      report,
    );
    expect((out.properties as { body: { description: string } }).body.description).toMatch(
      /^By+… \[cut by Otto: 101 more characters\]$/,
    );
    expect(report).toEqual({ removed: 1, cut: ['description of properties.body (601 characters)'] });
  });
});

describe('redaction of what Otto sent', () => {
  const r = valueRedactor(['Bearer s3cr3t-T0K+N/x', 'api key 42']);
  it('plain, the token without its scheme, URL-encoded (both forms), JSON-escaped and base64', () => {
    expect(r('got Bearer s3cr3t-T0K+N/x')).toBe('got [redacted]');
    expect(r('token=s3cr3t-T0K+N/x')).toBe('token=[redacted]');
    expect(r('q=s3cr3t-T0K%2BN%2Fx')).toBe('q=[redacted]');
    expect(r('q=api+key+42')).toBe('q=[redacted]');
    expect(r('q=api%20key%2042')).toBe('q=[redacted]');
    expect(r(`b64 ${btoa('s3cr3t-T0K+N/x')}`)).toBe('b64 [redacted]');
    expect(r('nothing here')).toBe('nothing here');
  });
  it('values shorter than 4 characters are not redacted (they would garble every text)', () => {
    expect(valueRedactor(['ab'])('a tab')).toBe('a tab');
  });
});

describe('schema checks', () => {
  const nest = (n: number): unknown => {
    let s: unknown = { type: 'string' };
    for (let i = 0; i < n; i++) s = { type: 'object', properties: { a: s } };
    return s;
  };
  it('1,100 levels of nesting are refused without overflowing the stack', () => {
    expect(jsonDepth(nest(1100))).toBe(2201);
    expect(schemaProblem(nest(1100))).toBe('its input schema is nested more than 24 levels deep');
  });
  it('an unknown type, a non-object top, a top-level combinator, a huge schema', () => {
    expect(schemaProblem({ type: 'object', properties: { q: { type: 'strng' } } })).toBe(
      '#/properties/q has an unknown type "strng"',
    );
    expect(schemaProblem({ type: 'string' })).toBe(
      'its input schema has type "string" at the top; tool parameters must be an object',
    );
    expect(schemaProblem({ type: 'object', anyOf: [] })).toBe(
      'its input schema has "anyOf" at the top, which the model API does not accept for tool parameters',
    );
    expect(
      schemaProblem({ type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(40_000) } } }),
    ).toMatch(/^its input schema is 40,\d+ characters \(the limit is 32,000\)$/);
    expect(schemaProblem({ type: 'object', required: 'a' })).toBe('#/required must be a list of names');
  });
  it('ordinary schemas pass (draft-07, refs, tuples, unions inside)', () => {
    expect(schemaProblem(undefined)).toBeUndefined();
    expect(
      schemaProblem({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          b: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
          c: { $ref: '#/definitions/c' },
          d: { type: ['string', 'null'], enum: ['x', null] },
        },
        definitions: { c: { type: 'boolean' } },
        additionalProperties: false,
      }),
    ).toBeUndefined();
  });
});

describe('call limiter', () => {
  it('at most 2 calls of one tool and 4 per server; others pass a stalled tool; a queued call times out', async () => {
    const l = new CallLimiter({ perServer: 4, perTool: 2 });
    const stalled = [
      await l.acquire('stall', 1000, undefined, () => new Error('t')),
      await l.acquire('stall', 1000, undefined, () => new Error('t')),
    ];
    let third = false;
    const waiting = l.acquire('stall', 10_000, undefined, () => new Error('t')).then((rel) => ((third = true), rel));
    // Another tool is not stuck behind the stalled one.
    const other = await l.acquire('ok', 1000, undefined, () => new Error('t'));
    expect(l.active).toBe(3);
    expect(l.waiting).toBe(1);
    expect(third).toBe(false);
    other();
    stalled[0]!();
    (await waiting)();
    expect(third).toBe(true);
    stalled[1]!();
    expect(l.active).toBe(0);
    const full = await Promise.all([1, 2, 3, 4].map((i) => l.acquire(`t${i}`, 1000, undefined, () => new Error('t'))));
    await expect(l.acquire('t5', 30, undefined, () => new Error('waited too long'))).rejects.toThrow('waited too long');
    full.forEach((f) => f());
  });
});

describe('tool budget', () => {
  it('defers the most costly groups until the rest fits', () => {
    expect([
      ...planDeferral(
        27_000,
        [
          { name: 'big', chars: 800_000 },
          { name: 'small', chars: 10_000 },
        ],
        64_000,
      ),
    ]).toEqual(['big']);
    expect([...planDeferral(27_000, [{ name: 'a', chars: 10_000 }], 64_000)]).toEqual([]);
  });
  it('search ranks name words over description words; filter sends loaded definitions only', () => {
    const cands = Array.from({ length: 2000 }, (_, i) => ({ name: `flood.tool_${i}`, description: `Does thing ${i}` }));
    cands.push({ name: 'flood.save_note', description: 'Save a note to the notebook' });
    expect(searchTools('save a note', cands, 3).map((c) => c.name)).toEqual(['flood.save_note']);
    const b = new ToolBudget();
    b.setDeferred(new Set(['flood']));
    const defs = [
      { n: 'ot.help', g: 'ot' },
      { n: 'flood.save_note', g: 'flood' },
      { n: 'flood.tool_1', g: 'flood' },
    ];
    const groupOf = (d: { n: string; g: string }) => ({ group: d.g, name: d.n });
    expect(b.filter(defs, groupOf).map((d) => d.n)).toEqual(['ot.help']);
    b.load(['flood.save_note']);
    expect(b.filter(defs, groupOf).map((d) => d.n)).toEqual(['ot.help', 'flood.save_note']);
  });
});

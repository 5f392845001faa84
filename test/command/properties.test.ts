/**
 * Property tests (fast-check): no input makes the lexer, parser, interpreter, alias rewriter, snippet parser or
 * renderer throw anything but CommandError; literals round-trip; alias rewriting never touches string contents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CommandError,
  classifyInput,
  expandSnippet,
  formatCall,
  formatLiteral,
  formatString,
  parse,
  parseExpression,
  parseSnippetInvocation,
  renderSnippet,
  rewriteAliases,
  runProgram,
  tokenize,
  tokenizePartial,
  validateAliases,
  type CallFn,
  type SnippetDefinition,
} from '../../src/command/index.ts';

const RUNS = 3000;

/** Runs fn; passes if it returns or throws a CommandError; anything else fails the property. */
function onlyCommandError(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof CommandError))
      throw new Error(`threw a non-CommandError: ${String(error)}`, { cause: error });
    expect(typeof error.message).toBe('string');
    if (error.line !== null) expect(error.line).toBeGreaterThanOrEqual(1);
    if (error.column !== null) expect(error.column).toBeGreaterThanOrEqual(1);
  }
}

async function onlyCommandErrorAsync(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof CommandError))
      throw new Error(`threw a non-CommandError: ${String(error)}`, { cause: error });
  }
}

/** Pieces of the language (and near misses), so random programs get past the first token often. */
const FRAGMENTS = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '=',
  '.',
  ';',
  '-',
  '"',
  "'",
  '"""',
  "'''",
  '\\',
  '\\n',
  '\\x4',
  '\\u{',
  '\n',
  ' ',
  '\t',
  '#',
  'a',
  'x',
  'ws',
  'web.fetch',
  'ot.help',
  'f',
  'True',
  'None',
  'null',
  'false',
  '0',
  '1',
  '-2',
  '1.5',
  '1e3',
  'e',
  '.5',
  '{{',
  '}}',
  '{{ p }}',
  '{{p}}',
  '$',
  '$s',
  'k=',
  'k: ',
  '"s"',
  "'s'",
  'x=1',
  'get-issue',
  'r"',
  '\u00e9',
  '😀',
  '\ud800',
  '\r',
  '\u2028',
  '\ufeff',
  '@',
  '+',
];
const fragmentText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fragmentText, fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ maxLength: 80 }));

const aliasMap = fc.dictionary(
  fc.oneof(fc.constantFrom('ws', 'w', 'a.b', 'c.d', 'web.fetch', 'f', 'x y', ''), fc.string({ maxLength: 6 })),
  fc.oneof(fc.constantFrom('web.fetch', 'a.b', 'c.d', 'x.y', 'ws', 'web', ''), fc.string({ maxLength: 8 })),
  { maxKeys: 5 },
);

describe('robustness: only CommandError escapes', () => {
  it('lexer and parser, on random text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        onlyCommandError(() => tokenize(text));
        onlyCommandError(() => parse(text));
        onlyCommandError(() => parseExpression(text));
        const partial = tokenizePartial(text);
        expect(partial.error === null || partial.error instanceof CommandError).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('interpreter, on random text', async () => {
    const call: CallFn = async (name, args) => ({ name, args });
    await fc.assert(
      fc.asyncProperty(anyText, fc.boolean(), async (text, known) => {
        await onlyCommandErrorAsync(() =>
          runProgram(text, { call, isKnownCallable: () => known, aliases: { ws: 'web.fetch' } }),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('alias rewriting and validation, on random text and alias maps', () => {
    fc.assert(
      fc.property(anyText, aliasMap, (text, aliases) => {
        onlyCommandError(() => rewriteAliases(text, aliases));
        onlyCommandError(() => validateAliases(aliases));
      }),
      { numRuns: RUNS },
    );
  });

  it('snippet invocation parsing and expansion, on random text', () => {
    const snippets = { s: { params: { k: {}, p: { default: 1 } }, body: 'f(k="{{ k }}", p={{ p }})' } };
    fc.assert(
      fc.property(anyText, (text) => {
        onlyCommandError(() => parseSnippetInvocation(text));
        onlyCommandError(() => parseSnippetInvocation(`$s ${text}`));
        onlyCommandError(() => parseSnippetInvocation(`$s\n${text}`));
        onlyCommandError(() => expandSnippet(`$s ${text}`, snippets));
      }),
      { numRuns: RUNS },
    );
  });

  it('snippet rendering, on random bodies, parameters and arguments', () => {
    const paramName = fc.constantFrom('p', 'q', 'k', 'pq', 'x');
    const param = fc.record(
      {
        default: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue()),
        required: fc.boolean(),
        description: fc.string(),
      },
      { requiredKeys: [] },
    );
    const definition: fc.Arbitrary<SnippetDefinition> = fc.record({
      params: fc.dictionary(paramName, param, { maxKeys: 4 }),
      body: anyText,
    });
    const args = fc.dictionary(
      fc.oneof(paramName, fc.constantFrom('', 'z', 'p'), fc.string({ maxLength: 3 })),
      fc.oneof(fc.string(), fc.jsonValue()),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(definition, args, (def, given) => {
        onlyCommandError(() => renderSnippet('s', def, given));
      }),
      { numRuns: RUNS },
    );
  });

  it('classifyInput never throws', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const kind = classifyInput(text, { packs: ['ot', 'web'], aliases: { ws: 'web.fetch' }, snippets: { s: {} } });
        expect(['command', 'chat']).toContain(kind);
      }),
      { numRuns: RUNS },
    );
  });
});

/** JSON-like values with awkward strings (quotes, escapes, lone surrogates, unicode) and numbers. */
const awkwardString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc
    .array(
      fc.constantFrom(
        '"',
        "'",
        '\\',
        '\n',
        '\r',
        '\t',
        '"""',
        '\\n',
        '{{',
        '}}',
        '#',
        '\0',
        '\x7f',
        '\u2028',
        'é',
        '😀',
        '\ud800',
        'ws(',
      ),
      { maxLength: 10 },
    )
    .map((a) => a.join('')),
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0.1, -1e-7, 1e21, Number.MIN_VALUE, -Number.MAX_VALUE),
);
const { value: literalValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    awkwardString,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(awkwardString, tie('value'), { maxKeys: 5 }),
  ),
}));

describe('round trips', () => {
  it('formatLiteral → parse → evaluate gives back the same value', async () => {
    const call: CallFn = async () => {
      throw new Error('no calls expected');
    };
    await fc.assert(
      fc.asyncProperty(literalValue, async (value) => {
        const source = formatLiteral(value);
        const { value: back } = await runProgram(`v = ${source}\nv`, { call });
        expect(back).toEqual(value);
      }),
      { numRuns: RUNS },
    );
  });

  it('formatCall → run passes the same arguments to call', async () => {
    const argName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/).filter((n) => !['true', 'false', 'null'].includes(n));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(argName, literalValue, { maxKeys: 4 }), async (args) => {
        let received: unknown;
        const call: CallFn = async (name, given) => {
          expect(name).toBe('pack.fn');
          received = given;
          return null;
        };
        await runProgram(formatCall('pack.fn', args), { call });
        expect(received).toEqual(args);
      }),
      { numRuns: RUNS },
    );
  });

  it('a string placeholder inside any kind of string literal yields exactly the value given', async () => {
    const def: SnippetDefinition = {
      params: { v: {} },
      body: `p.f(d="{{v}}", s='{{ v }}', t="""{{v}}""", u='''x{{v}}y''')`,
    };
    await fc.assert(
      fc.asyncProperty(awkwardString, async (value) => {
        let received: Record<string, unknown> = {};
        const call: CallFn = async (_name, args) => {
          received = args;
          return null;
        };
        await runProgram(renderSnippet('s', def, { v: value }), { call });
        expect(received).toEqual({ d: value, s: value, t: value, u: `x${value}y` });
      }),
      { numRuns: RUNS },
    );
  });

  it('a quoted snippet argument arrives as typed (single-line and multi-line forms)', () => {
    const oneLine = awkwardString.filter((s) => !s.includes('\n'));
    fc.assert(
      fc.property(awkwardString, oneLine, (value, bare) => {
        expect(parseSnippetInvocation(`$s k=${formatString(value)} j=x`).args).toEqual({ k: value, j: 'x' });
        expect(parseSnippetInvocation(`$s\nk: ${formatString(value)}\nj: x`).args).toEqual({ k: value, j: 'x' });
        const trimmed = bare.trim();
        if (trimmed && !/^["']/.test(trimmed)) expect(parseSnippetInvocation(`$s\nk: ${bare}`).args.k).toBe(trimmed);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('alias rewriting never changes string literals', () => {
  const aliases = { ws: 'web.fetch', w: 'x.y', t: 'llm.transform', 'a.b': 'c.d' };
  const strings = (text: string): unknown[] =>
    tokenizePartial(text)
      .tokens.filter((t) => t.kind === 'string')
      .map((t) => t.value);

  it('on random text, the string tokens before and after are the same', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const rewritten = rewriteAliases(text, aliases);
        expect(strings(rewritten)).toEqual(strings(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('on generated programs, string arguments reach call unchanged and only callees change', async () => {
    const callee = fc.constantFrom('ws', 'w', 't', 'a.b', 'web.fetch', 'x.ws', 'wsx');
    const text = fc.oneof(awkwardString, fc.constantFrom('ws(', 'w(url="x")', 't()', 'a.b(', '# ws('));
    const callSource = fc
      .array(fc.tuple(callee, text, fc.boolean()), { minLength: 1, maxLength: 5 })
      .map((calls) =>
        calls
          .map(
            ([name, value, triple]) =>
              `${name}(s=${triple && !/["\\]/.test(value) ? `"""${value}"""` : formatString(value)})`,
          )
          .join('\n'),
      );
    await fc.assert(
      fc.asyncProperty(callSource, async (source) => {
        const seen: Array<[string, unknown]> = [];
        const call: CallFn = async (name, args) => {
          seen.push([name, args.s]);
          return null;
        };
        await runProgram(source, { call });
        const direct = seen.splice(0);
        await runProgram(rewriteAliases(source, aliases), { call });
        const rewritten = seen.splice(0);
        expect(rewritten.map(([, s]) => s)).toEqual(direct.map(([, s]) => s));
        expect(rewritten.map(([n]) => n)).toEqual(
          direct.map(([n]) => (Object.hasOwn(aliases, n) ? aliases[n as keyof typeof aliases] : n)),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

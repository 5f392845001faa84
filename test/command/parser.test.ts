import { describe, expect, it } from 'vitest';
import { parse, parseExpression, MAX_DEPTH, type Expr, type Statement } from '../../src/command/index.ts';
import { catchCommandError } from './helpers.ts';

/** The tree without positions, for compact comparisons. */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== 'pos' && k !== 'namePos' && k !== 'keyPos')
        .map(([k, v]) => [k, strip(v)]),
    );
  }
  return node;
}
const stmts = (source: string): unknown => strip(parse(source).statements);
const expr = (source: string): unknown => strip(parseExpression(source));

describe('parser: statements', () => {
  it('an assignment and an expression statement', () => {
    expect(stmts('x = 1\nx')).toEqual([
      { kind: 'assign', name: 'x', value: { kind: 'number', value: 1 } },
      { kind: 'expression', expr: { kind: 'variable', name: 'x' } },
    ]);
  });

  it('statements separated by ";" and blank lines; empty statements are skipped', () => {
    expect(
      (parse('a = 1; b = 2;;\n\n\nc = 3;').statements as Statement[]).map((s) => (s.kind === 'assign' ? s.name : '?')),
    ).toEqual(['a', 'b', 'c']);
  });

  it('an empty program and a program of comments have no statements', () => {
    expect(parse('').statements).toEqual([]);
    expect(parse('  # just a comment\n\n# another').statements).toEqual([]);
  });

  it('statement positions are 1-based line and column', () => {
    const [, second] = parse('a = 1\n   b = f()').statements;
    expect(second?.pos).toEqual({ line: 2, column: 4, offset: 9 });
  });
});

describe('parser: calls', () => {
  it('a dotted call with keyword arguments', () => {
    expect(expr('web.fetch(url="https://x", timeout=5)')).toEqual({
      kind: 'call',
      callee: 'web.fetch',
      args: [
        { name: 'url', value: { kind: 'string', value: 'https://x' } },
        { name: 'timeout', value: { kind: 'number', value: 5 } },
      ],
    });
  });

  it('an undotted call, a call without arguments, a trailing comma', () => {
    expect(expr('ws()')).toEqual({ kind: 'call', callee: 'ws', args: [] });
    expect(expr('f(a=1,)')).toEqual({
      kind: 'call',
      callee: 'f',
      args: [{ name: 'a', value: { kind: 'number', value: 1 } }],
    });
  });

  it('nested calls as argument values', () => {
    expect(expr('llm.transform(input=dom.text(ref="e4"), prompt="sum")')).toEqual({
      kind: 'call',
      callee: 'llm.transform',
      args: [
        {
          name: 'input',
          value: { kind: 'call', callee: 'dom.text', args: [{ name: 'ref', value: { kind: 'string', value: 'e4' } }] },
        },
        { name: 'prompt', value: { kind: 'string', value: 'sum' } },
      ],
    });
  });

  it('a call spanning lines inside its brackets', () => {
    const program = parse(
      'r = llm.transform(\n  input=dom.text(\n    ref="e4",\n  ),\n  prompt="""Summarise\nthis""",\n)\nr',
    );
    expect(program.statements).toHaveLength(2);
  });

  it('names with hyphens (MCP tools) are callable', () => {
    expect(expr('github.get-issue(issue-number=3)')).toMatchObject({
      callee: 'github.get-issue',
      args: [{ name: 'issue-number' }],
    });
  });

  it('the callee position is where the name starts', () => {
    const call = parseExpression('\n  web.fetch(url="x")') as Extract<Expr, { kind: 'call' }>;
    expect(call.pos).toMatchObject({ line: 2, column: 3 });
    expect(call.args[0]?.namePos).toMatchObject({ line: 2, column: 13 });
  });
});

describe('parser: literals', () => {
  it('strings, integers, floats, negative numbers', () => {
    expect(expr('"a"')).toEqual({ kind: 'string', value: 'a' });
    expect(expr('-5')).toEqual({ kind: 'number', value: -5 });
    expect(expr('- 2.5e1')).toEqual({ kind: 'number', value: -25 });
    expect(expr('0.125')).toEqual({ kind: 'number', value: 0.125 });
  });

  it('True/true, False/false, None/null', () => {
    for (const t of ['True', 'true']) expect(expr(t)).toEqual({ kind: 'boolean', value: true });
    for (const f of ['False', 'false']) expect(expr(f)).toEqual({ kind: 'boolean', value: false });
    for (const n of ['None', 'null']) expect(expr(n)).toEqual({ kind: 'null' });
  });

  it('lists and dicts, nested, with trailing commas and newlines', () => {
    expect(expr('[1, [2, 3,], {"a": [true]},]')).toEqual({
      kind: 'list',
      items: [
        { kind: 'number', value: 1 },
        {
          kind: 'list',
          items: [
            { kind: 'number', value: 2 },
            { kind: 'number', value: 3 },
          ],
        },
        { kind: 'dict', entries: [{ key: 'a', value: { kind: 'list', items: [{ kind: 'boolean', value: true }] } }] },
      ],
    });
    expect(expr('{\n \'k\': 1,\n "j": None,\n}')).toEqual({
      kind: 'dict',
      entries: [
        { key: 'k', value: { kind: 'number', value: 1 } },
        { key: 'j', value: { kind: 'null' } },
      ],
    });
  });

  it('empty list and dict', () => {
    expect(expr('[]')).toEqual({ kind: 'list', items: [] });
    expect(expr('{}')).toEqual({ kind: 'dict', entries: [] });
  });
});

describe('parser: errors carry line and column', () => {
  const cases: Array<[string, string, number, number, RegExp | string]> = [
    ['unexpected closing bracket', 'x = 1\nf(a=1))', 2, 7, "unexpected ')'"],
    ['closing bracket as a value', 'x = 1\nf(a=)', 2, 5, "expected a value for argument 'a', found ')'"],
    ['bare closing bracket', ')', 1, 1, "unexpected ')'"],
    [
      'positional argument',
      'x = 1\nweb.fetch("https://x")',
      2,
      11,
      /^positional arguments are not allowed: 'web.fetch' takes keyword arguments only/,
    ],
    ['positional after keyword', 'f(a=1, b)', 1, 8, /^positional arguments are not allowed/],
    ['positional nested call', 'f(g())', 1, 3, /^positional arguments are not allowed/],
    ['missing comma', 'f(a=1 b=2)', 1, 7, "expected ',' or ')' after argument 'a', found name 'b'"],
    [
      'unclosed call',
      'f(a=1,\n  b=2',
      2,
      6,
      "unexpected end of input: expected ')' to close '(' from line 1, column 2",
    ],
    ['unclosed list', 'x = [1, 2', 1, 10, /expected '\]' to close '\['/],
    ['unclosed dict', 'x = {"a": 1', 1, 12, /expected '\}' to close '\{'/],
    ['list missing comma', '[1 2]', 1, 4, "expected ',' or ']' in list, found number 2"],
    ['bare dict key', 'x = {a: 1}', 1, 6, 'dict keys must be quoted strings: write "a": instead of a:'],
    ['number dict key', '{1: 2}', 1, 2, 'expected a quoted string as dict key, found number 1'],
    ['dict missing colon', '{"a" 1}', 1, 6, "expected ':' after dict key, found number 1"],
    ['duplicate dict key', '{"a": 1, "a": 2}', 1, 10, 'duplicate key "a" in dict'],
    ['duplicate argument', 'f(a=1, a=2)', 1, 8, "duplicate argument 'a' in call to 'f'"],
    ['two statements on a line', 'a = 1 b = 2', 1, 7, "expected a new line or ';' after the statement, found name 'b'"],
    [
      'missing value after =',
      'x =\ny = 1',
      1,
      4,
      "expected a value after '=' in the assignment to 'x', found end of line",
    ],
    ['missing value at end', 'x = ', 1, 5, "expected a value after '=' in the assignment to 'x', found end of input"],
    ['dotted name without call', 'x = a.b', 1, 5, /^expected '\(' after 'a.b'/],
    ['assignment to dotted name', 'a.b = 1', 1, 1, /^cannot assign to 'a.b'/],
    ['assignment to a keyword', 'True = 1', 1, 1, "cannot assign to 'True'"],
    ['minus without number', 'x = -y', 1, 5, "'-' must be followed by a number, found name 'y'"],
    ['dot without name', 'f.(a=1)', 1, 2, "expected a name after '.', found '('"],
    ['lexer error inside a call', 'f(a="x)', 1, 5, 'unterminated string'],
    ['chained comparison', 'x == 1', 1, 4, "expected a value after '=' in the assignment to 'x', found '='"],
  ];
  for (const [title, source, line, column, reason] of cases) {
    it(title, () => {
      const error = catchCommandError(() => parse(source));
      if (typeof reason === 'string') expect(error.reason).toBe(reason);
      else expect(error.reason).toMatch(reason);
      expect([error.line, error.column]).toEqual([line, column]);
      expect(error.message).toBe(`line ${line}, column ${column}: ${error.reason}`);
    });
  }

  it('positional argument errors have kind "argument", syntax errors kind "syntax"', () => {
    expect(catchCommandError(() => parse('f(1)')).kind).toBe('argument');
    expect(catchCommandError(() => parse('f(')).kind).toBe('syntax');
  });

  it(`nesting deeper than ${MAX_DEPTH} levels is a CommandError, not a stack overflow`, () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(catchCommandError(() => parse(deep)).reason).toMatch(/nesting too deep/);
    const deepCalls = 'f(a='.repeat(5_000) + '1' + ')'.repeat(5_000);
    expect(catchCommandError(() => parse(deepCalls)).reason).toMatch(/nesting too deep/);
    const ok = '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH);
    expect(() => parse(ok)).not.toThrow();
  });
});

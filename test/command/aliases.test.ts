import { describe, expect, it } from 'vitest';
import { findAliasProblems, resolveAlias, rewriteAliases, validateAliases } from '../../src/command/index.ts';
import { catchCommandError } from './helpers.ts';

const aliases = { ws: 'web.fetch', w: 'x.y', t: 'llm.transform' };

describe('rewriteAliases', () => {
  it('rewrites alias calls to their targets', () => {
    expect(rewriteAliases('ws(url="https://a")', aliases)).toBe('web.fetch(url="https://a")');
    expect(rewriteAliases('r = t(input=ws(url="u"), prompt="p")', aliases)).toBe(
      'r = llm.transform(input=web.fetch(url="u"), prompt="p")',
    );
  });

  it('matches whole names, longest first: ws( is never w + s(', () => {
    expect(rewriteAliases('ws() w() wsx() xws()', aliases)).toBe('web.fetch() x.y() wsx() xws()');
  });

  it('leaves strings, comments and names after a dot alone', () => {
    const source = `a = ["ws(", 'ws(x)']\n# ws(url)\nweb.ws(a=1)\nb = """\nws(\n"""\nws()`;
    expect(rewriteAliases(source, aliases)).toBe(source.replace(/ws\(\)$/, 'web.fetch()'));
  });

  it('only rewrites names used as callees, not variables or keyword names', () => {
    expect(rewriteAliases('ws = 1\nf(ws=ws, t=[t])', aliases)).toBe('ws = 1\nf(ws=ws, t=[t])');
  });

  it('allows whitespace before the parenthesis and keeps it', () => {
    expect(rewriteAliases('ws  (url="x")', aliases)).toBe('web.fetch  (url="x")');
  });

  it('follows chains of dotted aliases to the final tool', () => {
    expect(rewriteAliases('old.fetch(url="x")', { 'old.fetch': 'web.get', 'web.get': 'web.fetch' })).toBe(
      'web.fetch(url="x")',
    );
  });

  it('leaves text from an unterminated string on unchanged', () => {
    expect(rewriteAliases('ws(a=1)\nws(b="open ws(', aliases)).toBe('web.fetch(a=1)\nweb.fetch(b="open ws(');
  });

  it('with no aliases returns the source as is', () => {
    expect(rewriteAliases('ws(', {})).toBe('ws(');
  });

  it('throws CommandError for a cycle it has to follow', () => {
    expect(catchCommandError(() => rewriteAliases('a.b()', { 'a.b': 'c.d', 'c.d': 'a.b' })).kind).toBe('alias');
  });
});

describe('validateAliases', () => {
  it('accepts a valid map', () => {
    expect(() => validateAliases({ ws: 'brave.web_search', alias_f: 'demo.foo' })).not.toThrow();
    expect(findAliasProblems({})).toEqual([]);
  });

  it('refuses a target that is not pack.fn syntax', () => {
    expect(findAliasProblems({ ws: 'web' })).toEqual([
      `Alias 'ws' has target "web", which is not a tool name like pack.fn`,
    ]);
    expect(findAliasProblems({ ws: 'web.fetch(' })).toHaveLength(1);
    expect(findAliasProblems({ ws: '' })).toHaveLength(1);
    expect(findAliasProblems({ ws: 3 } as unknown as Record<string, string>)).toEqual([
      `Alias 'ws' has target 3, which is not a tool name like pack.fn`,
    ]);
  });

  it('refuses invalid alias names', () => {
    expect(findAliasProblems({ 'w s': 'web.fetch', '1x': 'web.fetch' })).toEqual([
      "Alias '1x' is not a valid name: use letters, digits and '_' (for example ws)",
      "Alias 'w s' is not a valid name: use letters, digits and '_' (for example ws)",
    ]);
  });

  it('refuses cycles, each reported once', () => {
    expect(findAliasProblems({ 'a.b': 'c.d', 'c.d': 'e.f', 'e.f': 'a.b' })).toEqual([
      'Alias cycle: a.b -> c.d -> e.f -> a.b',
    ]);
    expect(findAliasProblems({ 'a.b': 'a.b' })).toEqual(['Alias cycle: a.b -> a.b']);
    const error = catchCommandError(() => validateAliases({ 'a.b': 'c.d', 'c.d': 'a.b', ws: 'web' }));
    expect(error.kind).toBe('alias');
    expect(error.message).toBe(
      `Alias cycle: a.b -> c.d -> a.b\nAlias 'ws' has target "web", which is not a tool name like pack.fn`,
    );
    expect(error.line).toBeNull();
  });

  it('optionally refuses targets that are not known tools', () => {
    const isKnownCallable = (n: string): boolean => n === 'web.fetch';
    expect(findAliasProblems({ ws: 'web.fetch', wf: 'web.fecth' }, { isKnownCallable })).toEqual([
      "Alias 'wf' maps to 'web.fecth', which is not a known tool",
    ]);
  });

  it('resolveAlias returns non-aliases unchanged', () => {
    expect(resolveAlias('web.fetch', aliases)).toBe('web.fetch');
    expect(resolveAlias('ws', aliases)).toBe('web.fetch');
    expect(resolveAlias('toString', aliases)).toBe('toString');
  });
});

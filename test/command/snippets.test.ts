import { describe, expect, it } from 'vitest';
import {
  expandSnippet,
  findSnippetProblems,
  parseSnippetInvocation,
  renderSnippet,
  runProgram,
  runSnippet,
  snippetExample,
  type SnippetDefinition,
  type SnippetMap,
} from '../../src/command/index.ts';
import { catchCommandError, catchCommandErrorAsync, recordingCall } from './helpers.ts';

const brv: SnippetDefinition = {
  description: 'Search web and extract structured findings',
  params: { topic: { description: 'Topic to research' }, count: { default: 5, description: 'Number of sources' } },
  body: 'results = brave.search(query="{{ topic }}", count={{ count }})\nllm.transform(input=results, prompt="Extract key findings")\n',
};
const snippets: SnippetMap = {
  brv_research: brv,
  fetch: { params: { url: { required: true } }, body: 'web.fetch(url="{{url}}")' },
};

describe('snippet invocation: single-line form', () => {
  it('$name k=v k2="a b"', () => {
    expect(parseSnippetInvocation('$brv_research topic=Python count="a b"')).toEqual({
      name: 'brv_research',
      args: { topic: 'Python', count: 'a b' },
      form: 'single',
    });
  });

  it('no arguments', () => {
    expect(parseSnippetInvocation('  $fetch  ')).toEqual({ name: 'fetch', args: {}, form: 'single' });
  });

  it('an unquoted value runs to the next key= (so it may contain spaces); \\= is a literal =', () => {
    expect(parseSnippetInvocation('$s q=hello big world p=x=y r=a\\= b=').args).toEqual({
      q: 'hello big world',
      p: 'x=y',
      r: 'a=',
      b: '',
    });
  });

  it('quoted values decode escapes and may contain = and spaces', () => {
    expect(parseSnippetInvocation(String.raw`$s a="x=1 b=2" b='it\'s' c="l1\nl2"`).args).toEqual({
      a: 'x=1 b=2',
      b: "it's",
      c: 'l1\nl2',
    });
  });

  it('snippet names may contain hyphens and digits', () => {
    expect(parseSnippetInvocation('$rg-count2 p=1').name).toBe('rg-count2');
  });
});

describe('snippet invocation: multi-line form', () => {
  it('$name then k: v lines; blank and # lines skipped; only the first colon separates', () => {
    expect(
      parseSnippetInvocation('$brv_research\ntopic: Python 3\n\n# a comment\n  count: "7"\nurl: https://x.test/a:b\n'),
    ).toEqual({
      name: 'brv_research',
      args: { topic: 'Python 3', count: '7', url: 'https://x.test/a:b' },
      form: 'multi',
    });
  });

  it('a triple-quoted value may span lines', () => {
    expect(parseSnippetInvocation('$s\ntext: """line 1\nline 2"""\nnext: v').args).toEqual({
      text: 'line 1\nline 2',
      next: 'v',
    });
  });
});

describe('snippet invocation: errors have line and column', () => {
  const cases: Array<[string, string, number, number, RegExp]> = [
    ['no name', '$ x=1', 1, 2, /expected a snippet name after '\$'/],
    ['no =', '$s topic', 1, 4, /expected key=value, found 'topic'/],
    ['duplicate key', '$s a=1 a=2', 1, 8, /parameter 'a' given twice/],
    ['junk after a quoted value', '$s a="x"y', 1, 9, /expected a space after the quoted value/],
    ['unterminated quoted value', '$s a="x', 1, 6, /unterminated string/],
    ['both forms', '$s a=1\nb: 2', 2, 1, /either on the first line .* not both/],
    ['multi-line without colon', '$s\na: 1\n  just text', 3, 3, /expected 'key: value', found 'just text'/],
    ['invalid char after name', '$s!', 1, 3, /invalid character after snippet name 's'/],
  ];
  for (const [title, text, line, column, reason] of cases) {
    it(title, () => {
      const error = catchCommandError(() => parseSnippetInvocation(text));
      expect(error.kind).toBe('snippet');
      expect(error.reason).toMatch(reason);
      expect([error.line, error.column]).toEqual([line, column]);
    });
  }
});

describe('snippet rendering', () => {
  it('renders the spec example with defaults', () => {
    expect(expandSnippet('$brv_research topic=Python', snippets)).toBe(
      'results = brave.search(query="Python", count=5)\nllm.transform(input=results, prompt="Extract key findings")\n',
    );
  });

  it('given values replace defaults', () => {
    expect(expandSnippet('$brv_research topic=Rust count=10', snippets)).toContain('count=10)');
  });

  it('allows any whitespace inside the braces', () => {
    const def: SnippetDefinition = { params: { a: {} }, body: '[{{a}}, {{ a }}, {{\ta\n}}]' };
    expect(renderSnippet('s', def, { a: '1' })).toBe('[1, 1, 1]');
  });

  it('unknown snippet: lists the available ones', () => {
    expect(catchCommandError(() => expandSnippet('$nope', snippets)).message).toBe(
      "Unknown snippet 'nope'. Available: brv_research, fetch",
    );
    expect(catchCommandError(() => expandSnippet('$nope', {})).message).toBe(
      "Unknown snippet 'nope'. Available: (none)",
    );
  });

  it('missing required parameter', () => {
    expect(catchCommandError(() => expandSnippet('$fetch', snippets)).message).toBe(
      "Snippet 'fetch' requires parameter 'url'",
    );
  });

  it('a used parameter with no value and no default counts as required', () => {
    expect(catchCommandError(() => expandSnippet('$brv_research', snippets)).message).toBe(
      "Snippet 'brv_research' requires parameter 'topic'",
    );
  });

  it('a null default counts as no default', () => {
    const def: SnippetDefinition = { params: { a: { default: null } }, body: 'f(a={{ a }})' };
    expect(catchCommandError(() => renderSnippet('s', def, {})).message).toBe("Snippet 's' requires parameter 'a'");
  });

  it('an optional parameter without a value leaves out the lines holding it; given, the line runs (#44)', () => {
    const def: SnippetDefinition = {
      params: { url: { optional: true }, todo: { default: 'Buy milk' } },
      body: 'tabs.navigate(url="{{ url }}")\ndom.type(placeholder="What needs to be done?", text="{{ todo }}")\n',
    };
    expect(renderSnippet('s', def, {})).toBe(
      '# left out: no value given for \'url\'\ndom.type(placeholder="What needs to be done?", text="Buy milk")\n',
    );
    expect(renderSnippet('s', def, { url: 'http://x.test/' }).split('\n')[0]).toBe(
      'tabs.navigate(url="http://x.test/")',
    );
    // Without `optional`, the same missing value is an error.
    const strict = { ...def, params: { ...def.params, url: {} } };
    expect(catchCommandError(() => renderSnippet('s', strict, {})).message).toBe(
      "Snippet 's' requires parameter 'url'",
    );
  });

  it('a required parameter is satisfied by its default', () => {
    const def: SnippetDefinition = { params: { a: { default: 'x', required: true } }, body: 'f(a="{{ a }}")' };
    expect(renderSnippet('s', def, {})).toBe('f(a="x")');
  });

  it('an unknown placeholder is an error with its place in the body', () => {
    const def: SnippetDefinition = { params: { a: {} }, body: 'f(a="{{ a }}")\ng(b="{{ b }}")' };
    const error = catchCommandError(() => renderSnippet('s', def, { a: 'x' }));
    expect(error.message).toBe("snippet 's' body, line 2, column 6: unknown placeholder '{{ b }}'; parameters: a");
  });

  it('malformed and unterminated placeholders are errors', () => {
    const bad = catchCommandError(() => renderSnippet('s', { body: 'f(a={{ a.b }})' }, {}));
    expect(bad.reason).toMatch(/invalid placeholder '\{\{ a.b \}\}'/);
    expect([bad.line, bad.column]).toEqual([1, 5]);
    const open = catchCommandError(() => renderSnippet('s', { params: { a: {} }, body: 'x\nf(a={{ a )' }, { a: '1' }));
    expect(open.message).toBe("snippet 's' body, line 2, column 5: unterminated placeholder: '{{' without '}}'");
  });

  it('an argument that is no parameter is an error; unique prefixes are accepted', () => {
    expect(catchCommandError(() => expandSnippet('$brv_research topic=x colour=red', snippets)).message).toBe(
      "Snippet 'brv_research' has no parameter 'colour'. Parameters: topic, count",
    );
    expect(expandSnippet('$brv_research t=Go c=3', snippets)).toContain('query="Go", count=3');
    const def: SnippetDefinition = { params: { count: {}, color: {} }, body: '' };
    expect(catchCommandError(() => renderSnippet('s', def, { co: '1' })).reason).toBe(
      "Snippet 's': parameter 'co' is ambiguous (count, color)",
    );
  });

  it('inside a string literal, a value is escaped so the string holds exactly the text given', async () => {
    const def: SnippetDefinition = {
      params: { v: {} },
      body: `p.a(d="{{v}}", s='{{v}}', t="""{{v}}""", u='''{{ v }}''')`,
    };
    const value = `it's "quoted" \\ back\\slash\nnew line \\n not-escape """ '''`;
    const source = renderSnippet('s', def, { v: value });
    const { call, calls } = recordingCall();
    await runProgram(source, { call });
    expect(calls[0]?.args).toEqual({ d: value, s: value, t: value, u: value });
  });

  it('in code, a string value is inserted as source text; other values as literals', () => {
    const def: SnippetDefinition = {
      params: { n: {}, flag: { default: true }, list: { default: [1, 'a'] }, obj: { default: { k: null } } },
      body: 'f(n={{ n }}, flag={{ flag }}, list={{ list }}, obj={{ obj }})',
    };
    expect(renderSnippet('s', def, { n: '[1, 2]' })).toBe('f(n=[1, 2], flag=True, list=[1, "a"], obj={"k": None})');
  });

  it('inside strings, non-string values are inserted as JSON text', () => {
    const def: SnippetDefinition = {
      params: { n: { default: 5 }, b: { default: false }, l: { default: ['x'] } },
      body: 'f(s="{{n}} {{b}} {{l}}")',
    };
    expect(renderSnippet('s', def, {})).toBe('f(s="5 false [\\"x\\"]")');
  });

  it('"true"/"false" given for a boolean parameter become booleans', () => {
    const def: SnippetDefinition = { params: { flag: { default: false } }, body: 'f(flag={{ flag }})' };
    expect(renderSnippet('s', def, { flag: 'TRUE' })).toBe('f(flag=True)');
  });

  it('in a comment, line breaks in a value become spaces', () => {
    const def: SnippetDefinition = { params: { v: {} }, body: '# about {{ v }}\nf()' };
    expect(renderSnippet('s', def, { v: 'a\nb = 1' })).toBe('# about a b = 1\nf()');
  });

  it('placeholders after an escaped quote are still inside the string', () => {
    const def: SnippetDefinition = { params: { v: {} }, body: 'f(a="say \\"{{ v }}\\"")' };
    expect(renderSnippet('s', def, { v: '"' })).toBe('f(a="say \\"\\"\\"")');
  });

  it('a value that cannot be written is a CommandError', () => {
    const def: SnippetDefinition = { params: { v: { default: Number.NaN } }, body: 'f(v={{v}})' };
    expect(catchCommandError(() => renderSnippet('s', def, {})).reason).toMatch(
      /^Snippet 's': parameter 'v': cannot write NaN/,
    );
  });

  it('findSnippetProblems reports unknown and malformed placeholders', () => {
    expect(findSnippetProblems('s', { params: { a: {} }, body: '{{ a }} {{ b }}' })).toEqual([
      "snippet 's' body, line 1, column 9: unknown placeholder '{{ b }}'",
    ]);
    expect(findSnippetProblems('s', { body: '{{ a' })).toEqual([
      "snippet 's' body, line 1, column 1: unterminated placeholder: '{{' without '}}'",
    ]);
    expect(findSnippetProblems('s', brv)).toEqual([]);
  });
});

describe('snippet examples and running', () => {
  it('snippetExample: invocation with the non-default parameters, and its expansion', () => {
    expect(snippetExample('brv_research', brv, { topic: 'Python' })).toEqual({
      invocation: '$brv_research topic=Python',
      expansion:
        'results = brave.search(query="Python", count=5)\nllm.transform(input=results, prompt="Extract key findings")\n',
    });
    expect(snippetExample('brv_research', brv).invocation).toBe('$brv_research topic=<topic>');
    expect(snippetExample('brv_research', brv, { topic: 'a "b"' }).invocation).toBe('$brv_research topic="a \\"b\\""');
  });

  it('runSnippet renders and runs the body through call', async () => {
    const { call, calls } = recordingCall((name) => (name === 'brave.search' ? ['r1', 'r2'] : 'summary'));
    const result = await runSnippet('$brv_research topic="Python 3" count=2', snippets, { call });
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['brave.search', { query: 'Python 3', count: 2 }],
      ['llm.transform', { input: ['r1', 'r2'], prompt: 'Extract key findings' }],
    ]);
    expect(result.value).toBe('summary');
  });

  it('errors while running a snippet name the snippet and the line of the expansion', async () => {
    const call = async (name: string): Promise<unknown> => {
      if (name === 'llm.transform') throw new Error('no key');
      return 1;
    };
    const error = await catchCommandErrorAsync(() => runSnippet('$brv_research topic=x', snippets, { call }));
    expect(error.message).toBe("snippet 'brv_research', line 2, column 1: llm.transform failed: no key");
  });
});

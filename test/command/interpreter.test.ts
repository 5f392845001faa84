import { describe, expect, it } from 'vitest';
import { checkProgram, parse, rewriteAliases, runProgram } from '../../src/command/index.ts';
import { catchCommandErrorAsync, recordingCall } from './helpers.ts';

describe('interpreter: values and variables', () => {
  it('the result is the value of the last expression statement', async () => {
    const { call } = recordingCall();
    expect((await runProgram('1\n"two"\n[3, {"four": 4.5, "n": None, "t": true}]', { call })).value).toEqual([
      3,
      { four: 4.5, n: null, t: true },
    ]);
  });

  it('the result is the last assigned value when the program ends with an assignment', async () => {
    const { call } = recordingCall();
    const result = await runProgram('a = 1; b = [a, -2]', { call });
    expect(result.value).toEqual([1, -2]);
    expect(result.variables).toEqual({ a: 1, b: [1, -2] });
  });

  it('an empty program yields null and calls nothing', async () => {
    const { call, calls } = recordingCall();
    expect(await runProgram('# nothing\n', { call })).toEqual({
      value: null,
      variables: {},
      calls: 0,
      labels: [],
      allLabels: [],
    });
    expect(calls).toHaveLength(0);
  });

  it('variables hold call results and can be reassigned', async () => {
    const { call, calls } = recordingCall((name, args) => ({ name, args }));
    const result = await runProgram('x = a.b(n=1)\nx = c.d(prev=x)\nx', { call });
    expect(calls.map((c) => c.name)).toEqual(['a.b', 'c.d']);
    expect(calls[1]?.args.prev).toEqual({ name: 'a.b', args: { n: 1 } });
    expect(result.value).toEqual({ name: 'c.d', args: { prev: { name: 'a.b', args: { n: 1 } } } });
  });

  it('pre-defined variables are visible', async () => {
    const { call, calls } = recordingCall();
    await runProgram('f.g(v=page)', { call, variables: { page: 'hello' } });
    expect(calls[0]?.args).toEqual({ v: 'hello' });
  });

  it('call results are passed on by reference, unchanged', async () => {
    const token = { big: 'object' };
    const { call, calls } = recordingCall((name) => (name === 'a.make' ? token : null));
    await runProgram('t = a.make()\na.use(x=t, y=[t])', { call });
    expect(calls[1]?.args.x).toBe(token);
    expect((calls[1]?.args.y as unknown[])[0]).toBe(token);
  });

  it('dict keys such as __proto__ become own properties', async () => {
    const { call } = recordingCall();
    const { value } = await runProgram('{"__proto__": 1, "constructor": 2}', { call });
    expect(Object.keys(value as object)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('interpreter: calls', () => {
  it('nested calls are evaluated inner-first and each goes through call exactly once', async () => {
    const { call, calls } = recordingCall((name, args) => `${name}(${JSON.stringify(args)})`);
    const { value, calls: count } = await runProgram(
      'llm.transform(input=dom.text(ref="e4"), prompt=ot.help(query=ot.version()))',
      { call },
    );
    expect(calls.map((c) => c.name)).toEqual(['dom.text', 'ot.version', 'ot.help', 'llm.transform']);
    expect(count).toBe(4);
    expect(calls[3]?.args).toEqual({
      input: 'dom.text({"ref":"e4"})',
      prompt: 'ot.help({"query":"ot.version({})"})',
    });
    expect(value).toBe(`llm.transform(${JSON.stringify(calls[3]?.args)})`);
  });

  it('a variable holding a call result does not call again', async () => {
    const { call, calls } = recordingCall();
    await runProgram('x = p.once()\np.use(a=x, b=x, c=[x, x])', { call });
    expect(calls.map((c) => c.name)).toEqual(['p.once', 'p.use']);
  });

  it('calls inside lists and dicts run in source order', async () => {
    const { call, calls } = recordingCall();
    const { value } = await runProgram('[p.a(), {"k": p.b(), "j": [p.c()]}, p.d()]', { call });
    expect(calls.map((c) => c.name)).toEqual(['p.a', 'p.b', 'p.c', 'p.d']);
    expect(value).toEqual(['<p.a>', { k: '<p.b>', j: ['<p.c>'] }, '<p.d>']);
  });

  it('the call receives the position of the callee', async () => {
    const { call, calls } = recordingCall();
    await runProgram('x = 1\n  y = web.fetch(url="u")', { call });
    expect(calls[0]?.position).toEqual({ line: 2, column: 7, offset: 12 });
  });

  it('calls are awaited one after another (no overlap)', async () => {
    const events: string[] = [];
    const call = async (name: string): Promise<unknown> => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`end ${name}`);
      return name;
    };
    await runProgram('p.a(x=p.b())\np.c()', { call });
    expect(events).toEqual(['start p.b', 'end p.b', 'start p.a', 'end p.a', 'start p.c', 'end p.c']);
  });

  it('aliases are resolved at each callee, positions stay those of the source', async () => {
    const { call, calls } = recordingCall();
    await runProgram('ws(url="x")\nx.ws(a=1)', { call, aliases: { ws: 'web.fetch', 'x.ws': 'web.search' } });
    expect(calls.map((c) => [c.name, c.position.line, c.position.column])).toEqual([
      ['web.fetch', 1, 1],
      ['web.search', 2, 1],
    ]);
  });

  it('running with aliases equals running the rewritten source', async () => {
    const aliases = { ws: 'web.fetch', t: 'llm.transform' };
    const source = 'r = t(input=ws(url="ws(x)"), prompt="t(")\nr';
    const a = recordingCall();
    const b = recordingCall();
    await runProgram(source, { call: a.call, aliases });
    await runProgram(rewriteAliases(source, aliases), { call: b.call });
    expect(a.calls.map((c) => [c.name, c.args])).toEqual(b.calls.map((c) => [c.name, c.args]));
  });
});

describe('interpreter: errors', () => {
  it('unknown variable: line and column, and nothing runs', async () => {
    const { call, calls } = recordingCall();
    const error = await catchCommandErrorAsync(() => runProgram('a = p.first()\nb = 1\np.second(x=missing)', { call }));
    expect(error.message).toBe("line 3, column 12: unknown variable 'missing' (defined: a, b)");
    expect([error.kind, error.line, error.column]).toEqual(['name', 3, 12]);
    expect(calls).toHaveLength(0);
  });

  it('a variable used before its assignment is unknown', async () => {
    const { call } = recordingCall();
    const error = await catchCommandErrorAsync(() => runProgram('x = y\ny = 1', { call }));
    expect([error.line, error.column, error.reason]).toEqual([1, 5, "unknown variable 'y'"]);
  });

  it('unknown tools are refused before anything runs when isKnownCallable is given', async () => {
    const { call, calls } = recordingCall();
    const known = new Set(['web.fetch']);
    const error = await catchCommandErrorAsync(() =>
      runProgram('a = web.fetch(url="x")\nweb.fecth(url=a)', { call, isKnownCallable: (n) => known.has(n) }),
    );
    expect(error.message).toBe(`line 2, column 1: unknown tool 'web.fecth'; search with ot.help(query="web.fecth")`);
    expect(calls).toHaveLength(0);
  });

  it('isKnownCallable sees the alias target', async () => {
    const seen: string[] = [];
    const { call } = recordingCall();
    const error = await catchCommandErrorAsync(() =>
      runProgram('ws(url="x")', { call, aliases: { ws: 'web.fetch' }, isKnownCallable: (n) => (seen.push(n), false) }),
    );
    expect(seen).toEqual(['web.fetch']);
    expect(error.reason).toMatch(/^unknown tool 'ws' \(alias of 'web.fetch'\)/);
  });

  it('a failing call is wrapped with its line and column; the original is the cause', async () => {
    const boom = new Error('boom');
    const { call, calls } = recordingCall((name) => {
      if (name === 'p.bad') throw boom;
      return 1;
    });
    const error = await catchCommandErrorAsync(() => runProgram('a = p.ok()\nb = p.bad(x=a)\np.never()', { call }));
    expect(error.message).toBe('line 2, column 5: p.bad failed: boom');
    expect([error.kind, error.line, error.column]).toEqual(['tool', 2, 5]);
    expect(error.cause).toBe(boom);
    expect(calls.map((c) => c.name)).toEqual(['p.ok', 'p.bad']);
  });

  it('a nested call failing names the inner call', async () => {
    const call = async (name: string): Promise<unknown> => {
      if (name === 'dom.text') throw new Error('no such element');
      return 'x';
    };
    const error = await catchCommandErrorAsync(() =>
      runProgram('llm.transform(\n  input=dom.text(ref="e9"),\n  prompt="p")', { call }),
    );
    expect(error.message).toBe('line 2, column 9: dom.text failed: no such element');
  });

  it('non-Error rejections are wrapped too', async () => {
    const call = async (): Promise<unknown> => {
      throw 'plain string';
    };
    const error = await catchCommandErrorAsync(() => runProgram('p.x()', { call }));
    expect(error.reason).toBe('p.x failed: plain string');
  });

  it('parse errors come out of runProgram as CommandError with positions', async () => {
    const { call, calls } = recordingCall();
    const error = await catchCommandErrorAsync(() => runProgram('p.a()\np.b(1)', { call }));
    expect([error.kind, error.line, error.column]).toEqual(['argument', 2, 5]);
    expect(calls).toHaveLength(0);
  });

  it('an alias cycle at run time is a CommandError at the call', async () => {
    const { call } = recordingCall();
    const error = await catchCommandErrorAsync(() =>
      runProgram('\na.b()', { call, aliases: { 'a.b': 'c.d', 'c.d': 'a.b' } }),
    );
    expect([error.kind, error.line, error.reason]).toEqual(['alias', 2, 'Alias cycle: a.b -> c.d -> a.b']);
  });

  it('a label is put before the position', async () => {
    const { call } = recordingCall();
    const error = await catchCommandErrorAsync(() => runProgram('x', { call, label: "snippet 'brv'" }));
    expect(error.message).toBe("snippet 'brv', line 1, column 1: unknown variable 'x'");
  });

  it('an aborted signal stops the run before the next call', async () => {
    const controller = new AbortController();
    const { call, calls } = recordingCall((name) => {
      if (name === 'p.first') controller.abort();
      return null;
    });
    const error = await catchCommandErrorAsync(() =>
      runProgram('p.first()\np.second()', { call, signal: controller.signal }),
    );
    expect(error.kind).toBe('aborted');
    expect(error.line).toBe(2);
    expect(calls.map((c) => c.name)).toEqual(['p.first']);
  });

  it('checkProgram lists resolved calls in evaluation order without running', () => {
    expect(checkProgram(parse('a = ws(u=p.x())\nq.y(v=a)'), { aliases: { ws: 'web.fetch' } })).toEqual([
      'p.x',
      'web.fetch',
      'q.y',
    ]);
  });

  it('only CommandError escapes, even for odd thrown values', async () => {
    const call = async (): Promise<unknown> => {
      throw Object.create(null) as object;
    };
    const error = await catchCommandErrorAsync(() => runProgram('p.x()', { call }));
    expect(error.reason).toBe('p.x failed: [object Object]');
  });
});

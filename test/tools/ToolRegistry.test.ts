// The registry: packs, qualified/alias/API-name lookup, collision refusal, unregistering, definitions, suggestions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { API_NAME_RE } from '../../src/tools/toolNames.ts';

const tool = (pack: string, name: string) =>
  defineTool({
    pack,
    name,
    description: `${pack} ${name}`,
    parameters: z.object({}),
    effect: 'reads',
    execute: () => `${pack}.${name}`,
  });

function sample(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerPack({ name: 'dom', instructions: 'Snapshot first.' }, [
    tool('dom', 'click'),
    tool('dom', 'type'),
    tool('dom', 'snapshot'),
  ]);
  registry.registerPack({ name: 'web' }, [tool('web', 'fetch')]);
  registry.registerPack({ name: 'github', source: 'proxy:github' }, [
    tool('github', 'create_issue'),
    tool('github', 'search repos'),
  ]);
  return registry;
}

describe('ToolRegistry lookups', () => {
  it('finds tools by qualified name, by API name, and lists them sorted', () => {
    const registry = sample();
    expect(registry.get('dom.click')?.name).toBe('click');
    expect(registry.apiNameOf('dom.click')).toBe('dom__click');
    expect(registry.fromApiName('dom__click')?.name).toBe('click');
    expect(registry.qualifiedNameOf('_github_2e_search_20_repos')).toBe('github.search repos');
    expect(registry.resolve('github__create_issue')?.name).toBe('create_issue');
    expect(registry.names()).toEqual([
      'dom.click',
      'dom.snapshot',
      'dom.type',
      'github.create_issue',
      'github.search repos',
      'web.fetch',
    ]);
    expect(registry.list().map((t) => t.name)).toEqual([
      'click',
      'snapshot',
      'type',
      'create_issue',
      'search repos',
      'fetch',
    ]);
    expect(registry.resolve('dom.nope')).toBeUndefined();
  });

  it('alias lookup: alias → qualified name, through chains, with qualified names taking precedence', () => {
    const registry = sample();
    registry.setAliases({ ws: 'web.fetch', fetch2: 'ws', gone: 'mcp.later', 'dom.click': 'web.fetch' });
    expect(registry.resolve('ws')?.name).toBe('fetch');
    expect(registry.resolve('fetch2')?.name).toBe('fetch');
    expect(registry.resolve('gone')).toBeUndefined(); // dangling until that server connects
    expect(registry.resolve('dom.click')?.name).toBe('click');
    expect(registry.aliases()).toMatchObject({ ws: 'web.fetch' });
  });

  it('alias cycles are refused, naming the loop, and leave the old aliases in place', () => {
    const registry = sample();
    registry.setAliases({ ws: 'web.fetch' });
    expect(() => registry.setAliases({ a: 'b', b: 'c', c: 'a' })).toThrow('Alias cycle: a -> b -> c -> a');
    expect(() => registry.setAliases({ self: 'self' })).toThrow('Alias cycle: self -> self');
    expect(registry.resolve('ws')?.name).toBe('fetch');
  });

  it('packs() reports source, instructions and tools', () => {
    const registry = sample();
    expect(registry.packs()).toEqual([
      {
        name: 'dom',
        source: 'local',
        instructions: 'Snapshot first.',
        tools: ['dom.click', 'dom.snapshot', 'dom.type'],
      },
      { name: 'github', source: 'proxy:github', tools: ['github.create_issue', 'github.search repos'] },
      { name: 'web', source: 'local', tools: ['web.fetch'] },
    ]);
    registry.setPackInstructions('web', 'Prefer HTTPS.');
    expect(registry.pack('web')?.instructions).toBe('Prefer HTTPS.');
  });

  it('definitions() are nested, named by API name, wire-legal, and filterable', () => {
    const defs = sample().definitions();
    expect(defs.map((d) => d.function.name)).toEqual([
      'dom__click',
      'dom__snapshot',
      'dom__type',
      'github__create_issue',
      '_github_2e_search_20_repos',
      'web__fetch',
    ]);
    for (const def of defs) {
      expect(def.type).toBe('function');
      expect(def.function.name).toMatch(API_NAME_RE);
      expect(def.function.parameters.type).toBe('object');
    }
    expect(sample().definitions((t) => t.pack === 'web')).toHaveLength(1);
  });
});

describe('ToolRegistry registration', () => {
  it('duplicate qualified names are refused, within a pack and across calls, leaving the registry unchanged', () => {
    const registry = new ToolRegistry();
    expect(() => registry.registerPack({ name: 'dom' }, [tool('dom', 'click'), tool('dom', 'click')])).toThrow(
      "Duplicate tool name: 'dom.click'",
    );
    expect(registry.size).toBe(0);
    expect(registry.packs()).toEqual([]);
    registry.register(tool('dom', 'click'));
    expect(() => registry.register(tool('dom', 'click'))).toThrow(/Duplicate tool name/);
    expect(() => registry.registerPack({ name: 'dom' }, [])).toThrow("Pack 'dom' is already registered");
  });

  it('two names that meet on the wire are refused with both names in the error', () => {
    const registry = new ToolRegistry({ encodeName: (q) => q.replace(/[ .]/g, '_') });
    registry.register(tool('a', 'b c'));
    expect(() => registry.register(tool('a', 'b-c'))).not.toThrow();
    expect(() => registry.register(tool('a', 'b.c'))).toThrow(
      "Tool name collision: 'a.b.c' and 'a.b c' both encode to API name 'a_b_c'",
    );
  });

  it('a tool in the wrong pack, a bad pack name or source, or an illegal API name is refused', () => {
    const registry = new ToolRegistry();
    expect(() => registry.registerPack({ name: 'dom' }, [tool('web', 'fetch')])).toThrow(/declares pack 'web'/);
    expect(() => registry.registerPack({ name: 'a.b' }, [])).toThrow(/Invalid pack name/);
    expect(() => registry.registerPack({ name: 'x', source: 'remote' as never }, [])).toThrow(/Invalid source/);
    expect(() => new ToolRegistry({ encodeName: (q) => q }).register(tool('dom', 'click'))).toThrow(
      /invalid API name 'dom.click'/,
    );
  });

  it('property: registered names round-trip through their API names and every API name is wire-legal', () => {
    const names = fc.uniqueArray(
      fc.tuple(fc.stringMatching(/^[a-z]{1,4}$/), fc.string({ unit: 'binary', minLength: 1, maxLength: 80 })),
      { minLength: 1, maxLength: 20, selector: ([p, f]) => `${p}.${f}` },
    );
    fc.assert(
      fc.property(names, (pairs) => {
        const registry = new ToolRegistry();
        for (const [p, f] of pairs) registry.register(tool(p, f));
        return pairs.every(([p, f]) => {
          const api = registry.apiNameOf(`${p}.${f}`)!;
          return (
            API_NAME_RE.test(api) && registry.qualifiedNameOf(api) === `${p}.${f}` && registry.resolve(api)?.name === f
          );
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a colliding registration is always refused and never changes the registry', () => {
    // A deliberately lossy encoding (first 3 characters) makes collisions frequent.
    const lossy = (q: string) => q.slice(0, 3).replace(/[^A-Za-z0-9_-]/g, '_');
    const names = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'ab'), fc.stringMatching(/^[a-c.]{1,3}$/)), {
      maxLength: 25,
    });
    fc.assert(
      fc.property(names, (pairs) => {
        const registry = new ToolRegistry({ encodeName: lossy });
        const taken = new Map<string, string>(); // api → qualified
        for (const [p, f] of pairs) {
          const q = `${p}.${f}`;
          const before = registry.names();
          const clash = taken.has(lossy(q));
          if (clash) {
            expect(() => registry.register(tool(p, f))).toThrow(
              taken.get(lossy(q)) === q ? /Duplicate tool name/ : /Tool name collision/,
            );
            expect(registry.names()).toEqual(before);
          } else {
            registry.register(tool(p, f));
            taken.set(lossy(q), q);
          }
        }
        expect(new Set(registry.names().map((q) => registry.apiNameOf(q))).size).toBe(registry.size);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('ToolRegistry.closest', () => {
  it('suggests the nearest real qualified names for a typo', () => {
    const registry = sample();
    expect(registry.closest('dom.clik')[0]).toBe('dom.click');
    expect(registry.closest('dom.tipe', 2)).toEqual(['dom.type', 'dom.click']);
    expect(registry.closest('web.fetsh', 1)).toEqual(['web.fetch']);
  });

  it('matches a bare function name, a wire-style name, and an alias to its target', () => {
    const registry = sample();
    registry.setAliases({ fetcher: 'web.fetch' });
    expect(registry.closest('snapshot')[0]).toBe('dom.snapshot');
    expect(registry.closest('dom__clik')[0]).toBe('dom.click');
    expect(registry.closest('fetchr')[0]).toBe('web.fetch');
  });

  it('returns nothing rather than unrelated names', () => {
    expect(sample().closest('zzzzzzzzzzzz')).toEqual([]);
  });
});

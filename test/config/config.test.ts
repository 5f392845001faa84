import { describe, expect, it } from 'vitest';
import { formatProblems, parseConfigYaml, parseSecretsYaml, type ConfigProblem } from '../../src/config/parse.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { loadConfig, saveConfig, loadSecrets, saveSecrets } from '../../src/config/configStore.ts';
import { seedSettings } from '../../src/config/seed.ts';
import { redactSecrets } from '../../src/config/redact.ts';
import { memoryStorage } from '../support/memoryStorage.ts';

describe('config parsing', () => {
  it('fills every default from empty text', () => {
    const r = parseConfigYaml('');
    expect(r.ok && r.value).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG.agent.max_turns).toBe(250);
    expect(DEFAULT_CONFIG.tool_execution).toEqual({
      enable_validation: true,
      enable_logging: true,
      enable_metadata: true,
      log_arguments: true,
      truncate_logs: 100,
    });
    expect(DEFAULT_CONFIG.output).toMatchObject({ max_inline_size: 50000, result_ttl: 3600, format: 'yaml' });
  });

  it('keeps given values and defaults the rest', () => {
    const r = parseConfigYaml('agent:\n  model: gpt-test\n  max_turns: 3\n');
    expect(r.ok && r.value.agent).toMatchObject({ model: 'gpt-test', max_turns: 3, store: false });
  });

  it('reports a YAML syntax error with line and column', () => {
    const r = parseConfigYaml('agent:\n  model: [unclosed\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('an unknown key is a warning at its own line and column; the rest of the config is used (#30)', () => {
    const r = parseConfigYaml('agent:\n  model: x\n  max_turnz: 3\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.agent).toMatchObject({ model: 'x', max_turns: 250 });
    expect(r.value.agent).not.toHaveProperty('max_turnz');
    expect(r.warnings).toEqual([
      {
        line: 3,
        column: 3,
        path: 'agent.max_turnz',
        message: 'agent.max_turnz: not a setting this version of Otto knows; ignored',
      },
    ]);
  });

  it('unknown keys anywhere (a whole section, inside a server, beside a wrong value) are warnings', () => {
    const text = [
      'bridge:', //                       1: a section from a newer version
      '  port: 9000',
      'servers:',
      '  gh:',
      '    url: https://mcp.example.com/mcp',
      '    transport: sse', //           6: a key inside a record entry
      'agent:',
      '  max_turns: many', //            8: a wrong value stays an error
      '',
    ].join('\n');
    const r = parseConfigYaml(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.line, p.path])).toEqual([[8, 'agent.max_turns']]);
    expect(r.warnings.map((p) => [p.line, p.column, p.path])).toEqual([
      [1, 1, 'bridge'],
      [6, 5, 'servers.gh.transport'],
    ]);
  });

  it('reports a wrong type at the value', () => {
    const r = parseConfigYaml('approvals:\n  policy: sometimes\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]).toMatchObject({ line: 2, column: 11, path: 'approvals.policy' });
  });

  it('secrets are a flat map of identifier names to strings', () => {
    expect(parseSecretsYaml('OPENAI_API_KEY: sk-abc\n').ok).toBe(true);
    expect(parseSecretsYaml('OPENAI_API_KEY: [1]\n').ok).toBe(false);
  });
});

describe('config storage', () => {
  it('invalid config never replaces a valid one', async () => {
    const storage = memoryStorage();
    expect((await saveConfig('agent: {model: good}\n', storage)).ok).toBe(true);
    expect((await saveConfig('agent: {model: [broken\n', storage)).ok).toBe(false);
    expect((await saveConfig('agent: {max_turns: many}\n', storage)).ok).toBe(false);
    const loaded = await loadConfig(storage);
    expect(loaded.config.agent.model).toBe('good');
    expect(loaded.yaml).toBe('agent: {model: good}\n');
  });

  it('secrets live in their own entry, apart from the config', async () => {
    const storage = memoryStorage();
    await saveSecrets('OPENAI_API_KEY: sk-secret-value\n', storage);
    expect(await loadSecrets(storage)).toEqual({ OPENAI_API_KEY: 'sk-secret-value' });
    expect(storage.data.config).toBeUndefined();
  });

  it('seeding from the environment merges into existing YAML and keeps comments', async () => {
    const storage = memoryStorage();
    await saveConfig('# mine\nagent:\n  max_turns: 7\n', storage);
    const names = await seedSettings(
      { apiKey: 'sk-seeded-1234567', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm1' },
      storage,
    );
    expect(names).toEqual(['agent.base_url', 'agent.model', 'OPENAI_API_KEY']);
    const { config, yaml } = await loadConfig(storage);
    expect(config.agent).toMatchObject({ max_turns: 7, base_url: 'http://127.0.0.1:1234/v1', model: 'm1' });
    expect(yaml).toContain('# mine');
    expect(yaml).not.toContain('sk-seeded');
    expect((await loadSecrets(storage)).OPENAI_API_KEY).toBe('sk-seeded-1234567');
  });
});

describe('redaction', () => {
  it('removes known secret values and key-shaped strings', () => {
    const out = redactSecrets('bad key abcd-secret-9 and sk-proj-XYZ123456 here', ['abcd-secret-9']);
    expect(out).toBe('bad key [redacted] and [redacted] here');
  });
});

describe('hostile YAML', () => {
  it('#45: text that reads as nothing (`&&`, `~`, `null`) is refused as not a map, not taken as "no settings"', () => {
    const refused = (text: string) => {
      const r = parseConfigYaml(text);
      return r.ok ? 'accepted' : formatProblems(r.problems);
    };
    const notAMap = 'the whole file: should be a map (one "key: value" per line), not empty';
    expect(refused('&&')).toBe(`line 1, column 3: ${notAMap}`);
    expect(refused('~')).toBe(`line 1, column 1: ${notAMap}`);
    expect(refused('# mine\nnull')).toBe(`line 2, column 1: ${notAMap}`);
    expect(formatProblems((parseSecretsYaml('&&') as { problems: ConfigProblem[] }).problems)).toBe(
      `line 1, column 3: ${notAMap}`,
    );
    // Empty text and text of comments only are the empty config (every default), as before.
    expect(parseConfigYaml('').ok).toBe(true);
    expect(parseConfigYaml('# nothing yet\n').ok).toBe(true);
  });
  it('an alias without its anchor is a located problem, not a crash (found by fuzzing)', () => {
    const r = parseConfigYaml('*a');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.message).toMatch(/alias/i);
  });
  it('alias expansion is capped ("billion laughs")', () => {
    const bomb = [
      'a: &a [x,x,x,x,x,x,x,x,x,x]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    expect(parseConfigYaml(bomb).ok).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { checkYaml, defaultsYaml, effectiveConfig, formatProblem, patchYaml } from '../../src/config/edit.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';

describe('config editing helpers', () => {
  it('applies form edits keeping comments and other keys', () => {
    const text = '# mine\nagent:\n  model: a # fav\n  max_turns: 5\naliases:\n  ws: web.fetch\n';
    const out = patchYaml(text, [
      { path: ['agent', 'base_url'], value: 'http://127.0.0.1:1234/v1' },
      { path: ['approvals', 'policy'], value: 'auto' },
    ]);
    expect(out).toContain('# mine');
    expect(out).toContain('model: a # fav');
    expect(out).toContain('ws: web.fetch');
    expect(effectiveConfig(out).agent.base_url).toBe('http://127.0.0.1:1234/v1');
    expect(effectiveConfig(out).approvals.policy).toBe('auto');
  });

  it('removes keys set back to their default, and the maps they leave empty', () => {
    expect(patchYaml('agent:\n  model: a\n', [{ path: ['agent', 'model'], value: undefined }])).toBe('');
    expect(patchYaml('', [{ path: ['transform', 'model'], value: undefined }])).toBe('');
    // Text from before versioning (settings version 1) is brought to the current version as it is edited.
    expect(patchYaml('agent:\n  model: a\n  max_turns: 3\n', [{ path: ['agent', 'model'], value: undefined }])).toBe(
      'version: 2\nagent:\n  max_turns: 3\n',
    );
  });

  it('#45: a form edit of text that is not "key: value" lines fails in plain words, not the YAML reader\'s', () => {
    const edit = [{ path: ['agent', 'model'], value: 'x' }];
    expect(() => patchYaml('&&', edit)).toThrow(
      'The settings text is not "key: value" lines, so a form cannot change it; fix it in the editor first.',
    );
    expect(() => patchYaml('agent: 5\n', edit)).toThrow(
      'agent holds a single value in the settings text, so agent.model cannot be set; fix it in the editor first.',
    );
    expect(checkYaml('&&').problems.map(formatProblem)).toEqual([
      'line 1, column 3: the whole file: should be a map (one "key: value" per line), not empty',
    ]);
  });

  it('refuses to patch text that does not parse', () => {
    expect(() => patchYaml('agent: [', [{ path: ['agent', 'model'], value: 'x' }])).toThrow(/fix them/);
  });

  it('reports problems as line:column like the worker; unknown keys are warnings, not problems', () => {
    const problems = checkYaml('agent:\n  max_turns: many\n').problems;
    expect(problems.map(formatProblem)).toEqual(['line 2, column 14: agent.max_turns: should be a number, not text']);
    expect(checkYaml('agent:\n  modle: x\n').problems).toEqual([]);
    expect(checkYaml('agent:\n  modle: x\n').warnings.map(formatProblem)).toEqual([
      'line 2, column 3: agent.modle: not a setting this version of Otto knows; ignored',
    ]);
    expect(checkYaml('').problems).toEqual([]);
    expect(effectiveConfig('agent: [')).toEqual(DEFAULT_CONFIG);
  });

  it('offers the defaults as valid YAML', () => {
    expect(checkYaml(defaultsYaml()).problems).toEqual([]);
    // The defaults text writes the agent's connection, so the transform follows it (config/inherit.ts).
    const agent = DEFAULT_CONFIG.agent;
    expect(effectiveConfig(defaultsYaml())).toEqual({
      ...DEFAULT_CONFIG,
      transform: { ...DEFAULT_CONFIG.transform, base_url: agent.base_url, model: agent.model },
    });
    expect(defaultsYaml()).toMatch(/^# Otto settings.*\nversion: 2\n/);
  });
});

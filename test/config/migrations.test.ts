/**
 * #30: versioned settings. Each migration step on its own, the step runner, and every earlier version's fixture
 * loading to the same effective settings as the current version's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import {
  CONFIG_VERSION,
  MIGRATIONS,
  migrateDocument,
  readVersion,
  type Migration,
} from '../../src/config/migrations.ts';
import { parseConfigYaml } from '../../src/config/parse.ts';
import { patchYaml } from '../../src/config/edit.ts';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

/** One fixture per settings version ever released, oldest first; the last is the current version's. */
const FIXTURES: [version: number, file: string][] = [
  [1, 'v1.yaml'],
  [2, 'v2.yaml'],
];

describe('settings versions', () => {
  it('there is a fixture for every version up to the current one, and a step out of every older one', () => {
    expect(FIXTURES.map(([v]) => v)).toEqual(Array.from({ length: CONFIG_VERSION }, (_, i) => i + 1));
    for (let v = 1; v < CONFIG_VERSION; v++)
      expect(MIGRATIONS.filter((m) => m.from === v && m.to === v + 1)).toHaveLength(1);
  });

  it.each(FIXTURES)(
    'a config saved by version %i loads to the same effective settings as the current one',
    (version, file) => {
      const text = fixture(file);
      const current = parseConfigYaml(fixture(FIXTURES.at(-1)![1]));
      const loaded = parseConfigYaml(text);
      expect(loaded).toMatchObject({ ok: true, version, warnings: [] });
      expect(current.ok && loaded.ok && loaded.value).toEqual(current.ok && current.value);
      // Spot-check that the fixture's values (not defaults) are what came through.
      if (!loaded.ok) return;
      expect(loaded.value.agent).toMatchObject({
        base_url: 'http://127.0.0.1:1234/v1',
        model: 'qwen3-8b',
        max_turns: 12,
        mode: 'both',
      });
      expect(loaded.value.servers.local).toMatchObject({
        timeout: 15,
        headers: { Authorization: 'Bearer ${LOCAL_TOKEN}' },
      });
      expect(loaded.value.stats.enabled).toBe(false);
    },
  );
});

describe('migration steps', () => {
  it('v1 → v2 adds `version: 2` as the first key and changes nothing else, comments and unknown keys included', () => {
    const step = MIGRATIONS.find((m) => m.from === 1)!;
    const doc = parseDocument('# mine\nagent:\n  model: a # fav\nfuture_key: kept\n');
    step.up(doc);
    expect(doc.toString()).toBe('# mine\nversion: 2\nagent:\n  model: a # fav\nfuture_key: kept\n');
    // Empty text (every default) gains the version only.
    const empty = parseDocument('');
    step.up(empty);
    expect(empty.toJS()).toEqual({ version: 2 });
  });

  it('the runner applies steps in order, one version at a time, and reports them', () => {
    // A made-up chain for the runner alone (Otto ships only the real steps in MIGRATIONS).
    const steps: Migration[] = [
      ...MIGRATIONS,
      {
        from: 2,
        to: 3,
        what: 'renames agent.max_turns to agent.turn_limit',
        up(doc) {
          const value = doc.getIn(['agent', 'max_turns'], true);
          if (value !== undefined) {
            doc.deleteIn(['agent', 'max_turns']);
            doc.setIn(['agent', 'turn_limit'], value);
          }
          doc.setIn(['version'], 3);
        },
      },
    ];
    const doc = parseDocument('agent:\n  max_turns: 7 # mine\n');
    const applied = migrateDocument(doc, 1, { steps, to: 3 });
    expect(applied.map((s) => `${s.from}->${s.to}`)).toEqual(['1->2', '2->3']);
    expect(doc.toJS()).toEqual({ version: 3, agent: { turn_limit: 7 } });
    expect(doc.toString()).toContain('turn_limit: 7 # mine');
    expect(() => migrateDocument(parseDocument(''), 1, { steps: [], to: 2 })).toThrow(
      'no settings migration from version 1',
    );
  });

  it('reads the version: absent is 1, newer is flagged, anything but a whole number is refused', () => {
    expect(readVersion({})).toEqual({ ok: true, version: 1, newer: false });
    expect(readVersion({ version: 2 })).toEqual({ ok: true, version: 2, newer: false });
    expect(readVersion({ version: 9 })).toEqual({ ok: true, version: 9, newer: true });
    for (const bad of ['2', 0, 1.5, -1]) expect(readVersion({ version: bad }).ok).toBe(false);
  });

  it('a config from a newer Otto loads with a warning; a bad version is an error at its line', () => {
    const newer = parseConfigYaml('version: 9\nagent:\n  model: m\n  turn_limit: 3\n');
    expect(newer.ok).toBe(true);
    expect(newer.warnings.map((w) => [w.line, w.path, w.message])).toEqual([
      [
        1,
        'version',
        'version: saved by a newer Otto (settings version 9; this one reads up to 2): settings it does not know are ignored',
      ],
      [4, 'agent.turn_limit', 'agent.turn_limit: not a setting this version of Otto knows; ignored'],
    ]);
    const bad = parseConfigYaml('agent:\n  model: m\nversion: two\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.problems).toEqual([
        {
          line: 3,
          column: 10,
          path: 'version',
          message: 'version: the settings format version is a whole number (this Otto writes 2)',
        },
      ]);
  });

  it('problems in a migrated text still point at the line the user wrote', () => {
    const r = parseConfigYaml('# old\nagent:\n  max_turns: many\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]).toMatchObject({ line: 3, column: 14, path: 'agent.max_turns' });
  });

  it('a form edit brings old text to the current version and keeps keys this version does not know', () => {
    const out = patchYaml(fixture('v1.yaml').replace('docs:', 'bridge: {port: 9000}\ndocs:'), [
      { path: ['agent', 'max_turns'], value: 30 },
    ]);
    expect(out).toMatch(/^# Saved by Otto 0\.1.*\nversion: 2\nagent:/);
    expect(out).toContain('bridge: { port: 9000 }');
    expect(out).toContain('# LM Studio');
    const r = parseConfigYaml(out);
    expect(r.ok && r.value.agent.max_turns).toBe(30);
    expect(r.warnings.map((w) => w.path)).toEqual(['bridge']);
  });
});

describe('transform follows the agent (#30, #16 item 6)', () => {
  it('an unset transform.base_url / model take the agent values the config writes', () => {
    const r = parseConfigYaml('agent:\n  base_url: http://127.0.0.1:1234/v1\n  model: qwen\n');
    expect(r.ok && r.value.transform).toMatchObject({ base_url: 'http://127.0.0.1:1234/v1', model: 'qwen' });
  });

  it("the transform's own values win", () => {
    const r = parseConfigYaml(
      'agent:\n  base_url: http://a.test/v1\n  model: qwen\ntransform:\n  base_url: http://b.test/v1\n  model: small\n',
    );
    expect(r.ok && r.value.transform).toMatchObject({ base_url: 'http://b.test/v1', model: 'small' });
  });

  it("with neither written, the agent's built-in defaults are not followed: the spec's errors stay reachable", () => {
    const r = parseConfigYaml('agent:\n  max_turns: 5\n');
    expect(r.ok && r.value.transform.base_url).toBeUndefined();
    expect(r.ok && r.value.transform.model).toBeUndefined();
    // Only the base URL written: the model is still the transform's to set.
    const half = parseConfigYaml('agent:\n  base_url: http://a.test/v1\n');
    expect(half.ok && half.value.transform).toMatchObject({ base_url: 'http://a.test/v1' });
    expect(half.ok && half.value.transform.model).toBeUndefined();
  });
});

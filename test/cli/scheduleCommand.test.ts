import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { addedYaml, listText, snippetArgs } from '../../src/cli/schedule/index.ts';
import { parseConfigYaml } from '../../src/config/parse.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli/index.ts');

function config(yaml: string) {
  const out = parseConfigYaml(yaml);
  if (!out.ok) throw new Error('bad config');
  return out.value;
}

describe('otto schedule: list and add', () => {
  it('add keeps the comments and other keys, and list reads it back', () => {
    const yaml = '# my settings\nsnippets:\n  price: { body: "dom.text(selector=\\"#price\\")" }\n';
    const next = addedYaml(yaml, {
      command: 'add',
      config: 'c.yaml',
      name: 'price-watch',
      when: 'every 2 hours',
      run: { snippet: '$price url="http://shop.test/p 1" size=L' },
      watch: 'below 40',
    });
    expect(next).toContain('# my settings');
    const c = config(next);
    expect(c.schedules['price-watch']).toMatchObject({
      when: 'every 2 hours',
      snippet: 'price',
      args: { url: 'http://shop.test/p 1', size: 'L' },
      watch: { condition: 'below 40' },
    });
    const now = new Date(2026, 11, 8, 3, 10).getTime();
    expect(listText(c, now)).toBe(
      `price-watch  every 2 hours (next ${new Date(2026, 11, 8, 4, 0).toLocaleString()})  $price url="http://shop.test/p 1" size="L" · watch: below 40`,
    );
  });

  it('add refuses a bad when or watch in the parsers’ words, before writing', () => {
    const add = (when: string, watch?: string) =>
      addedYaml('', {
        command: 'add',
        config: 'c',
        name: 'x',
        when,
        run: { task: 'read it' },
        ...(watch ? { watch } : {}),
      });
    expect(() => add('every 3 days')).toThrow(/every 3 days/);
    expect(() => add('hourly', 'bellow 40')).toThrow("Unknown condition 'bellow 40'");
  });

  it('snippet arguments: k=v, k="a b", k=\'c\'; anything else by name', () => {
    expect(snippetArgs(' a=1 b="x \\"y\\"" c=\'d e\'')).toEqual({ a: '1', b: 'x "y"', c: 'd e' });
    expect(() => snippetArgs('a=1 oops')).toThrow(
      '--snippet: cannot read the arguments from \'oops\'; write k=v or k="a b"',
    );
  });

  it('list with no schedules says how to add one', () => {
    expect(listText(config(''), 0)).toBe(
      'No schedules in this settings file. Add one: npm run otto -- schedule add --help',
    );
  });

  it('the command line: add then list on a file', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'otto-schedule-'));
    const file = path.join(dir, 'otto.yaml');
    await writeFile(file, 'snippets:\n  status: { body: "dom.text(selector=\\"h1\\")" }\n');
    const add = await run('npx', [
      'tsx',
      CLI,
      'schedule',
      'add',
      'status',
      '--when',
      'every monday 09:00',
      '--snippet',
      '$status',
      '--watch',
      'changed',
      '--config',
      file,
    ]);
    expect(add.stdout).toBe(`Added schedule 'status' to ${file}.\n`);
    expect(await readFile(file, 'utf8')).toContain('schedules:');
    const list = await run('npx', ['tsx', CLI, 'schedule', 'list', '--config', file]);
    expect(list.stdout).toMatch(/^status {2}every monday 09:00 \(next .+\) {2}\$status · watch: changed\n$/);
    const bad = await run('npx', [
      'tsx',
      CLI,
      'schedule',
      'add',
      'x',
      '--when',
      'funday',
      '--task',
      't',
      '--config',
      file,
    ]).catch((e: { stderr: string; code: number }) => e);
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toMatch(/^otto: .*funday/);
  });
});

/**
 * Input paths (issue 34), in node:
 *   classify_20k_spaces_ms   classifyInput on `$brv topic=` + 20,000 spaces + `b` (was 182 ms in the panel; the
 *                            panel classifies the composer's text on every keystroke)
 *   help_20k_spaces_ms       the same for `/help x` + 20,000 spaces + `x`
 *   parse_10k_snippets_ms    parseConfigYaml on a config with 10,000 snippets (1.2 MB)
 *   parse_20k_aliases_ms     parseConfigYaml on 20,000 aliases in one map (the YAML reader's duplicate check was
 *                            quadratic: 12.7 s)
 *   runaway_snippet_ms       `$loop` (body `ot.run(code="$loop")`) until the nesting limit stops it
 */
import '../src/shared/zod.ts';
import { classifyInput } from '../src/command/index.ts';
import { parseConfigYaml } from '../src/config/parse.ts';
import { runCommandText } from '../src/tools/packs/ot/index.ts';
import { otFixture } from '../test/packs/otSupport.ts';
import type { BenchMetric } from './types.ts';

export const name = 'input_paths';

const vocabulary = { packs: ['ot', 'web'], aliases: {}, snippets: {} };
const round2 = (x: number): number => Math.round(x * 100) / 100;

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return round2(performance.now() - t0);
}

const snippets = `snippets:\n${Array.from({ length: 10_000 }, (_, i) => `  s${i}:\n    description: snippet ${i}, a version check with a description long enough to pass 1 MB\n    body: ot.version()\n`).join('')}`;
const aliases = `aliases:\n${Array.from({ length: 20_000 }, (_, i) => `  a${i}: x.y\n`).join('')}`;

export async function run(): Promise<BenchMetric[]> {
  const spaces = ' '.repeat(20_000);
  const classify = time(() => classifyInput(`$brv topic=${spaces}b`, vocabulary));
  const help = time(() => classifyInput(`/help x${spaces}x`, vocabulary));
  const config = time(() => parseConfigYaml(snippets));
  const many = time(() => parseConfigYaml(aliases));
  const f = otFixture({ snippets: { loop: { body: 'ot.run(code="$loop")' } } });
  const t0 = performance.now();
  await runCommandText('$loop', f.ctx, { registry: f.registry }).catch(() => undefined);
  const runaway = round2(performance.now() - t0);
  return [
    { name: 'classify_20k_spaces_ms', value: classify, unit: 'ms', budget: 16 },
    { name: 'help_20k_spaces_ms', value: help, unit: 'ms', budget: 16 },
    { name: 'parse_10k_snippets_ms', value: config, unit: 'ms', budget: 3000 },
    { name: 'parse_20k_aliases_ms', value: many, unit: 'ms', budget: 3000 },
    { name: 'runaway_snippet_ms', value: runaway, unit: 'ms', budget: 1000 },
  ];
}

/**
 * Benchmark runner (`npm run bench` = `npx tsx bench/run.ts`). Runs every module listed below for several rounds,
 * prints a Markdown table of median/min/max per metric and writes bench/results.json.
 *
 *   npx tsx bench/run.ts [module ...] [--rounds N] [--strict]
 *
 * `--strict` exits 1 when a metric's median breaks its budget. To add a benchmark, write `bench/<x>.bench.ts`
 * exporting `name` and `async function run(): Promise<BenchMetric[]>`, and add it to MODULES (static imports only,
 * like everything that may end up in the extension).
 */
import './quickFlag.ts'; // first: sets BENCH_QUICK before the modules below read it
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as interceptor from './interceptor.bench.ts';
import * as dataflow from './dataflow.bench.ts';
import * as taskScope from './taskScope.bench.ts';
import * as planFirst from './planFirst.bench.ts';
import * as scopeModel from './scopeModel.bench.ts';
import * as describeTrip from './describeTrip.bench.ts';
import * as results from './results.bench.ts';
import * as stats from './stats.bench.ts';
import * as help from './help.bench.ts';
import * as snapshot from './snapshot.bench.ts';
import * as loop from './loop.bench.ts';
import * as coldstart from './coldstart.bench.ts';
import * as loopChromium from './loopChromium.bench.ts';
import * as bundle from './bundle.bench.ts';
import * as modelView from './modelView.bench.ts';
import * as fixedInput from './fixedInput.bench.ts';
import * as storage from './storage.bench.ts';
import * as pageload from './pageload.bench.ts';
import * as mcp from './mcp.bench.ts';
import * as transport from './transport.bench.ts';
import * as tabScope from './tabScope.bench.ts';
import * as bigpages from './bigpages.bench.ts';
import * as streamDecode from './stream_decode.bench.ts';
import * as bridge from './bridge.bench.ts';
import * as inputPaths from './inputPaths.bench.ts';
import * as replay from './replay.bench.ts';
import * as pageTasks from './pageTasks.bench.ts';
import * as context from './context.bench.ts';
import * as webfetch from './webfetch.bench.ts';
import * as answerLinks from './answerLinks.bench.ts';
import * as hoverRules from './hoverRules.bench.ts';
import * as scheduleIdle from './scheduleIdle.bench.ts';
import * as scheduleRuns from './scheduleRuns.bench.ts';
import { renderBenchmarksMd } from './report.ts';
import type { BenchMetric, BenchModule } from './types.ts';

const MODULES: BenchModule[] = [
  interceptor,
  dataflow,
  taskScope,
  planFirst,
  scopeModel,
  describeTrip,
  answerLinks,
  loop,
  transport,
  streamDecode,
  loopChromium,
  tabScope,
  coldstart,
  results,
  stats,
  storage,
  help,
  snapshot,
  hoverRules,
  modelView,
  fixedInput,
  pageTasks,
  pageload,
  bigpages,
  inputPaths,
  replay,
  context,
  webfetch,
  bundle,
  mcp,
  bridge,
  scheduleIdle,
  scheduleRuns,
];

interface Summary {
  module: string;
  metric: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  rounds: number[];
  budget?: number;
  withinBudget?: boolean;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

function parseArgs(argv: string[]): { only: string[]; rounds: number; strict: boolean; quick: boolean } {
  const only: string[] = [];
  let rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  let strict = false;
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--strict') strict = true;
    else if (arg === '--quick') {
      // CI's shortened mode: one round, smaller inputs where a module supports it, results kept apart.
      quick = true;
      rounds = 1;
      process.env.BENCH_QUICK = '1';
    } else if (arg === '--rounds') rounds = Number(argv[++i]);
    else only.push(arg);
  }
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${rounds}`);
  return { only, rounds, strict, quick };
}

async function main(): Promise<void> {
  const { only, rounds, strict, quick } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const selected = only.length ? MODULES.filter((m) => only.includes(m.name)) : MODULES;
  if (!selected.length)
    throw new Error(`No bench module named ${only.join(', ')}. Known: ${MODULES.map((m) => m.name).join(', ')}`);

  const summaries: Summary[] = [];
  for (const mod of selected) {
    const byMetric = new Map<string, { unit: string; budget?: number; values: number[] }>();
    const modRounds = quick ? 1 : Math.min(rounds, mod.rounds ?? rounds);
    for (let r = 0; r < modRounds; r++) {
      const metrics: BenchMetric[] = await mod.run();
      for (const m of metrics) {
        const slot = byMetric.get(m.name) ?? { unit: m.unit, budget: m.budget, values: [] };
        slot.values.push(m.value);
        byMetric.set(m.name, slot);
      }
      process.stderr.write(`${mod.name}: round ${r + 1}/${modRounds} done\n`);
    }
    for (const [metric, { unit, budget, values }] of byMetric) {
      const med = round4(median(values));
      const summary: Summary = {
        module: mod.name,
        metric,
        unit,
        median: med,
        min: Math.min(...values),
        max: Math.max(...values),
        rounds: values,
      };
      if (budget !== undefined) {
        summary.budget = budget;
        summary.withinBudget = med <= budget;
      }
      summaries.push(summary);
    }
  }

  const lines = ['| bench | metric | median | min | max | unit | budget |', '|---|---|---:|---:|---:|---|---|'];
  for (const s of summaries) {
    const budget = s.budget === undefined ? '' : `${s.withinBudget ? '✓' : '✗'} < ${s.budget}`;
    lines.push(`| ${s.module} | ${s.metric} | ${s.median} | ${s.min} | ${s.max} | ${s.unit} | ${budget} |`);
  }
  console.log(lines.join('\n'));

  const file = new URL(quick ? './results.quick.json' : './results.json', import.meta.url);
  const out = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    rounds,
    // A run of some modules replaces only their rows: the other modules' last figures stay.
    results: only.length ? mergeResults(file, summaries) : summaries,
  };
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  // The published table comes from full runs of every module only.
  if (!quick && !only.length) writeFileSync(new URL('../BENCHMARKS.md', import.meta.url), renderBenchmarksMd(out));
  console.error(`bench: ${selected.length} modules, ${rounds} rounds, ${((Date.now() - started) / 1000).toFixed(0)} s`);

  if (strict && summaries.some((s) => s.withinBudget === false)) {
    console.error('Some metrics are over budget.');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/** The file's rows of other modules, with this run's rows in place of the modules it ran (in the file's order). */
function mergeResults(file: URL, fresh: Summary[]): Summary[] {
  if (!existsSync(file)) return fresh;
  let old: Summary[];
  try {
    old = (JSON.parse(readFileSync(file, 'utf8')) as { results?: Summary[] }).results ?? [];
  } catch {
    return fresh;
  }
  const ran = new Set(fresh.map((s) => s.module));
  const out: Summary[] = [];
  const placed = new Set<string>();
  for (const s of old) {
    if (!ran.has(s.module)) out.push(s);
    else if (!placed.has(s.module)) {
      placed.add(s.module);
      out.push(...fresh.filter((f) => f.module === s.module));
    }
  }
  for (const f of fresh) if (!placed.has(f.module)) out.push(f);
  return out;
}

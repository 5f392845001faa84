/** BENCHMARKS.md from a full `npm run bench`: the headline comparisons first, then every figure. */

interface Row {
  module: string;
  metric: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  budget?: number;
  withinBudget?: boolean;
}

interface Results {
  generatedAt: string;
  node: string;
  platform: string;
  rounds: number;
  results: Row[];
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(2));

/** What each headline compares, and the target it is held to. */
const HEADLINES: { module: string; metric: string; what: string; target: string }[] = [
  {
    module: 'interceptor',
    metric: 'overhead_p99',
    what: 'Interceptor overhead per call, p99 (logging, validation, metadata on)',
    target: '< 0.05 ms',
  },
  { module: 'interceptor', metric: 'ratio_p50', what: 'Interceptor vs calling the tool directly, p50', target: '—' },
  {
    module: 'loop',
    metric: 'ratio_otto_vs_reference',
    what: 'Agent loop time per turn vs a minimal loop on the openai SDK (same fake server)',
    target: '≤ 1.2×',
  },
  {
    module: 'loop',
    metric: 'otto_overhead_ms_per_turn',
    what: 'What Otto’s loop adds per turn (persisting every item first)',
    target: '—',
  },
  {
    module: 'loop',
    metric: 'persistence_ms_per_turn',
    what: '… of which IndexedDB writes (fake-indexeddb in node)',
    target: '—',
  },
  {
    module: 'loop',
    metric: 'ratio_otto_without_indexeddb_vs_reference',
    what: 'The same loop over an in-memory store vs the SDK loop (bookkeeping only)',
    target: '—',
  },
  {
    module: 'loop_chromium',
    metric: 'otto_ms_per_turn',
    what: 'Agent loop in the real worker (Chromium, its IndexedDB), per turn',
    target: '—',
  },
  {
    module: 'loop_chromium',
    metric: 'ratio_otto_vs_bare_fetch',
    what: '… vs a bare fetch-and-parse loop in the same worker',
    target: '—',
  },
  {
    module: 'coldstart',
    metric: 'cold_start_to_first_token_ms',
    what: 'Stopped service worker → first streamed token',
    target: '—',
  },
  { module: 'coldstart', metric: 'ratio_cold_vs_warm', what: 'Cold vs warm worker, time to first token', target: '—' },
  {
    module: 'snapshot',
    metric: 'ours_ms_median',
    what: 'dom.snapshot per page (readability corpus), median',
    target: 'faster than Playwright',
  },
  {
    module: 'snapshot',
    metric: 'playwright_ms_median',
    what: 'Playwright ariaSnapshot() per page, same pages, median',
    target: '—',
  },
  {
    module: 'snapshot',
    metric: 'ours_addressable_pct',
    what: 'Visible interactive elements dom.snapshot gives a ref to',
    target: '100%',
  },
  {
    module: 'snapshot',
    metric: 'ours_clickable_nonsemantic_pct',
    what: 'Clickable non-semantic elements (onclick, <a> without href, where cursor:pointer starts) given a ref',
    target: '100%',
  },
  {
    module: 'model_view',
    metric: 'tool_definition_chars',
    what: 'Tool definitions per request (default tool set, as sent)',
    target: '≤ 12,000 chars',
  },
  {
    module: 'model_view',
    metric: 'instruction_chars',
    what: 'Instructions per request (Otto’s system block)',
    target: '≤ 1,500 chars',
  },
  {
    module: 'model_view',
    metric: 'change_recall',
    what: 'Change reports naming the known effect, 32 actions on the e2e fixtures',
    target: '100%',
  },
  {
    module: 'model_view',
    metric: 'false_no_change',
    what: '"no DOM change" reported for an action that changed the page',
    target: '0',
  },
  {
    module: 'page_tasks',
    metric: 'total_requests',
    what: 'Model requests for the scripted minimal solutions of #43’s five fixture tasks (drag, hover, PDF, download, like)',
    target: '15 (no discovery request)',
  },
  {
    module: 'page_tasks',
    metric: 'tasks_unfinished',
    what: '… of those tasks not finished (page state and what the model read checked)',
    target: '0',
  },
  {
    module: 'page_tasks',
    metric: 'sent_fixed_input_chars_max',
    what: 'Fixed input (tool definitions + instructions) those requests really carried, largest',
    target: '≤ 13,500 chars',
  },
  {
    module: 'results',
    metric: 'page_100_median',
    what: 'ot.result (node): a page of 100 lines from 1,000,000',
    target: '< 50 ms',
  },
  {
    module: 'results',
    metric: 'regex_search',
    what: 'ot.result (node): regex search over 1,000,000 lines',
    target: '< 1 s',
  },
  {
    module: 'storage',
    metric: 'page_100_of_1m_ms',
    what: 'ot.result in Chromium: a page of 100 lines from 1,000,000',
    target: '< 50 ms',
  },
  {
    module: 'storage',
    metric: 'regex_search_1m_ms',
    what: 'ot.result in Chromium: regex search over 1,000,000 lines',
    target: '< 1 s',
  },
  {
    module: 'storage',
    metric: 'stats_100k_ms',
    what: 'ot.stats in Chromium over 100,000 recorded calls',
    target: '< 200 ms',
  },
  {
    module: 'storage',
    metric: 'stream_max_gap_ms',
    what: 'Largest gap between streamed events in the panel (deltas every 10 ms)',
    target: '—',
  },
  {
    module: 'storage',
    metric: 'stream_max_gap_while_storing_50mb_ms',
    what: '… the same while the worker stores a 50 MB result',
    target: 'no stall a person notices (< 50 ms)',
  },
  { module: 'stats', metric: 'compute_all', what: 'ot.stats over 100,000 recorded calls (node)', target: '< 200 ms' },
  { module: 'help', metric: 'fuzzy_ms', what: 'ot.help fuzzy query over 2,000 tools', target: '< 20 ms' },
  {
    module: 'bundle',
    metric: 'content_scripts_kb',
    what: 'Content script, injected into the frames of a tab a run uses (minified)',
    target: 'stated',
  },
  {
    module: 'pageload',
    metric: 'frames30_overhead',
    what: 'Page load with Otto installed and idle vs without, page with 30 cross-site frames',
    target: '≤ 2 %',
  },
  {
    module: 'pageload',
    metric: 'corpus_overhead',
    what: 'Page load with Otto installed and idle vs without, saved pages of the readability corpus',
    target: '≤ 2 %',
  },
  {
    module: 'pageload',
    metric: 'corpus_first_snapshot',
    what: 'First dom.snapshot on a fresh tab (injects the content script), corpus page',
    target: 'stated (warm: corpus_warm_snapshot)',
  },
  {
    module: 'pageload',
    metric: 'frames30_first_snapshot',
    what: 'First dom.snapshot on a fresh tab with 30 cross-site frames (injects into 31 frames)',
    target: 'stated (warm: frames30_warm_snapshot)',
  },
  {
    module: 'webfetch',
    metric: 'page_ms_median',
    what: 'web.fetch of a saved corpus page in the real worker (request, offscreen parse, article), median',
    target: 'stated',
  },
  { module: 'bundle', metric: 'total_code_kb', what: 'Whole extension, minified', target: '< 1,280 KB' },
];

export function renderBenchmarksMd(out: Results): string {
  const find = (m: string, k: string) => out.results.find((r) => r.module === m && r.metric === k);
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\` on ${out.generatedAt.slice(0, 10)} — ${out.platform}, Node ${out.node}, 2 cores,`,
    `${out.rounds} rounds per module; each figure is the median with min–max across rounds, ratios measured in the same run.`,
    'The machine is shared and noisy: compare ratios, not absolute times, across runs. Raw data: `bench/results.json`;',
    'per-page snapshot figures: `bench/snapshot.results.md`. IndexedDB figures in node use fake-indexeddb (in memory).',
    '',
    '## Headlines',
    '',
    '| what | median | min–max | target |',
    '|---|---:|---:|---|',
  ];
  for (const h of HEADLINES) {
    const r = find(h.module, h.metric);
    if (!r) continue;
    const mark = r.withinBudget === undefined ? '' : r.withinBudget ? ' ✓' : ' ✗';
    lines.push(`| ${h.what} | ${fmt(r.median)} ${r.unit} | ${fmt(r.min)}–${fmt(r.max)} | ${h.target}${mark} |`);
  }
  lines.push(
    '',
    '## Every figure',
    '',
    '| bench | metric | median | min | max | unit | budget |',
    '|---|---|---:|---:|---:|---|---|',
  );
  for (const r of out.results) {
    const budget = r.budget === undefined ? '' : `${r.withinBudget ? '✓' : '✗'} < ${r.budget}`;
    lines.push(
      `| ${r.module} | ${r.metric} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ${r.unit} | ${budget} |`,
    );
  }
  return lines.join('\n') + '\n';
}

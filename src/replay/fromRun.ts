/**
 * "Save as snippet" (#17): a finished run's transcript → a snippet definition that replays it with no model.
 *
 * - Kept: the successful calls that changed something or produced the answer, in order.
 * - Dropped (each with a reason the user sees): failed calls, and exploratory ones (snapshots, searches, listings,
 *   Otto's own help) — they only looked for what the kept calls then used.
 * - Refs (`e12`) do not survive a reload: each action's stored output carries the readable locator its target had
 *   at the time (`locator: {...}` lines, page/actions.ts), which replaces the ref.
 * - Literal values that came from the user's message become parameters whose defaults are this run's values;
 *   values typed into password fields become parameters without a default, so no secret lands in the config. A
 *   parameter's value is replaced by its placeholder wherever it appears later, locators included (#44): the
 *   checkbox of the todo "Buy milk" is `item="{{ todo }}"`, so a replay with another todo checks that one.
 * - Where it starts (#44): a run that navigated keeps its navigation as a step. One that did not runs where the
 *   user is: the page it was recorded on becomes the optional parameter `url` of a first
 *   `tabs.navigate(url="{{ url }}")`, a step left out unless a value is given (never a silent trip back).
 */
import { formatCall, formatString } from '../command/literals.ts';
import type { SnippetDefinition, SnippetParam } from '../command/snippetPrograms.ts';
import { decodeApiName } from '../tools/toolNames.ts';
import { z } from '../shared/zod.ts';

export interface DroppedCall {
  /** The call as it was made (`dom.snapshot()`), arguments shortened. */
  call: string;
  reason: string;
}

export interface BuiltSnippet {
  definition: SnippetDefinition & { params: Record<string, SnippetParam> };
  kept: number;
  dropped: DroppedCall[];
}

/** A step already known to work (a replayed snippet's steps before the one that failed): kept first, as source. */
export interface PriorSteps {
  body: string;
  params: Record<string, SnippetParam>;
  /** The values those parameters had: a later step using one gets the parameter. */
  values?: Record<string, string>;
}

type Item = Record<string, unknown>;

const EXPLORATORY = new Set([
  'dom.snapshot',
  'dom.find',
  'dom.query',
  'dom.dialogs',
  'tabs.list',
  'tabs.screenshot',
  'ot.help',
  'ot.tools',
  'ot.packs',
  'ot.snippets',
  'ot.aliases',
  'ot.config',
  'ot.health',
  'ot.version',
  'ot.stats',
  'ot.result',
  'ot.save_snippet',
]);

/** Actions that take a target (ref/selector) and so need a locator to replay. */
const TARGETED = new Set(['dom.click', 'dom.type', 'dom.select', 'dom.check', 'dom.press', 'dom.hover', 'dom.scroll']);

const LocatorJson = z.object({
  item: z.string().optional(),
  role: z.string().optional(),
  name: z.string().optional(),
  label: z.string().optional(),
  placeholder: z.string().optional(),
  text: z.string().optional(),
  testid: z.string().optional(),
  selector: z.string().optional(),
});
/** A locator's keys, in the order a saved call shows them ("where", then "what"). */
const LOCATOR_KEYS = ['item', 'role', 'name', 'label', 'placeholder', 'text', 'testid', 'selector'] as const;
/** Locator keys whose value is page text a task value can appear in (role and CSS are not). */
const LOCATOR_TEXT_KEYS = new Set(['item', 'name', 'label', 'placeholder', 'testid']);
type Locator = z.infer<typeof LocatorJson>;

function textOf(item: Item): string {
  const c = item.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (p && typeof p === 'object' && typeof (p as Item).text === 'string' ? (p as Item).text : ''))
      .join('\n');
  return '';
}

function outputText(item: Item | undefined): string {
  if (!item) return '';
  const o = item.output;
  if (typeof o === 'string') return o;
  if (Array.isArray(o))
    return o.map((p) => (p && typeof p === 'object' ? String((p as Item).text ?? '') : '')).join('\n');
  return '';
}

/** The first `locator: {...} at "url"` / `locators: [...]` line of an action's stored output. */
export function readLocators(output: string): { locator?: Locator; fields?: (Locator | null)[]; url?: string } {
  const m = /^locators?: (.+?)(?: at ("(?:[^"\\]|\\.)*"))?$/m.exec(output);
  if (!m) return {};
  try {
    const value: unknown = JSON.parse(m[1]!);
    const url = m[2] ? z.string().parse(JSON.parse(m[2])) : undefined;
    if (Array.isArray(value))
      return { fields: value.map((v) => (v === null ? null : LocatorJson.parse(v))), ...(url ? { url } : {}) };
    return { locator: LocatorJson.parse(value), ...(url ? { url } : {}) };
  } catch {
    return {};
  }
}

function short(call: string): string {
  return call.length > 120 ? `${call.slice(0, 119)}…` : call;
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30);
  return /^[a-z_]/.test(s) ? s : s ? `p_${s}` : 'value';
}

/** The calls of the last run: everything after the last user message. */
function lastRun(items: Item[]): { task: string; calls: { name: string; args: Item; output: string }[] } {
  let start = 0;
  for (let i = items.length - 1; i >= 0; i--)
    if (items[i]!.type === 'message' && items[i]!.role === 'user') {
      start = i;
      break;
    }
  const task = items[start] ? textOf(items[start]!) : '';
  const outputs = new Map<string, Item>();
  for (const it of items.slice(start))
    if (it.type === 'function_call_output' && typeof it.call_id === 'string') outputs.set(it.call_id, it);
  const calls: { name: string; args: Item; output: string }[] = [];
  for (const it of items.slice(start)) {
    if (it.type !== 'function_call' || typeof it.name !== 'string') continue;
    let args: Item = {};
    try {
      const parsed: unknown = JSON.parse(typeof it.arguments === 'string' ? it.arguments : '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Item;
    } catch {
      args = { __invalid: true };
    }
    const out = outputs.get(String(it.call_id));
    calls.push({
      name: decodeApiName(it.name) ?? it.name,
      args,
      output: out ? outputText(out) : 'Error: no output (the call never finished)',
    });
  }
  return { task, calls };
}

function locatorArgs(l: Locator): Item {
  const out: Item = {};
  for (const k of LOCATOR_KEYS) if (l[k] !== undefined) out[k] = l[k];
  return out;
}

/** A parameter's mark in an argument (see `mark`): left whole when later values are swapped in. */
const MARK = '\u0001';
const MARKED = new RegExp(`(${MARK}[^${MARK}]*${MARK})`);

/**
 * Replaces, in a step's string arguments (locators included; not role, CSS or a password), every occurrence of a
 * parameter's value by that parameter's mark, longest values first. Values under 3 characters are replaced only
 * where they are the whole argument (already done by the caller), never inside longer text.
 */
function flowThrough(args: Item, byValue: Map<string, string>, mark: (p: string) => string, secret?: string): void {
  const values = [...byValue.keys()].filter((v) => v.trim().length >= 3).sort((a, b) => b.length - a.length);
  // Marks already placed are left alone (a value may be part of a parameter's name).
  const swap = (text: string): string =>
    values.reduce(
      (t, v) =>
        t
          .split(MARKED)
          .map((seg) => (seg.startsWith(MARK) ? seg : seg.split(v).join(mark(byValue.get(v)!))))
          .join(''),
      text,
    );
  for (const [k, v] of Object.entries(args))
    if (typeof v === 'string' && k !== 'role' && k !== 'selector' && k !== secret) args[k] = swap(v);
  if (Array.isArray(args.fields))
    args.fields = (args.fields as Item[]).map((f) =>
      Object.fromEntries(
        Object.entries(f).map(([k, v]) => [k, typeof v === 'string' && LOCATOR_TEXT_KEYS.has(k) ? swap(v) : v]),
      ),
    );
}

/**
 * Builds the snippet from a conversation's transcript (its last run). `prior`: steps that ran before the model took
 * over (a repaired replay), put first.
 */
export function snippetFromRun(items: Item[], opts: { description?: string; prior?: PriorSteps } = {}): BuiltSnippet {
  const { task, calls } = lastRun(items);
  const { steps, dropped, startUrl } = keptSteps(calls);
  const { params, marks, secrets } = parameterise(steps, task, opts.prior);
  const { lines, ordered } = snippetLines(steps, params, marks, startUrl, opts.prior);
  // The task as the description, without what was typed into password fields.
  let said = task;
  for (const v of secrets) if (v) said = said.split(v).join('[password]');
  const description =
    opts.description ?? (said ? `Replays: ${said.replace(/\s+/g, ' ').slice(0, 100)}` : 'Saved from a run');
  return { definition: { description, params: ordered, body: `${lines.join('\n')}\n` }, kept: steps.length, dropped };
}

type RunCall = ReturnType<typeof lastRun>['calls'][number];
/** A call kept as a step; `secret` names the argument typed into a password field. */
type Step = { name: string; args: Item; secret?: string };

/** The calls worth replaying, each with the locators it was read with; the others with why they were left out. */
function keptSteps(calls: RunCall[]): { steps: Step[]; dropped: DroppedCall[]; startUrl?: string } {
  const steps: Step[] = [];
  const dropped: DroppedCall[] = [];
  let startUrl: string | undefined;
  for (const c of calls) {
    const kept = keepCall(c);
    if (!startUrl && kept.url) startUrl = kept.url;
    if (kept.dropped) dropped.push(kept.dropped);
    else if (kept.step) steps.push(kept.step);
  }
  return { steps, dropped, ...(startUrl ? { startUrl } : {}) };
}

/** One call as a step, or why it cannot be one; `url` is the page a targeted call worked on. */
function keepCall(c: RunCall): { step?: Step; dropped?: DroppedCall; url?: string } {
  const shown = (() => {
    try {
      return short(formatCall(c.name, c.args));
    } catch {
      return c.name;
    }
  })();
  if (c.args.__invalid) return { dropped: { call: c.name, reason: 'its arguments were not valid JSON' } };
  if (/^Error:/.test(c.output)) {
    const first = c.output.split('\n')[0]!.replace(/^Error:\s*/, '');
    return { dropped: { call: shown, reason: `failed: ${first.slice(0, 160)}` } };
  }
  if (EXPLORATORY.has(c.name))
    return {
      dropped: {
        call: shown,
        reason: 'exploratory: it only looked at the page or at Otto; the kept steps do the work',
      },
    };
  const args: Item = { ...c.args };
  delete args.tab_id; // the replay acts on its own tab
  const found = readLocators(c.output);
  const url = found.url && (TARGETED.has(c.name) || c.name === 'dom.fill_form') ? found.url : undefined;
  const at = url ? { url } : {};
  const why = relocate(c.name, args, found);
  if (why) return { dropped: { call: shown, reason: why }, ...at };
  // A password typed (the output masks it as "typed N characters"): a parameter the user gives at run time.
  const secret = c.name === 'dom.type' && /^typed \d+ characters into /m.test(c.output) ? 'text' : undefined;
  return { step: { name: c.name, args, ...(secret ? { secret } : {}) }, ...at };
}

/**
 * Puts the readable locators the call's output gave in place of its refs and selectors (in `args`); says why when it
 * cannot (a ref without a locator does not survive a reload).
 */
function relocate(name: string, args: Item, found: ReturnType<typeof readLocators>): string | undefined {
  if (TARGETED.has(name) && (args.ref || args.selector)) {
    // Only dom.click takes `text` as a locator (dom.type's `text` is what it types).
    const textOnly = found.locator?.text !== undefined && name !== 'dom.click';
    if (!found.locator || textOnly) {
      if (textOnly && args.ref)
        return `its element (ref ${String(args.ref)}) is named only by its text, which ${name} does not take as a locator`;
      if (args.ref) return `its element (ref ${String(args.ref)}) has no readable locator to replay with`;
    } else {
      // The locator first: it reads as "where", then "what".
      const { ref: _r, selector: _s, ...rest } = args;
      for (const k of Object.keys(args)) delete args[k];
      Object.assign(args, locatorArgs(found.locator), rest);
    }
  }
  if (name === 'dom.fill_form' && Array.isArray(args.fields)) {
    const fields = args.fields as Item[];
    if (fields.some((f, i) => f.ref && !found.fields?.[i]))
      return 'a field it filled has no readable locator to replay with';
    args.fields = fields.map((f, i) => {
      const l = found.fields?.[i];
      if (!l) return f;
      const { ref: _r, selector: _s, ...rest } = f;
      return { ...locatorArgs(l), ...rest };
    });
  }
  if (!TARGETED.has(name) && name !== 'dom.fill_form' && typeof args.ref === 'string')
    return `it reads an element by ref (${args.ref}), which does not survive a reload`;
  return undefined;
}

/**
 * Parameters: string values the user wrote in the task (and a password typed), named after where they go, marked in
 * the steps' arguments; the values flow through to later locators and texts that hold them.
 */
function parameterise(steps: Step[], task: string, prior: PriorSteps | undefined) {
  const params: Record<string, SnippetParam> = { ...(prior?.params ?? {}) };
  const byValue = new Map<string, string>();
  for (const [p, v] of Object.entries(prior?.values ?? {})) if (v.trim().length >= 2) byValue.set(v, p);
  for (const [p, d] of Object.entries(prior?.params ?? {}))
    if (typeof d.default === 'string' && d.default.trim().length >= 2 && !byValue.has(d.default))
      byValue.set(d.default, p);
  const take = (base: string, value: string | undefined, secret: boolean): string => {
    const known = value !== undefined ? byValue.get(value) : undefined;
    if (known && !secret) return known;
    let n = base;
    for (let i = 2; n in params; i++) n = `${base}_${i}`;
    params[n] = secret
      ? { required: true, description: 'typed into a password field: give it each time (never stored)' }
      : { default: value, description: 'from the task' };
    if (value !== undefined && !secret) byValue.set(value, n);
    return n;
  };
  const marks = new Map<string, string>();
  const mark = (param: string): string => {
    const m = `\u0001${param}\u0001`;
    marks.set(m, param);
    return m;
  };
  const fromTask = (v: unknown): v is string => typeof v === 'string' && v.trim().length >= 2 && task.includes(v);
  const nameFor = (args: Item, key: string): string =>
    slug(String(args.label ?? args.name ?? args.placeholder ?? (key === 'text' || key === 'value' ? 'value' : key)));
  const secrets: string[] = [];
  for (const s of steps) {
    if (s.secret && typeof s.args[s.secret] === 'string') secrets.push(s.args[s.secret] as string);
    for (const [k, v] of Object.entries(s.args)) {
      // Locator arguments name the element, not data (dom.click's `text` is a locator too).
      if (LOCATOR_KEYS.some((l) => l === k) && (k !== 'text' || (TARGETED.has(s.name) && s.name !== 'dom.type')))
        continue;
      if (s.secret === k && typeof v === 'string') s.args[k] = mark(take(nameFor(s.args, k), undefined, true));
      else if (fromTask(v)) s.args[k] = mark(take(nameFor(s.args, k), v, false));
    }
    if (Array.isArray(s.args.fields))
      s.args.fields = (s.args.fields as Item[]).map((f) =>
        fromTask(f.value) ? { ...f, value: mark(take(nameFor(f, 'value'), f.value as string, false)) } : f,
      );
  }
  // The values flow through: later locators and texts that hold a parameter's value hold its placeholder.
  for (const s of steps) flowThrough(s.args, byValue, mark, s.secret);
  return { params, marks, secrets };
}

/**
 * The snippet's lines: the prior steps (or a navigation to where the run started, as an optional `url` parameter,
 * when the run did not navigate itself), then each step with its marks as `{{ param }}` placeholders.
 */
function snippetLines(
  steps: Step[],
  params: Record<string, SnippetParam>,
  marks: Map<string, string>,
  startUrl: string | undefined,
  prior: PriorSteps | undefined,
): { lines: string[]; ordered: Record<string, SnippetParam> } {
  const lines: string[] = [];
  let ordered = params;
  const navigated = steps.some((s) => s.name === 'tabs.navigate' || s.name === 'tabs.open');
  if (prior?.body) lines.push(prior.body.replace(/\n+$/, ''));
  else if (startUrl && !navigated && !('url' in params)) {
    ordered = {
      url: {
        optional: true,
        description: `a page to open first (recorded on ${startUrl}); without it the snippet runs on the current tab`,
      },
      ...params,
    };
    lines.push(`tabs.navigate(url="{{ url }}")`);
  }
  for (const s of steps) {
    let line = formatCall(s.name, s.args);
    for (const [m, p] of marks) line = line.split(formatString(m).slice(1, -1)).join(`{{ ${p} }}`);
    lines.push(line);
  }
  return { lines, ordered };
}

/**
 * From a tool's declaration (flow.ts) and a call's arguments to concrete sinks (where this call sends what) and
 * sources (the labels its output will carry). Page targets and tabs are resolved through the OriginResolver.
 */
import type { ToolFlow } from './flow.ts';
import { labelsOf, mcpLabel, NO_LABELS, union, urlLabel, type Labels } from './labels.ts';
import type { ElementTarget, OriginResolver } from './resolver.ts';
import type { Sink } from './rule.ts';

/** The destination label of an unknown sink: it equals no source, so anything read makes it ask. */
export const ANYWHERE = '*';

type Args = Record<string, unknown>;

const tabOf = (args: Args, fallback: number | undefined): number | undefined =>
  typeof args.tab_id === 'number' ? args.tab_id : fallback;

/** The URLs of a `url` / `urls` argument (`urls` items may be [url, label] pairs). */
export function urlsOf(args: Args): string[] {
  const out: string[] = [];
  if (typeof args.url === 'string') out.push(args.url);
  if (Array.isArray(args.urls))
    for (const u of args.urls) {
      if (typeof u === 'string') out.push(u);
      else if (Array.isArray(u) && typeof u[0] === 'string') out.push(u[0]);
    }
  return out;
}

/** Text values in a value (strings, and strings inside lists and objects), for the user-text refinement. */
function stringLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') out.push(value);
  else if (depth < 8 && Array.isArray(value)) for (const v of value) stringLeaves(v, out, depth + 1);
  else if (depth < 8 && value && typeof value === 'object')
    for (const v of Object.values(value as Args)) stringLeaves(v, out, depth + 1);
  return out;
}

const MAX_SHOWN = 300;
function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** What one page target receives: the text typed or chosen, or the action. */
function pagePayload(args: Args, value: unknown): Pick<Sink, 'data' | 'kind' | 'texts'> {
  // files.upload: a stored file goes to the page, not text the model wrote.
  if (typeof args.file === 'string') return { data: `upload the file ${JSON.stringify(args.file)}`, kind: 'action' };
  const texts = stringLeaves(value).filter((t) => t.length);
  if (texts.length) return { data: shown(texts.join(' | ')), kind: 'text', texts };
  if (typeof args.key === 'string') return { data: `press ${args.key}`, kind: 'action' };
  if (typeof value === 'boolean') return { data: value ? 'check' : 'uncheck', kind: 'action' };
  return { data: 'click', kind: 'action' };
}

function pageTargets(args: Args): { target: ElementTarget; value: unknown }[] {
  if (Array.isArray(args.fields))
    return args.fields.map((f: Args) => ({
      target: { ref: f.ref as string | undefined, selector: f.selector as string | undefined },
      value: f.value,
    }));
  const value =
    args.text ?? args.value ?? args.prompt ?? (typeof args.checked === 'boolean' ? args.checked : undefined);
  return [{ target: { ref: args.ref as string | undefined, selector: args.selector as string | undefined }, value }];
}

/** Where this call sends data. */
export async function sinksOf(
  flow: ToolFlow,
  pack: string,
  args: Args,
  tabId: number | undefined,
  resolver: OriginResolver,
): Promise<Sink[]> {
  switch (flow.sink) {
    case 'none':
      return [];
    case 'url':
      return urlsOf(args).map((u) => ({ to: urlLabel(u) ?? ANYWHERE, data: shown(u), kind: 'url' as const }));
    case 'server': {
      const texts = stringLeaves(args).filter((t) => t.length);
      return [{ to: mcpLabel(pack), data: shown(JSON.stringify(args)), kind: texts.length ? 'text' : 'action', texts }];
    }
    case 'page': {
      const tab = tabOf(args, tabId);
      const out: Sink[] = [];
      for (const { target, value } of pageTargets(args)) {
        const payload = pagePayload(args, value);
        const tos = await resolver.targetOrigins(tab, target);
        // A target whose origin cannot be told could be anywhere.
        for (const to of tos.length ? tos : [ANYWHERE]) out.push({ to, ...payload });
      }
      return out;
    }
    case 'anywhere':
      return [{ to: ANYWHERE, data: shown(JSON.stringify(args)), kind: 'action' }];
  }
}

/** The labels this call's output will carry (`inputs`: the labels of the arguments, given by the caller). */
export async function sourcesOf(
  flow: ToolFlow,
  qualifiedName: string,
  pack: string,
  args: Args,
  tabId: number | undefined,
  resolver: OriginResolver,
  inputs: Labels,
): Promise<Labels> {
  switch (flow.source) {
    case 'none':
      return NO_LABELS;
    case 'page':
      return resolver.tabOrigins(tabOf(args, tabId));
    case 'url':
      return labelsOf(urlsOf(args).map((u) => urlLabel(u) ?? ANYWHERE));
    case 'tabs':
      return resolver.allTabOrigins();
    case 'inputs':
      return inputs;
    case 'server':
      return [mcpLabel(pack)];
    case 'reported':
      return NO_LABELS;
    case 'unknown':
      return union(inputs, [`tool:${qualifiedName}`]);
  }
}

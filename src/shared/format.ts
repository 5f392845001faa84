/**
 * The one output formatter for `ot.*` tools (seed 002, "YAML Flow Style Output"). Config `output.format` picks it:
 *
 *   yaml (default)  block style at the top, flow style at the leaves — a collection holding only scalars is written
 *                   inline (`{key: value, key2: value2}`, `[a, b]`), anything holding a collection is written as a
 *                   block, so a list of objects becomes a block sequence of flow items and flow never nests (the spec's
 *                   "at most 2 levels"). This is PyYAML's `default_flow_style=None`, which the reference used, with
 *                   one exception for readability: a list of strings whose inline form would be long (the lines of
 *                   a stored result) is written one item per line. No line folding, no `{ padding }`.
 *   json            compact JSON (one line; the reference's later default) — cheaper in tokens than indented JSON.
 *
 * Strings are returned as they are in both formats: a tool that already produced text is not quoted again.
 * `undefined` members are dropped, as JSON.stringify does; Dates become ISO strings; bigint becomes its decimal text.
 */
import { Document, isCollection, isMap, isScalar, isSeq, visit, type Node, type Pair } from 'yaml';

export type OutputFormat = 'yaml' | 'json';

/** A string list whose inline form would be longer than this is written as a block sequence instead. */
export const INLINE_STRING_LIST_MAX = 100;

/** Plain data for both formats: Dates to ISO text, bigint to text, undefined members and functions dropped. */
function toPlain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null',
  ) as unknown;
}

function inlineLength(items: readonly unknown[]): number {
  let n = 2;
  for (const item of items) {
    const v = isScalar(item) ? item.value : item;
    n += String(v).length + 2;
  }
  return n;
}

/** The value as YAML text in the spec's flow style (see the module comment), with a trailing newline removed. */
export function toFlowYaml(value: unknown): string {
  const doc = new Document(toPlain(value));
  visit(doc, {
    Collection(_key, node) {
      const items = node.items as readonly unknown[];
      const values = isMap(node) ? items.map((p) => (p as Pair).value) : items;
      const scalarsOnly = values.every((v) => !isCollection(v as Node | null));
      if (!scalarsOnly) {
        node.flow = false;
        return;
      }
      const hasString = values.some((v) => isScalar(v) && typeof v.value === 'string');
      node.flow = !(isSeq(node) && hasString && inlineLength(values) > INLINE_STRING_LIST_MAX);
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
}

/** Formats an `ot.*` result for the model and the panel: strings as-is, anything else as flow YAML or JSON. */
export function formatOutput(value: unknown, format: OutputFormat = 'yaml'): string {
  if (typeof value === 'string') return value;
  if (format === 'json') return JSON.stringify(toPlain(value));
  return toFlowYaml(value);
}

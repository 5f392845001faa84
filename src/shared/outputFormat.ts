/**
 * The one output formatter for `ot.*` tools (docs/specs/002-ot-tools.md, "YAML Flow Style Output"). Config
 * `output.format` picks it:
 *
 *   yaml (default)  block style at the top, flow style at the leaves — a collection holding only scalars is written
 *                   inline (`{key: value, key2: value2}`, `[a, b]`); a list of objects is a block sequence of flow
 *                   items. A map of such small collections is inline too — two levels of flow, the spec's limit, as
 *                   in its `snippets: {foon: {description: …}}` and `proxy: {…, servers: {name: connected}}` — when
 *                   it fits on one readable line (NESTED_FLOW_MAX); deeper or wider structures are blocks. One
 *                   exception for readability: a list of strings whose inline form would be long (the lines of a
 *                   stored result) is written one item per line. No line folding, no `{ padding }`.
 *   json            compact JSON (one line; the reference's later default) — cheaper in tokens than indented JSON.
 *
 * Strings are returned as they are in both formats: a tool that already produced text is not quoted again.
 * `undefined` members are dropped, as JSON.stringify does; Dates become ISO strings; bigint becomes its decimal text.
 */
import {
  Document,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  visit,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';

export type OutputFormat = 'yaml' | 'json';

/** A string list whose inline form would be longer than this is written as a block sequence instead. */
export const INLINE_STRING_LIST_MAX = 100;
/** A map holding small collections (two levels of flow) is inline only up to about this many characters. */
export const NESTED_FLOW_MAX = 160;

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

const valuesOf = (node: YAMLMap | YAMLSeq): unknown[] => {
  const items = node.items as readonly unknown[];
  return isMap(node) ? items.map((p) => (p as Pair).value) : [...items];
};

/** A collection of scalars that is written inline (not a long list of strings). */
function inlineLeaf(node: unknown): boolean {
  if (!isCollection(node as Node | null)) return false;
  const values = valuesOf(node as YAMLMap | YAMLSeq);
  if (values.some((v) => isCollection(v as Node | null))) return false;
  const hasString = values.some((v) => isScalar(v) && typeof v.value === 'string');
  return !(isSeq(node) && hasString && inlineLength(values) > INLINE_STRING_LIST_MAX);
}

/** The value as YAML text in the spec's flow style (see the module comment), with a trailing newline removed. */
export function toFlowYaml(value: unknown): string {
  const doc = new Document(toPlain(value));
  visit(doc, {
    Collection(_key, node, path) {
      const values = valuesOf(node);
      const nested = values.filter((v) => isCollection(v as Node | null));
      if (!nested.length) {
        node.flow = inlineLeaf(node);
        return;
      }
      // Two levels of flow: a map (not the document itself) of inline leaves that fits on one line.
      const isRoot = path.length <= 1;
      node.flow =
        !isRoot && isMap(node) && nested.every(inlineLeaf) && JSON.stringify(node.toJSON()).length <= NESTED_FLOW_MAX;
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

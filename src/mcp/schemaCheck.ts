/**
 * A server's `inputSchema` is checked before its tool is registered, so nothing a server sends can make a request
 * fail for every run: a schema too large, nested too deep (structuredClone and JSON walks overflow the stack near a
 * thousand levels), not a valid JSON Schema (`type: "strng"` makes the API refuse the whole request), or not what
 * the Responses API accepts as function parameters (an object schema without a top-level combinator). Every walk
 * here is iterative.
 */

export const SCHEMA_LIMITS = { chars: 32_000, depth: 24, nodes: 4000 } as const;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords whose value is a schema. */
const SCHEMA_KEYS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
/** Keywords whose value is a list of schemas. */
const LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** The Responses API refuses these at the top of function parameters. */
const TOP_FORBIDDEN = ['anyOf', 'oneOf', 'allOf', 'enum', 'not'];

/** Nesting depth of a JSON value (objects and arrays), without recursion; stops counting past `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    const d = depth + 1;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, d]);
  }
  return max;
}

/** Why a tool's input schema cannot be used, in the user's words; undefined when it can. */
export function schemaProblem(schema: unknown): string | undefined {
  if (schema === undefined) return undefined; // no schema: no parameters
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return 'its input schema is not a JSON object';
  const depth = jsonDepth(schema, SCHEMA_LIMITS.depth);
  if (depth > SCHEMA_LIMITS.depth) return `its input schema is nested more than ${SCHEMA_LIMITS.depth} levels deep`;
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return 'its input schema cannot be serialised';
  }
  if (text.length > SCHEMA_LIMITS.chars)
    return `its input schema is ${text.length.toLocaleString('en-US')} characters (the limit is ${SCHEMA_LIMITS.chars.toLocaleString('en-US')})`;
  const top = schema as Record<string, unknown>;
  if (top.type !== undefined && top.type !== 'object')
    return `its input schema has type ${JSON.stringify(top.type)} at the top; tool parameters must be an object`;
  for (const k of TOP_FORBIDDEN)
    if (k in top)
      return `its input schema has "${k}" at the top, which the model API does not accept for tool parameters`;
  let nodes = 0;
  const stack: { node: unknown; path: string }[] = [{ node: schema, path: '#' }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'boolean') continue;
    if (!node || typeof node !== 'object' || Array.isArray(node))
      return `${path} is not a schema (an object or a boolean)`;
    if (++nodes > SCHEMA_LIMITS.nodes) return `its input schema has more than ${SCHEMA_LIMITS.nodes} sub-schemas`;
    const s = node as Record<string, unknown>;
    const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
    for (const t of types)
      if (typeof t !== 'string' || !TYPES.has(t)) return `${path} has an unknown type ${JSON.stringify(t)}`;
    if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string')))
      return `${path}/required must be a list of names`;
    if (s.enum !== undefined && !Array.isArray(s.enum)) return `${path}/enum must be a list`;
    if (s.$ref !== undefined && typeof s.$ref !== 'string') return `${path}/$ref must be a string`;
    for (const k of SCHEMA_KEYS) {
      if (!(k in s)) continue;
      const sub = s[k];
      // Draft-04 tuples: `items` as a list of schemas.
      if (Array.isArray(sub)) sub.forEach((item, i) => stack.push({ node: item, path: `${path}/${k}/${i}` }));
      else stack.push({ node: sub, path: `${path}/${k}` });
    }
    for (const k of LIST_KEYS) {
      if (!(k in s)) continue;
      const list = s[k];
      if (!Array.isArray(list)) return `${path}/${k} must be a list of schemas`;
      list.forEach((item, i) => stack.push({ node: item, path: `${path}/${k}/${i}` }));
    }
    for (const k of MAP_KEYS) {
      if (!(k in s)) continue;
      const map = s[k];
      if (!map || typeof map !== 'object' || Array.isArray(map)) return `${path}/${k} must be an object of schemas`;
      for (const [name, sub] of Object.entries(map)) stack.push({ node: sub, path: `${path}/${k}/${name}` });
    }
  }
  return undefined;
}

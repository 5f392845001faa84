/**
 * The parameters schema of one of Otto's own tools as the model reads it (#43 part 1): the JSON Schema derived from
 * the tool's zod schema, less the keywords that only bound a value Otto checks anyway — a ref's `pattern`, a
 * selector's `maxLength`, a `tab_id`'s `minimum: 0`, a list's `maxItems`, a record's `propertyNames`. Every call is
 * still validated against the full zod schema (tools/validate.ts); a value out of bounds gets the same plain error
 * as before, in the next turn. What stays tells the model what to write: types, `enum`, `const`, `default`,
 * `required`, `additionalProperties`, descriptions, nesting (`items`, `properties`, `anyOf`).
 *
 * Measured (bench/fixedInput.bench.ts): 1,403 characters of the default tool set's 11,942 were such bounds.
 * Proxy tools (MCP servers) keep their server's schema verbatim: a `pattern` there may be the only word on a format.
 */

/** Keywords dropped: bounds on a value's size or shape that zod enforces at the call. */
export const BOUND_KEYWORDS: ReadonlySet<string> = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'propertyNames',
]);

/**
 * A parameter marked `.meta({ snippetOnly: true })` is accepted at the call but not shown to the model: a key that
 * saved snippets use and the model has no way to know a value for (a test id), so it would only cost every request.
 */
const SNIPPET_ONLY = 'snippetOnly';

const shown = ([, s]: [string, unknown]): boolean =>
  !(s && typeof s === 'object' && (s as Record<string, unknown>)[SNIPPET_ONLY] === true);

/** Keywords whose value maps property names to schemas: their keys are names, never keywords. */
const NAMED_SCHEMAS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/** A copy of `schema` without BOUND_KEYWORDS at any depth (property names are kept, whatever they are called). */
export function schemaForModel(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaForModel);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (BOUND_KEYWORDS.has(key)) continue;
    if (NAMED_SCHEMAS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value)
          .filter(shown)
          .map(([name, s]) => [name, schemaForModel(s)]),
      );
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') {
      out[key] = value;
    } else {
      out[key] = schemaForModel(value);
    }
  }
  return out;
}

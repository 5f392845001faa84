/**
 * Describing a tool for people and models: parameters from its JSON Schema (the server's `inputSchema` for proxy
 * tools, else the one derived from the zod schema), a Python-style signature, `name: description` argument lines.
 *
 * Signature rules (the reference's, for proxy tools, used for every tool so all read alike): required parameters
 * first, then optional ones, each in schema order; JSON types shown as str/int/float/bool/list/dict (`Any` when the
 * schema does not say, unions joined with ` | `); optional parameters as `= <default>` (a Python literal) or `= '...'`.
 */
import { parametersJsonSchema } from '../../toolDefinition.ts';
import { qualifiedNameOf, readsOnly, type AnyTool } from '../../Tool.ts';
import type { PackSource, ToolRegistry } from '../../ToolRegistry.ts';

type Json = Record<string, unknown>;

export interface ParamDoc {
  name: string;
  /** `str`, `int`, `list`, `str | None`, `Any`, ... */
  type: string;
  required: boolean;
  hasDefault: boolean;
  default?: unknown;
  description?: string;
}

export interface ToolDoc {
  /** Qualified name `pack.fn`. */
  name: string;
  pack: string;
  description: string;
  signature: string;
  params: ParamDoc[];
  /** `name: description` per parameter (the spec's `args`). */
  args: string[];
  returns?: string;
  examples: string[];
  /** `local` or `proxy:<server>`. */
  source: PackSource;
  readOnly: boolean;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
  null: 'None',
};

function typeOfValue(v: unknown): string {
  if (v === null) return 'None';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'dict';
    default:
      return 'Any';
  }
}

/** The Python-ish type name of a JSON Schema node. */
export function schemaType(node: unknown): string {
  if (!node || typeof node !== 'object') return 'Any';
  const s = node as Json;
  const names: string[] = [];
  const add = (t: string): void => {
    if (!names.includes(t)) names.push(t);
  };
  if (typeof s.type === 'string') add(TYPE_NAMES[s.type] ?? s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) add(TYPE_NAMES[String(t)] ?? String(t));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = s[key];
    if (Array.isArray(alts)) for (const alt of alts) for (const t of schemaType(alt).split(' | ')) add(t);
  }
  if (!names.length && Array.isArray(s.enum)) for (const v of s.enum) add(typeOfValue(v));
  if (!names.length && 'const' in s) add(typeOfValue(s.const));
  if (!names.length && Array.isArray(s.allOf) && s.allOf.length === 1) return schemaType(s.allOf[0]);
  const known = names.filter((n) => n !== 'Any');
  return known.length ? known.join(' | ') : 'Any';
}

/** A Python literal: 'text', True, None, [1, 'a'], {'k': 2}. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Json)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  return String(value);
}

/** The tool's parameters, in schema order. */
export function paramDocs(tool: AnyTool): ParamDoc[] {
  let schema: Json;
  try {
    schema = (tool.inputSchema as Json | undefined) ?? parametersJsonSchema(tool.parameters, 'input');
  } catch {
    return [];
  }
  const props = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Json;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(props).map(([name, node]) => {
    const n = (node && typeof node === 'object' ? node : {}) as Json;
    const doc: ParamDoc = { name, type: schemaType(n), required: required.has(name), hasDefault: 'default' in n };
    if (doc.hasDefault) doc.default = n.default;
    if (typeof n.description === 'string' && n.description) doc.description = n.description;
    return doc;
  });
}

/** `pack.fn(a: str, b: int = 5, c: str = '...')` — required parameters first. */
export function signatureOf(qualified: string, params: readonly ParamDoc[]): string {
  const parts = [
    ...params.filter((p) => p.required).map((p) => `${p.name}: ${p.type}`),
    ...params
      .filter((p) => !p.required)
      .map((p) => `${p.name}: ${p.type} = ${p.hasDefault ? pyRepr(p.default) : "'...'"}`),
  ];
  return `${qualified}(${parts.join(', ')})`;
}

/** The spec's `args`: `"param_name: description"` (just the name when the schema has no description). */
export function argLines(params: readonly ParamDoc[]): string[] {
  return params.map((p) => (p.description ? `${p.name}: ${p.description}` : p.name));
}

// Tools are long-lived and immutable; so is their description.
const docCache = new WeakMap<AnyTool, Omit<ToolDoc, 'source'>>();

export function toolDoc(tool: AnyTool, source: PackSource): ToolDoc {
  let doc = docCache.get(tool);
  if (!doc) {
    const name = qualifiedNameOf(tool);
    const params = paramDocs(tool);
    doc = {
      name,
      pack: tool.pack,
      description: tool.description,
      signature: signatureOf(name, params),
      params,
      args: argLines(params),
      ...(tool.returns ? { returns: tool.returns } : {}),
      examples: [...(tool.examples ?? [])],
      readOnly: readsOnly(tool),
    };
    docCache.set(tool, doc);
  }
  return { ...doc, source };
}

/** The doc of a registered tool (source from its pack). */
export function registeredToolDoc(registry: ToolRegistry, tool: AnyTool): ToolDoc {
  return toolDoc(tool, registry.pack(tool.pack)?.source ?? 'local');
}

/**
 * Validates request bodies against `CreateResponse` from the OpenAPI subset in corpora/openai-openapi, with
 * @cfworker/json-schema (no eval). Absent corpora → validation is off, with a note saying so.
 *
 * One deliberate loosening: the spec uses `oneOf` where overlapping alternatives are normal (a user message
 * `{type:'message', role:'user', content:[input_text]}` is both an EasyInputMessage and an InputMessage, and the real
 * API accepts it), so every `oneOf` is read as `anyOf`. Each alternative is still checked in full.
 */
import { readFileSync } from 'node:fs';
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { OPENAPI_SUBSET, corpusPresent } from './corpora.ts';

export interface RequestValidator {
  /** Error lines (`/input/0: …`), empty when valid. */
  validate(body: unknown): string[];
}

export interface LoadedValidator {
  validator: RequestValidator | undefined;
  /** 'on: <path>' or why it is off. */
  note: string;
}

const MAX_ERRORS = 12;
// Summary lines that only say "something below failed"; the leaf errors carry the information.
const NOISE =
  /subschema had errors|does not match every subschema|does not match any subschemas|did not match schema|does not match schema/i;

function oneOfAsAnyOf(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'oneOf' in value) {
    const { oneOf, ...rest } = value as Record<string, unknown>;
    return { ...rest, anyOf: oneOf };
  }
  return value;
}

function format(errors: OutputUnit[]): string[] {
  const lines = errors
    .filter((e) => !NOISE.test(e.error))
    .map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'}: ${e.error}`);
  const unique = [...new Set(lines.length > 0 ? lines : errors.map((e) => `${e.instanceLocation}: ${e.error}`))];
  return unique.length > MAX_ERRORS ? [...unique.slice(0, MAX_ERRORS), `… ${unique.length - MAX_ERRORS} more`] : unique;
}

let cached: LoadedValidator | undefined;

export function loadRequestValidator(path: string = OPENAPI_SUBSET): LoadedValidator {
  if (cached && path === OPENAPI_SUBSET) return cached;
  let loaded: LoadedValidator;
  if (!corpusPresent(path)) {
    loaded = {
      validator: undefined,
      note: `off: ${path} not found (corpora absent), request bodies are not validated`,
    };
  } else {
    const doc = JSON.parse(readFileSync(path, 'utf8'), oneOfAsAnyOf) as { components: Record<string, unknown> };
    // `$ref`s point into `#/components/schemas/...` of the same document: keep the components beside the root ref.
    const schema = { $ref: '#/components/schemas/CreateResponse', components: doc.components } as unknown as Schema;
    const validator = new Validator(schema, '2020-12', false);
    loaded = {
      validator: {
        validate: (body) => {
          const result = validator.validate(body);
          return result.valid ? [] : format(result.errors);
        },
      },
      note: `on: ${path}`,
    };
  }
  if (path === OPENAPI_SUBSET) cached = loaded;
  return loaded;
}

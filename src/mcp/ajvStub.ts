/**
 * Build-time stand-in for the MCP SDK's Ajv validator (aliased in vite.config.ts). Ajv compiles schemas with
 * `new Function`, which MV3 forbids, so Otto always passes its own @cfworker/json-schema validator and the SDK's
 * default is never constructed; this keeps ~200 KB of Ajv out of the worker.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('Ajv cannot run in an MV3 extension (no eval); pass a jsonSchemaValidator to the MCP client.');
  }
}

/**
 * `npm run fake-api [-- --port 8787] [--host 127.0.0.1] [--key sk-test] [--strict]`: the fake Responses API for manual
 * runs and for e2e setups that need it in another process. Prints its base URL, then one line per request.
 * Script it over HTTP: POST /__fake/script {"turns":[...], "append"?: true}; GET /__fake/requests; POST /__fake/reset.
 */
import { parseArgs } from 'node:util';
import { startFakeApi } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    key: { type: 'string' },
    strict: { type: 'boolean', default: false },
  },
});

const api = await startFakeApi({
  port: Number(values.port),
  host: values.host,
  ...(values.key ? { expectedKey: values.key } : {}),
  fallback: values.strict ? 'error' : 'default',
  log: (line) => console.log(`${new Date().toISOString()} ${line}`),
});

console.log(`Fake Responses API listening on ${api.url}`);
console.log(`Request validation ${api.schemaValidation}`);

const stop = () => {
  void api.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

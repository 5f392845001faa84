// #16 item 5: every configured secret's value — whatever its shape — is removed from every tool output and error
// text in one place (the interceptor), before the model, the command line or a calling tool sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/config/redact.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { createLlmTools } from '../../src/tools/packs/llm/index.ts';
import { startFakeApi, type FakeApi } from '../support/fake-api/index.ts';
import { makeCtx } from './helpers.ts';

// Secrets of the shapes people store: Groq, a bearer token with base64 padding, a JWT, a password with spaces and a
// colon, a GitHub token, a hex key.
const SECRETS = {
  GROQ_API_KEY: 'gsk_4f9QxT0p2LmN8sVw6yZb',
  SERVICE_TOKEN: 'dGhpcyBpcyBhIHRva2Vu+/==',
  JWT: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc123def',
  DB_PASSWORD: 'correct horse: battery staple',
  GITHUB_TOKEN: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  HEX_KEY: '9f86d081884c7d659a2feaa0c55ad015',
};
const values = Object.values(SECRETS);
const redact = (text: string): string => redactSecrets(text, values);

function echoTool(produce: () => unknown) {
  return defineTool({
    pack: 't',
    name: 'echo',
    description: 'echo',
    parameters: z.object({}),
    effect: 'reads',
    execute: () => produce(),
  });
}

describe('redaction of tool outputs and errors, in the interceptor', () => {
  const interceptor = new ToolInterceptor({ redact, config: { enable_metadata: false } });

  it.each(Object.entries(SECRETS))('a %s in a string result never comes back', async (_name, value) => {
    const out = await interceptor.execute(
      echoTool(() => `the server said: ${value} (end)`),
      {},
      makeCtx(),
    );
    expect(out).toBe('the server said: [redacted] (end)');
  });

  it('finds secrets anywhere in an object result, including URL-encoded ones', async () => {
    const result = {
      rows: [{ note: `token=${SECRETS.SERVICE_TOKEN}` }],
      url: `https://c.example/?p=${encodeURIComponent(SECRETS.DB_PASSWORD)}`,
      nested: { deep: [SECRETS.JWT] },
    };
    const out = (await interceptor.execute(
      echoTool(() => result),
      {},
      makeCtx(),
    )) as typeof result;
    expect(JSON.stringify(out)).not.toMatch(/gsk_|dGhpcyBp|eyJhbGci|correct|horse/);
    expect(out.rows[0]!.note).toBe('token=[redacted]');
    expect(out.url).toBe('https://c.example/?p=[redacted]');
    expect(out.nested.deep[0]).toBe('[redacted]');
    expect(result.rows[0]!.note).toContain(SECRETS.SERVICE_TOKEN); // the tool's own object is untouched
  });

  it('cleans the message of a thrown error and keeps its type', async () => {
    const tool = echoTool(() => {
      throw new TypeError(`HTTP error (401): bad credentials ${SECRETS.GITHUB_TOKEN}`);
    });
    const err = await interceptor.execute(tool, {}, makeCtx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe('HTTP error (401): bad credentials [redacted]');
  });

  it('passes image data through untouched (a screenshot is bytes, not text) and ignores values under 4 characters', async () => {
    const image = { type: 'input_image', image_url: `data:image/png;base64,iVBOR${SECRETS.HEX_KEY}` };
    const out = await interceptor.execute(
      echoTool(() => [image]),
      {},
      makeCtx(),
    );
    expect(out).toEqual([image]);
    expect(redactSecrets('a b c', ['b'])).toBe('a b c');
  });
});

describe('llm.transform through the interceptor: a 401 body quoting a non-sk key', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(() => api.close());

  it('returns the authentication error, never the key (it used to come back verbatim, then redacted)', async () => {
    const key = SECRETS.GROQ_API_KEY;
    api.scriptChat([
      { http: { status: 401, body: { error: { message: `Invalid API Key: ${key}`, type: 'invalid_request_error' } } } },
    ]);
    const [tool] = createLlmTools();
    const ctx = makeCtx({
      config: { ...DEFAULT_CONFIG, transform: { ...DEFAULT_CONFIG.transform, base_url: api.url, model: 'm' } },
      getSecret: (name: string) => (name === 'OPENAI_API_KEY' ? key : undefined),
    });
    const out = await new ToolInterceptor({ redact: (t) => redactSecrets(t, [key]) }).execute(
      tool!,
      { input: 'a', prompt: 'p' },
      ctx,
    );
    // The spec's words (docs/specs/000-llm-transform.md, "Sensitive error sanitization"), not the server's (#45).
    expect(out).toBe('Error: Authentication error - check OPENAI_API_KEY in secrets.yaml');
  });
});

// Error classification, redaction and retry timing, without a server.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError, type ErrorContext } from '../../src/models/errors.ts';
import { backoffMs, retryAfterMs } from '../../src/models/retry.ts';
import { sleep } from '../../src/shared/sleep.ts';

const KEY = 'sk-proj-SECRETSECRETSECRET1234';
const ctx: ErrorContext = {
  model: 'gpt-5-mini',
  baseURL: 'https://api.example.test/v1',
  timeoutMs: 30_000,
  secrets: [KEY],
};
const http = (status: number, body?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  APIError.generate(status, body, undefined, new Headers(headers));

describe('classifyError', () => {
  it('401 and 403 are auth errors that point at the key', () => {
    expect(classifyError(http(401, { error: { message: `Incorrect API key provided: ${KEY}` } }), ctx)).toEqual({
      kind: 'auth',
      status: 401,
      // The server's own words, with the key it echoed redacted.
      message:
        'The API key was rejected (401). Check OPENAI_API_KEY in Settings. The server said: Incorrect API key provided: [redacted]',
      retryable: false,
    });
    expect(classifyError(http(403, { error: { message: 'Project lacks access' } }), ctx)).toMatchObject({
      kind: 'auth',
      status: 403,
    });
  });

  it('404 names the model and the base URL', () => {
    const info = classifyError(http(404, { error: { message: 'nope', code: 'model_not_found' } }), ctx);
    expect(info.kind).toBe('model_not_found');
    expect(info.message).toContain('"gpt-5-mini"');
    expect(info.message).toContain('https://api.example.test/v1');
  });

  it('a 404 that is not about the model says what the server said, not "model not found" (#30)', () => {
    // What OpenAI-compatible servers without /responses answer (the text OpenAI itself uses for unknown paths).
    const body = {
      error: {
        message: 'Unknown request URL: POST /v1/responses. Please check the URL for typos.',
        type: 'invalid_request_error',
        code: 'unknown_url',
      },
    };
    const info = classifyError(http(404, body), ctx);
    expect(info).toEqual({
      kind: 'not_found',
      status: 404,
      code: 'unknown_url',
      message:
        'https://api.example.test/v1 answered 404: Unknown request URL: POST /v1/responses. Please check the URL for typos. Check agent.base_url: it must be a server that speaks the Responses API (POST /responses).',
      retryable: false,
    });
    expect(info.message).not.toContain('not found');
    // A bare 404 (no body) says so, and still does not blame the model.
    expect(classifyError(http(404), ctx)).toMatchObject({ kind: 'not_found' });
    expect(classifyError(http(404), ctx).message).toContain('answered 404 with no message');
    // The model's own 404 keeps the server's words too.
    const model = classifyError(
      http(404, {
        error: {
          message: 'The model `gpt-x` does not exist or you do not have access to it.',
          code: 'model_not_found',
        },
      }),
      ctx,
    );
    expect(model.message).toBe(
      'Model "gpt-5-mini" was not found at https://api.example.test/v1 (404). Check agent.model in Settings. The server said: The model `gpt-x` does not exist or you do not have access to it.',
    );
  });

  it('429 is a retryable rate limit, except insufficient quota', () => {
    expect(
      classifyError(http(429, { error: { message: 'Slow down', code: 'rate_limit_exceeded' } }), ctx),
    ).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError(http(429, { error: { message: 'Quota', code: 'insufficient_quota' } }), ctx)).toMatchObject({
      kind: 'rate_limit',
      retryable: false,
    });
  });

  it('5xx is a retryable server error; 400 carries the server message', () => {
    expect(classifyError(http(503), ctx)).toMatchObject({ kind: 'server', status: 503, retryable: true });
    const bad = classifyError(http(400, { error: { message: "Invalid value for 'input'.", param: 'input' } }), ctx);
    expect(bad).toMatchObject({ kind: 'bad_request', retryable: false });
    expect(bad.message).toContain("Invalid value for 'input'.");
  });

  it('connection failures, timeouts and aborts', () => {
    const refused = new APIConnectionError({
      message: 'Connection error.',
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(classifyError(refused, ctx)).toMatchObject({ kind: 'network', retryable: true });
    expect(classifyError(refused, ctx).message).toContain('ECONNREFUSED');
    expect(classifyError(new APIConnectionTimeoutError(), ctx)).toMatchObject({ kind: 'timeout', retryable: true });
    expect(classifyError(new APIConnectionTimeoutError(), ctx).message).toContain('30 s');
    expect(classifyError(new APIUserAbortError(), ctx)).toMatchObject({ kind: 'aborted', retryable: false });
    expect(classifyError(new DOMException('x', 'AbortError'), ctx)).toMatchObject({ kind: 'aborted' });
  });

  it('never lets the key through, whatever the server echoes', () => {
    for (const status of [400, 403, 429, 500]) {
      const info = classifyError(http(status, { error: { message: `bad key ${KEY} and sk-otherkey123456` } }), ctx);
      expect(info.message).not.toContain(KEY);
      expect(info.message).not.toContain('sk-otherkey123456');
    }
    expect(classifyError(new Error(`failed with ${KEY}`), ctx).message).not.toContain(KEY);
  });
});

describe('retry timing', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.2' }))).toBe(200);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(0, { random: () => 0 })).toBe(500);
    expect(backoffMs(2, { random: () => 0 })).toBe(2000);
    expect(backoffMs(2, { random: () => 1 })).toBe(1500);
    expect(backoffMs(20, { random: () => 0 })).toBe(8000);
  });

  it('sleep is cut short by an abort', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

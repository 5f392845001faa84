/**
 * docs/specs/000-llm-transform.md (`llm.transform`): each scenario, named after it, against the fake API's Chat
 * Completions endpoint.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../support/fake-api/index.ts';
import {
  AUTH_ERROR,
  ERRORS,
  SYSTEM_PROMPT,
  TEMPERATURE,
  transform,
  type TransformDeps,
} from '../../src/tools/packs/llm/transform.ts';
import { createLlmTools } from '../../src/tools/packs/llm/index.ts';
import { Logger } from '../../src/shared/log.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { runProgram } from '../../src/command/index.ts';
import { toolContext } from '../support/toolContext.ts';

let api: FakeApi;
let logger: Logger;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  logger = new Logger({ console: false });
});

const KEY = 'sk-test-transform-123456';
function deps(over: Partial<TransformDeps['config']> = {}, apiKey: string | null = KEY): TransformDeps {
  return {
    config: { timeout: 30, base_url: api.url, model: 'gpt-transform', ...over },
    apiKey: apiKey ?? undefined,
    logger,
  };
}
type ChatBody = {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  response_format?: unknown;
};
const lastBody = () => api.chatRequests().at(-1)?.body as unknown as ChatBody;

describe('Requirement: Input Validation', () => {
  it('Scenario: Empty prompt — returns the error and makes no request', async () => {
    expect(await transform({ input: 'data', prompt: '   ' }, deps())).toBe(
      'Error: prompt is required and cannot be empty',
    );
    expect(api.requests).toHaveLength(0);
  });
  it('Scenario: Empty input — returns the error and makes no request', async () => {
    expect(await transform({ input: ' \n ', prompt: 'x' }, deps())).toBe(
      'Error: input is required and cannot be empty',
    );
    expect(await transform({ input: null, prompt: 'x' }, deps())).toBe(ERRORS.input);
    expect(api.requests).toHaveLength(0);
  });
  it('checks in the reference order: prompt, input, API key, base URL, model', async () => {
    const none = { input: '', prompt: '' };
    expect(await transform(none, deps({ base_url: undefined, model: undefined }, null))).toBe(ERRORS.prompt);
    expect(await transform({ ...none, prompt: 'p' }, deps({ base_url: undefined, model: undefined }, null))).toBe(
      ERRORS.input,
    );
    const ok = { input: 'i', prompt: 'p' };
    expect(await transform(ok, deps({ base_url: undefined, model: undefined }, null))).toBe(ERRORS.apiKey);
    expect(await transform(ok, deps({ base_url: undefined, model: undefined }))).toBe(ERRORS.baseUrl);
    expect(await transform(ok, deps({ model: undefined }))).toBe(ERRORS.model);
    expect(api.requests).toHaveLength(0);
  });
});

describe('Requirement: Data Transformation', () => {
  it('Scenario: Extract structured data', async () => {
    api.scriptChat([{ match: 'Extract the price', content: '1999.5' }]);
    const out = await transform(
      { input: 'Gold is at $1,999.50 today', prompt: 'Extract the price as a number' },
      deps(),
    );
    expect(out).toBe('1999.5');
  });
  it('Scenario: Format conversion', async () => {
    api.scriptChat([{ match: 'YAML', content: 'name: gold\nvalue: 1999.5' }]);
    expect(await transform({ input: 'gold 1999.5', prompt: 'Return as YAML with fields: name, value' }, deps())).toBe(
      'name: gold\nvalue: 1999.5',
    );
  });
  it('Scenario: Summarization', async () => {
    api.scriptChat([{ match: 'bullet', content: '- a\n- b\n- c' }]);
    expect(await transform({ input: 'long text '.repeat(200), prompt: 'Summarize in 3 bullet points' }, deps())).toBe(
      '- a\n- b\n- c',
    );
  });
  it('Scenario: Non-string input — converted to text before processing', async () => {
    await transform({ input: { price: 5, tags: ['a'] }, prompt: 'Extract the price' }, deps());
    const user = lastBody().messages[1]!.content;
    expect(user).toBe(
      'Input data:\n{\n  "price": 5,\n  "tags": [\n    "a"\n  ]\n}\n\nInstructions:\nExtract the price',
    );
    await transform({ input: 42, prompt: 'double it' }, deps());
    expect(lastBody().messages[1]!.content).toContain('Input data:\n42\n');
  });
});

describe('Requirement: JSON Mode', () => {
  it('Scenario: JSON mode enabled — response_format json_object and valid JSON back', async () => {
    const out = await transform({ input: 'a=1', prompt: 'as JSON', json_mode: true }, deps());
    expect(lastBody().response_format).toEqual({ type: 'json_object' });
    expect(() => JSON.parse(out)).not.toThrow();
  });
  it('Scenario: JSON mode disabled — no response_format', async () => {
    await transform({ input: 'a=1', prompt: 'as text' }, deps());
    expect(lastBody()).not.toHaveProperty('response_format');
    await transform({ input: 'a=1', prompt: 'as text', json_mode: false }, deps());
    expect(lastBody()).not.toHaveProperty('response_format');
  });
  it('JSON mode with a reply that is not JSON gives a clear error', async () => {
    api.scriptChat([{ content: 'not json at all' }]);
    expect(await transform({ input: 'a', prompt: 'p', json_mode: true }, deps())).toMatch(
      /^Error: the model did not return valid JSON/,
    );
  });
});

describe('Requirement: API Configuration', () => {
  it('Scenario: Secrets configuration — uses OPENAI_API_KEY', async () => {
    await transform({ input: 'a', prompt: 'p' }, deps());
    expect(api.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
  it('Scenario: Missing API key', async () => {
    expect(await transform({ input: 'a', prompt: 'p' }, deps({}, null))).toBe(
      'Error: Transform tool not available. Set OPENAI_API_KEY in secrets.yaml.',
    );
  });
  it('Scenario: Missing base URL', async () => {
    expect(await transform({ input: 'a', prompt: 'p' }, deps({ base_url: undefined }))).toBe(
      'Error: Transform tool not available. Set transform.base_url in config.',
    );
  });
  it('Scenario: Timeout configuration — the configured timeout applies (default 30 s)', async () => {
    expect(DEFAULT_CONFIG.transform.timeout).toBe(30);
    // A server slower than the configured timeout: the call ends with an error, not a hang.
    const slow: typeof fetch = (input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const started = Date.now();
    const out = await transform({ input: 'a', prompt: 'p' }, { ...deps({ timeout: 0.3 }), fetch: slow });
    expect(out).toMatch(/^Error: .*time/i);
    expect(Date.now() - started).toBeLessThan(5000);
  });
  it('Scenario: Timeout configuration — the timeout is the time the user waits, retries included', async () => {
    // A server that accepts the request and never answers: the call must end within about one timeout, not two.
    let attempts = 0;
    const hung: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        attempts++;
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const started = performance.now();
    const out = await transform({ input: 'a', prompt: 'p' }, { ...deps({ timeout: 1 }), fetch: hung });
    const elapsed = performance.now() - started;
    expect(out).toBe('Error: the request timed out after 1 s (transform.timeout)');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1300);
    expect(attempts).toBeGreaterThanOrEqual(1);
  });
  it('records each request in the statistics through onUsage (tokens and latency)', async () => {
    const seen: { model: string; inputTokens: number; outputTokens: number }[] = [];
    const [tool] = createLlmTools({ onUsage: (u) => seen.push(u) });
    const ctx = toolContext({
      config: {
        ...DEFAULT_CONFIG,
        transform: { ...DEFAULT_CONFIG.transform, base_url: api.url, model: 'gpt-transform' },
      },
      getSecret: () => KEY,
      logger,
    });
    await new ToolInterceptor().execute(tool!, { input: 'a', prompt: 'p' }, ctx);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.model).toBe('gpt-transform');
    expect(seen[0]!.inputTokens).toBeGreaterThan(0);
  });
  it('Scenario: Max tokens configuration — sent only when set', async () => {
    await transform({ input: 'a', prompt: 'p' }, deps());
    expect(lastBody()).not.toHaveProperty('max_tokens');
    await transform({ input: 'a', prompt: 'p' }, deps({ max_tokens: 77 }));
    expect(lastBody().max_tokens).toBe(77);
  });
});

describe('Requirement: Model Selection', () => {
  it('Scenario: Default model — transform.model from config', async () => {
    await transform({ input: 'a', prompt: 'p' }, deps());
    expect(lastBody().model).toBe('gpt-transform');
  });
  it('Scenario: Model override', async () => {
    await transform({ input: 'a', prompt: 'p', model: 'openai/gpt-4o' }, deps());
    expect(lastBody().model).toBe('openai/gpt-4o');
  });
  it('Scenario: Missing model', async () => {
    expect(await transform({ input: 'a', prompt: 'p' }, deps({ model: undefined }))).toBe(
      'Error: Transform tool not available. Set transform.model in config.',
    );
  });
});

describe('Requirement: System Prompt', () => {
  it('Scenario: System message — precise output, no explanations; temperature 0.1', async () => {
    await transform({ input: 'a', prompt: 'p' }, deps());
    const body = lastBody();
    expect(body.messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(SYSTEM_PROMPT).toMatch(/Output ONLY the requested format, no explanations/);
    expect(body.messages[0]!.content).toBe(
      "You are a data transformation assistant. Follow the user's instructions precisely. Output ONLY the requested format, no explanations.",
    );
    expect(body.temperature).toBe(0.1);
    expect(body.temperature).toBe(TEMPERATURE);
    expect(body.messages[1]!.content).toBe('Input data:\na\n\nInstructions:\np');
  });
});

describe('Requirement: Error Handling', () => {
  it('Scenario: API error — returned as "Error: <message>", never thrown', async () => {
    api.scriptChat([
      { http: { status: 400, body: { error: { message: 'context too long', type: 'invalid_request_error' } } } },
    ]);
    await expect(transform({ input: 'a', prompt: 'p' }, deps())).resolves.toMatch(/^Error: .*context too long/);
  });
  it('Scenario: Sensitive error sanitization — keys never exposed', async () => {
    api.scriptChat([
      {
        http: {
          status: 401,
          body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } },
        },
      },
    ]);
    const out = await transform({ input: 'a', prompt: 'p' }, deps());
    expect(out).toBe(`Error: ${AUTH_ERROR}`);
    // The spec's text, as a literal: a typo in the constant must fail here.
    expect(out).toBe('Error: Authentication error - check OPENAI_API_KEY in secrets.yaml');
    expect(out).not.toContain(KEY);
    api.scriptChat([{ http: { status: 400, body: { error: { message: 'bad api_key parameter', type: 'x' } } } }]);
    expect(await transform({ input: 'a', prompt: 'p' }, deps())).toBe(`Error: ${AUTH_ERROR}`);
  });
  it('#45: a rejected key that does not start with sk- gets the same words, never the key', async () => {
    const key = 'gq_live_0123456789abcdef';
    api.scriptChat([{ http: { status: 401, body: { error: { message: `Invalid API Key: ${key}`, type: 'x' } } } }]);
    const out = await transform({ input: 'a', prompt: 'p' }, deps({}, key));
    expect(out).toBe('Error: Authentication error - check OPENAI_API_KEY in secrets.yaml');
    // A 401 whose text names no key at all, and a 400 that quotes the key: the same words.
    api.scriptChat([{ http: { status: 401, body: { error: { message: 'Unauthorized', type: 'x' } } } }]);
    expect(await transform({ input: 'a', prompt: 'p' }, deps({}, key))).toBe(
      'Error: Authentication error - check OPENAI_API_KEY in secrets.yaml',
    );
    api.scriptChat([{ http: { status: 400, body: { error: { message: `unknown token ${key}`, type: 'x' } } } }]);
    expect(await transform({ input: 'a', prompt: 'p' }, deps({}, key))).toBe(
      'Error: Authentication error - check OPENAI_API_KEY in secrets.yaml',
    );
    expect(JSON.stringify(logger.entries())).not.toContain(key);
  });
});

describe('Requirement: Composability', () => {
  it('Scenario: Chain with search — a nested call feeds transform through the interceptor', async () => {
    api.scriptChat([{ match: 'gold price', content: '2400' }]);
    const interceptor = new ToolInterceptor({ logger });
    const search = { pack: 'web', name: 'search', description: 'fake search', effect: 'reads' } as const;
    const calls: string[] = [];
    const value = await runProgram('llm.transform(input=web.search(query="gold price"), prompt="Extract price")', {
      call: async (name, args) => {
        calls.push(name);
        if (name === 'web.search') return `Results for ${String(args.query)}: gold price is $2,400`;
        const ctx = toolContext({
          config: { ...DEFAULT_CONFIG, transform: deps().config },
          getSecret: () => KEY,
          logger,
        });
        return interceptor.execute(createLlmTools()[0]!, args, ctx);
      },
    });
    expect(calls).toEqual(['web.search', 'llm.transform']);
    expect(value.value).toBe('2400');
    expect(lastBody().messages[1]!.content).toContain('gold price is $2,400');
    void search;
  });
  it('Scenario: Keyword-only arguments — positional arguments raise TypeError', async () => {
    const positional = transform as unknown as (...a: unknown[]) => Promise<string>;
    await expect(positional('data', 'prompt')).rejects.toThrow(TypeError);
    await expect(positional({ input: 'a', prompt: 'p' }, deps(), 'extra')).rejects.toThrow(TypeError);
    expect(api.requests).toHaveLength(0);
  });
});

describe('Requirement: Transform Logging', () => {
  const span = () => logger.entries().find((e) => e.span === 'llm.transform');
  it('Scenario: Transform logging — lengths, model, json mode', async () => {
    api.scriptChat([{ content: 'OUT' }]);
    await transform({ input: 'abcd', prompt: 'pp', json_mode: false }, deps());
    expect(span()?.fields).toMatchObject({
      inputLen: 4,
      promptLen: 2,
      outputLen: 3,
      model: 'gpt-transform',
      jsonMode: false,
    });
  });
  it('Scenario: Token usage logging', async () => {
    api.scriptChat([{ content: 'OUT', usage: { prompt_tokens: 11, completion_tokens: 3 } }]);
    await transform({ input: 'abcd', prompt: 'pp' }, deps());
    expect(span()?.fields).toMatchObject({ inputTokens: 11, outputTokens: 3, totalTokens: 14 });
  });
  it('#45: a failed transform is logged at level error, so the Logs view\'s "error and up" shows it', async () => {
    api.scriptChat([
      { http: { status: 400, body: { error: { message: 'context too long', type: 'invalid_request_error' } } } },
    ]);
    await transform({ input: 'a', prompt: 'p' }, deps());
    expect(span()).toMatchObject({
      level: 'error',
      fields: expect.objectContaining({ error: expect.stringMatching(/context too long/) }),
    });
    expect(logger.entries({ level: 'error' }).map((e) => e.span)).toEqual(['llm.transform']);
  });
  it('#45: json_mode output that is not JSON is logged at level error', async () => {
    api.scriptChat([{ content: 'not json' }]);
    expect(await transform({ input: 'a', prompt: 'p', json_mode: true }, deps())).toBe(
      'Error: the model did not return valid JSON: not json',
    );
    expect(span()?.level).toBe('error');
  });
  it('Scenario: Error logging — the sanitized error', async () => {
    api.scriptChat([{ http: { status: 401, body: { error: { message: `bad key ${KEY}`, type: 'x' } } } }]);
    await transform({ input: 'a', prompt: 'p' }, deps());
    expect(span()?.fields).toMatchObject({ error: AUTH_ERROR });
    expect(JSON.stringify(logger.entries())).not.toContain(KEY);
  });
});

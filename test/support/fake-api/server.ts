/**
 * A local fake of the OpenAI Responses API for tests and manual runs: `POST /v1/responses` streamed exactly as the
 * real API frames it (`event: <type>\ndata: <json>\n\n`), answering from a script of turns (turns.ts), with faults
 * on demand. It logs every request (and validates its body against the OpenAPI spec when the corpora are present),
 * answers CORS preflights permissively (the extension fetches it from a chrome-extension:// origin) and accepts
 * any bearer key unless an expected key is configured.
 *
 * Routes live in `routes` below. `/v1/chat/completions` is the extension point for the Chat Completions API
 * (another issue): it answers 501 until a handler is added there.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultTurn } from './defaultScript.ts';
import { ids } from './ids.ts';
import { answerChat, ChatTurnQueue, type ChatTurn } from './chatCompletions.ts';
import { asResponsesView, buildChatChunks, chatFrame, isAgentChat } from './chatAgent.ts';
import { checkReplay } from './replayChecks.ts';
import { loadRequestValidator } from './requestSchema.ts';
import { buildResponseEvents, rotateItemIds, type WireEvent } from './responseEvents.ts';
import {
  compactResponse,
  contextLengthError,
  PromptCache,
  promptText,
  promptTokens,
  type ContextOptions,
} from './contextModel.ts';
import {
  TurnQueue,
  lastInputText,
  openAiError,
  type FakeRequestBody,
  type RecordedRequest,
  type Turn,
} from './turns.ts';

export interface FakeApiOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** The initial script. */
  turns?: Turn[];
  /** When no turn matches: the friendly default script ('default', the default) or a 500 naming the problem. */
  fallback?: 'default' | 'error';
  /** Require `Authorization: Bearer <key>`; anything else gets a 401 (whose message echoes the key it was sent,
   *  as some servers do, so tests can prove the client redacts it). */
  expectedKey?: string;
  /** Models that exist; others get a 404 `model_not_found`. Default: every model exists. */
  knownModels?: string[];
  /** Refuse inputs the real API refuses (orphan tool outputs, unreplayable reasoning). Default true. */
  replayChecks?: boolean;
  /** Validate request bodies against the OpenAPI spec when the corpora are present. Default true. */
  validate?: boolean;
  /** Receives one line per request (the CLI prints them). */
  log?: (line: string) => void;
  /** false: `POST /v1/responses` answers 404, as servers that speak only Chat Completions do. Default true. */
  responses?: boolean;
}

export interface FakeApi {
  /** Base URL for clients, ending in `/v1`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Every request except CORS preflights and `/__fake/` control calls, oldest first. */
  readonly requests: RecordedRequest[];
  /** How many CORS preflights were answered. */
  readonly preflights: number;
  /** 'on: <path>' or why request validation is off. */
  readonly schemaValidation: string;
  /** Scripted turns not yet used up. */
  readonly pending: number;
  /** Replace the pending turns. */
  script(turns: Turn[]): void;
  /** Append turns after the pending ones. */
  enqueue(...turns: Turn[]): void;
  setExpectedKey(key: string | undefined): void;
  /** Forget requests and pending turns. */
  reset(): void;
  /** Replace the pending Chat Completions turns (see chatCompletions.ts). */
  scriptChat(turns: ChatTurn[]): void;
  /** The `POST /v1/chat/completions` requests only. */
  chatRequests(): RecordedRequest[];
  /** The `POST /v1/responses` requests only. */
  responsesRequests(): RecordedRequest[];
  /** The agent's Chat Completions requests only (those offering tools or carrying tool results). */
  agentChatRequests(): RecordedRequest[];
  /** Switch the Responses API off (404, as a Chat-Completions-only server) or back on. */
  setResponsesAvailable(available: boolean): void;
  /**
   * Play a model with a context window, a prompt cache and optionally server-side compaction (contextModel.ts);
   * undefined switches it off again (so does `reset`).
   */
  setContext(options: ContextOptions | undefined): void;
  close(): Promise<void>;
}

type Handler = (ctx: RequestContext) => Promise<void> | void;

interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id, x-should-retry, openai-processing-ms',
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function sendJson(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  ctx.record.status = status;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...CORS_HEADERS,
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'x-request-id': ids.request(),
    ...headers,
  });
  ctx.res.end(text);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function frame(event: WireEvent, malformed: boolean): string {
  const json = JSON.stringify(event);
  // A truncated object: what a proxy that splits a line mid-way would deliver.
  const data = malformed ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : json;
  return `event: ${event.type}\ndata: ${data}\n\n`;
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const queue = new TurnQueue();
  queue.append(options.turns ?? []);
  const requests: RecordedRequest[] = [];
  let preflights = 0;
  let expectedKey = options.expectedKey;
  const chatQueue = new ChatTurnQueue();
  let closed = false;
  let responsesAvailable = options.responses !== false;
  let contextOptions: ContextOptions | undefined;
  const promptCache = new PromptCache();
  const validation =
    options.validate === false ? { validator: undefined, note: 'off: disabled by option' } : loadRequestValidator();
  const log = options.log ?? (() => undefined);

  /**
   * How long a cut waits for the client to read what was sent. 100 ms was too short once, at a load of 20 on two
   * cores: the worker had not read the text deltas, the reset dropped them, and the cut looked like one before any
   * output (which Otto retries by itself), so the reply completed with no banner to see.
   */
  const CUT_GRACE_MS = 1_000;
  const writeStream = async (
    ctx: RequestContext,
    turn: Turn,
    frames: Array<(malformed: boolean) => string>,
  ): Promise<void> => {
    const { res } = ctx;
    ctx.record.status = 200;
    res.writeHead(200, {
      ...CORS_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': ids.request(),
      'openai-processing-ms': '42',
    });
    res.flushHeaders();
    for (const [index, render] of frames.entries()) {
      if (turn.delayMs) await wait(turn.delayMs);
      if (closed || res.destroyed || res.writableEnded) return;
      if (turn.cutAfter !== undefined && index >= turn.cutAfter) {
        // Let the client read what was sent first: a reset arriving with unread data makes the receiver drop it, and
        // the fault would look like a cut before the first event (which clients rightly retry).
        await wait(CUT_GRACE_MS);
        res.socket?.destroy();
        return;
      }
      if (turn.endAfter !== undefined && index >= turn.endAfter) break;
      // Wait for each event to reach the socket, so a cut after N events really delivered N.
      await new Promise<void>((resolve) => res.write(render(index === turn.malformedAt), () => resolve()));
    }
    res.end();
  };

  const handleResponses: Handler = async (ctx) => {
    const { record } = ctx;
    const body = record.body;
    if (!body) {
      sendJson(
        ctx,
        400,
        openAiError('We could not parse the JSON body of your request.', 'invalid_request_error', null),
      );
      return;
    }
    if (options.knownModels && !options.knownModels.includes(String(body.model))) {
      sendJson(
        ctx,
        404,
        openAiError(
          `The model \`${String(body.model)}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        ),
      );
      return;
    }
    let counted: { input_tokens: number; cached_tokens: number } | undefined;
    if (contextOptions) {
      const tokens = promptTokens(body);
      if (contextOptions.window !== undefined && tokens > contextOptions.window) {
        record.turn = 'context_length_exceeded';
        sendJson(ctx, 400, contextLengthError(tokens, contextOptions.window));
        return;
      }
      counted = { input_tokens: tokens, cached_tokens: promptCache.cachedTokens(promptText(body).text) };
    }
    const taken = queue.take(record);
    let turn: Turn;
    if (taken) {
      record.turn = taken.name;
      turn = taken.turn;
    } else if (options.fallback === 'error') {
      record.turn = 'fallback';
      sendJson(
        ctx,
        500,
        openAiError(
          `fake-api: no scripted turn matched this request (last input: ${JSON.stringify(record.lastInput.slice(0, 80))}).`,
          'server_error',
          null,
        ),
      );
      return;
    } else {
      turn = defaultTurn(record);
      record.turn = 'fallback';
    }
    if (turn.respond) turn = { ...turn, ...turn.respond(record) };
    if (counted) turn = { ...turn, usage: { ...counted, ...turn.usage } };
    if (turn.headersDelayMs) await wait(turn.headersDelayMs);
    if (closed || ctx.res.destroyed) return;
    if (turn.http) {
      const { status, headers = {}, body: errorBody } = turn.http;
      sendJson(
        ctx,
        status,
        errorBody ??
          openAiError(
            `fake-api: scripted HTTP ${status}`,
            status >= 500 ? 'server_error' : 'invalid_request_error',
            null,
          ),
        headers,
      );
      return;
    }
    if (options.replayChecks !== false) {
      const problem = checkReplay(body);
      if (problem) {
        sendJson(ctx, problem.status, problem.body);
        return;
      }
    }
    const built = buildResponseEvents(turn, body);
    const events = turn.rotateIds ? rotateItemIds(built.events) : built.events;
    if (body.stream === true && !turn.nonStream)
      await writeStream(
        ctx,
        turn,
        events.map((event) => (malformed: boolean) => frame(event, malformed)),
      );
    else sendJson(ctx, 200, built.response);
  };

  /** The agent over Chat Completions: the same scripted turns, as chunks (chatAgent.ts). */
  const handleAgentChat: Handler = async (ctx) => {
    const { record } = ctx;
    const body = record.body ?? {};
    const view = asResponsesView(body);
    const taken = queue.take(record);
    let turn: Turn;
    if (taken) {
      record.turn = taken.name;
      turn = taken.turn;
    } else if (options.fallback === 'error') {
      record.turn = 'fallback';
      sendJson(ctx, 500, openAiError('fake-api: no scripted turn matched this request.', 'server_error', null));
      return;
    } else {
      turn = defaultTurn({ ...record, body: view });
      record.turn = 'fallback';
    }
    if (turn.headersDelayMs) await wait(turn.headersDelayMs);
    if (closed || ctx.res.destroyed) return;
    if (turn.http) {
      const { status, headers = {}, body: errorBody } = turn.http;
      sendJson(
        ctx,
        status,
        errorBody ??
          openAiError(
            `fake-api: scripted HTTP ${status}`,
            status >= 500 ? 'server_error' : 'invalid_request_error',
            null,
          ),
        headers,
      );
      return;
    }
    const chunks = buildChatChunks(turn, body);
    await writeStream(
      ctx,
      turn,
      chunks.map((chunk) => (malformed: boolean) => chatFrame(chunk, malformed)),
    );
  };

  const routes: Record<string, Handler> = {
    // Server-side compaction, only where the test says this server has it (otherwise 404, like most servers).
    'POST /v1/responses/compact': (ctx) => {
      if (!contextOptions?.compaction || !ctx.record.body) {
        sendJson(ctx, 404, openAiError('Invalid URL (POST /v1/responses/compact)', 'invalid_request_error', null));
        return;
      }
      ctx.record.status = 200;
      sendJson(ctx, 200, compactResponse(ctx.record.body));
    },
    'POST /v1/responses': (ctx) => {
      if (responsesAvailable) return handleResponses(ctx);
      // What llama.cpp's server answers for an endpoint it does not have.
      sendJson(ctx, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
    },
    'GET /v1/models': (ctx) =>
      sendJson(ctx, 200, {
        object: 'list',
        data: (options.knownModels ?? ['gpt-fake']).map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'fake-api',
        })),
      }),
    // The Chat Completions API (llm.transform): scripted with `scriptChat`, else a deterministic default.
    'POST /v1/chat/completions': (ctx) => {
      if (isAgentChat(ctx.record.body)) return handleAgentChat(ctx);
      const body = (ctx.record.body ?? {}) as Parameters<typeof answerChat>[1];
      const userText = body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      ctx.record.status = answerChat(ctx.res, body, chatQueue.take(userText), CORS_HEADERS);
    },
  };

  /** Control over HTTP, for a fake started in another process (`npm run fake-api`): string matchers only. */
  const control = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { ...CORS_HEADERS, 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && path === '/__fake/script') {
      const parsed = JSON.parse((await readBody(req)) || '{}') as { turns?: Turn[]; append?: boolean };
      if (parsed.append) queue.append(parsed.turns ?? []);
      else queue.replace(parsed.turns ?? []);
      reply(200, { pending: queue.pending });
    } else if (req.method === 'GET' && path === '/__fake/requests') {
      reply(200, requests);
    } else if (req.method === 'POST' && path === '/__fake/reset') {
      requests.length = 0;
      queue.replace([]);
      reply(200, { ok: true });
    } else {
      reply(404, { error: 'unknown control path' });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'OPTIONS') {
      preflights++;
      res.writeHead(204, {
        ...CORS_HEADERS,
        'access-control-allow-origin': req.headers.origin ?? '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-allow-private-network': 'true',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (path.startsWith('/__fake/')) {
      await control(req, res, path);
      return;
    }
    const rawBody = await readBody(req);
    let body: FakeRequestBody | undefined;
    try {
      const parsed: unknown = rawBody ? JSON.parse(rawBody) : undefined;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as FakeRequestBody;
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      receivedAt: Date.now(),
      path,
      headers: headerMap(req),
      body,
      rawBody,
      lastInput: lastInputText(body),
    };
    requests.push(record);
    const ctx: RequestContext = { req, res, record };
    const key = `${record.method} ${path}`;
    if (key === 'POST /v1/responses' && validation.validator)
      record.schemaErrors = body ? validation.validator.validate(body) : ['body is not a JSON object'];

    if (expectedKey !== undefined && path.startsWith('/v1/')) {
      const sent = (record.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (sent !== expectedKey) {
        sendJson(
          ctx,
          401,
          openAiError(
            `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            'invalid_request_error',
            'invalid_api_key',
          ),
        );
        log(`${key} → 401 (wrong key)`);
        return;
      }
    }
    const route = routes[key];
    if (!route) {
      sendJson(ctx, 404, openAiError(`Invalid URL (${key})`, 'invalid_request_error', null));
    } else {
      await route(ctx);
    }
    log(
      `${key} → ${record.status ?? '?'}${record.turn ? ` [${record.turn}]` : ''}${record.schemaErrors?.length ? ` schema errors: ${record.schemaErrors.length}` : ''}`,
    );
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { ...CORS_HEADERS, 'content-type': 'application/json' });
        res.end(JSON.stringify(openAiError(`fake-api crashed: ${String(err)}`, 'server_error', null)));
      } else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests,
    get preflights() {
      return preflights;
    },
    schemaValidation: validation.note,
    get pending() {
      return queue.pending;
    },
    script: (turns) => queue.replace(turns),
    enqueue: (...turns) => queue.append(turns),
    setExpectedKey: (key) => {
      expectedKey = key;
    },
    reset: () => {
      requests.length = 0;
      queue.replace([]);
      chatQueue.replace([]);
      responsesAvailable = options.responses !== false;
      contextOptions = undefined;
      promptCache.reset();
    },
    scriptChat: (turns) => chatQueue.replace(turns),
    agentChatRequests: () =>
      requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions' && isAgentChat(r.body)),
    setResponsesAvailable: (available) => {
      responsesAvailable = available;
    },
    setContext: (opts) => {
      contextOptions = opts;
      promptCache.reset();
    },
    chatRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions'),
    responsesRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/responses'),
    close: async () => {
      closed = true;
      // Open keep-alive and streaming sockets would keep close() waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Everything that can go wrong talking to the model, turned into a ModelErrorInfo the user can act on.
 * Messages say what to check; the API key never appears in them (callers pass it for redaction, and `sk-…` shapes
 * are redacted regardless — some servers echo the key they were sent).
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { redactSecrets } from '../config/redact.ts';
import type { ModelErrorInfo } from './events.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { isRecord } from '../shared/plainObject.ts';
import { oneLine } from '../shared/oneLine.ts';

export interface ErrorContext {
  model: string;
  baseURL: string;
  timeoutMs: number;
  /** Secret values to redact (the API key). */
  secrets: readonly string[];
  /** The API a 404 means is missing; default the Responses API. */
  endpoint?: { name: string; request: string };
}

const RESPONSES_ENDPOINT = { name: 'the Responses API', request: 'POST /responses' };

const MAX_SERVER_MESSAGE = 300;

function clip(text: string): string {
  return oneLine(text, MAX_SERVER_MESSAGE);
}

/** Redacts every text field of an error description (the last line of defence before the user sees it). */
export function redactErrorInfo(info: ModelErrorInfo, secrets: readonly string[]): ModelErrorInfo {
  return {
    ...info,
    message: redactSecrets(info.message, secrets),
    ...(info.code ? { code: redactSecrets(info.code, secrets) } : {}),
  };
}

/**
 * An error reported inside a stream (`error` event, or `response.failed`'s `response.error`): `{code, message}`.
 * The codes that mean "try again later" are retryable; the agent loop decides whether to.
 */
export function failureFromResponseError(raw: unknown): ModelErrorInfo {
  const err = isRecord(raw) ? raw : {};
  const code = typeof err.code === 'string' ? err.code : typeof err.type === 'string' ? err.type : undefined;
  const detail = typeof err.message === 'string' && err.message ? clip(err.message) : 'no details given';
  if (code === 'rate_limit_exceeded') {
    return { kind: 'rate_limit', code, message: `The API rate-limited this response: ${detail}`, retryable: true };
  }
  if (code === 'server_error' || code === 'internal_error' || code === 'server_is_overloaded') {
    return {
      kind: 'server',
      code,
      message: `The API failed while answering (${code}): ${detail} Retry in a moment.`,
      retryable: true,
    };
  }
  return {
    kind: 'failed',
    ...(code ? { code } : {}),
    message: `The model reported an error${code ? ` (${code})` : ''}: ${detail}`,
    retryable: false,
  };
}

/** The server's own words from an SDK APIError (the JSON body's error.message, or the raw text). */
function serverMessage(err: APIError): string | undefined {
  const body = err.error;
  if (isRecord(body) && typeof body.message === 'string' && body.message) return clip(body.message);
  // APIError.message is "<status> <text>"; without a body it says so, which tells the user nothing new.
  const text = err.message.replace(/^\d{3}\s*/, '');
  return text && !/status code \(no body\)/.test(text) ? clip(text) : undefined;
}

function errorCode(err: APIError): string | undefined {
  return typeof err.code === 'string' && err.code ? err.code : undefined;
}

/** An HTTP error status (from the SDK) → ModelErrorInfo. */
export function classifyHttpError(err: APIError, ctx: ErrorContext): ModelErrorInfo {
  const status = err.status ?? 0;
  const said = serverMessage(err);
  const code = errorCode(err);
  const base = { status, ...(code ? { code } : {}) };
  const saidTail = said ? ` The server said: ${said}` : '';
  if (status === 401 || status === 403) {
    return {
      ...base,
      kind: 'auth',
      message: `The API key was rejected (${status}). Check OPENAI_API_KEY in Settings.${saidTail}`,
      retryable: false,
    };
  }
  if (status === 404) {
    // Only a 404 that is about the model is "model not found"; a server without /responses (or a wrong base URL)
    // answers 404 too, and its own words say which (#30).
    if (code === 'model_not_found' || (said ? /\bmodel\b/i.test(said) : false)) {
      return {
        ...base,
        kind: 'model_not_found',
        message: `Model "${ctx.model}" was not found at ${ctx.baseURL} (404). Check agent.model in Settings.${saidTail}`,
        retryable: false,
      };
    }
    const api = ctx.endpoint ?? RESPONSES_ENDPOINT;
    const check = `Check agent.base_url: it must be a server that speaks ${api.name} (${api.request}).`;
    return {
      ...base,
      kind: 'not_found',
      message: said
        ? `${ctx.baseURL} answered 404: ${said} ${check}`
        : `${ctx.baseURL} answered 404 with no message. ${check}`,
      retryable: false,
    };
  }
  if (status === 429) {
    if (code === 'insufficient_quota') {
      return {
        ...base,
        kind: 'rate_limit',
        message: `The API account is out of quota (429 insufficient_quota). Check your plan and billing.${said ? ` Server said: ${said}` : ''}`,
        retryable: false,
      };
    }
    return {
      ...base,
      kind: 'rate_limit',
      message: `Rate limited by the API (429)${said ? `: ${said}` : ''}. Wait a moment and try again.`,
      retryable: true,
    };
  }
  if (status === 408) {
    return {
      ...base,
      kind: 'timeout',
      message: `The API timed out handling the request (408). Try again.${saidTail}`,
      retryable: true,
    };
  }
  if (status >= 500 || status === 409) {
    return {
      ...base,
      kind: 'server',
      message: `The API server failed (${status})${said ? `: ${said}` : ''}. Try again in a moment.`,
      retryable: true,
    };
  }
  return {
    ...base,
    kind: 'bad_request',
    message: `The API refused the request (${status}): ${said ?? 'no details given'}`,
    retryable: false,
  };
}

/** The innermost cause's code or message of a failed fetch (ECONNREFUSED, ENOTFOUND, ...). */
function connectionCause(err: unknown): string | undefined {
  let cur: unknown = err;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && isRecord(cur); depth++) {
    if (typeof cur.code === 'string') found = cur.code;
    else if (depth > 0 && typeof cur.message === 'string' && cur.message) found ??= cur.message;
    cur = cur.cause;
  }
  return found;
}

/** Any error thrown while sending the request or reading the stream → ModelErrorInfo (redacted). */
export function classifyError(err: unknown, ctx: ErrorContext): ModelErrorInfo {
  let info: ModelErrorInfo;
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    info = { kind: 'aborted', message: 'The request was stopped.', retryable: false };
  } else if (err instanceof APIConnectionTimeoutError) {
    info = timeoutInfo(ctx);
  } else if (err instanceof APIConnectionError) {
    const cause = connectionCause(err);
    info = {
      kind: 'network',
      message: `Could not connect to ${ctx.baseURL}${cause ? ` (${clip(cause)})` : ''}. Check agent.base_url and your network connection.`,
      retryable: true,
    };
  } else if (err instanceof APIError && typeof err.status === 'number') {
    info = classifyHttpError(err, ctx);
  } else if (err instanceof APIError) {
    // No status: an error the SDK raised from inside a stream.
    info = failureFromResponseError(err.error ?? { message: err.message });
  } else {
    const text = errorMessage(err);
    info = { kind: 'network', message: `The connection to ${ctx.baseURL} failed: ${clip(text)}`, retryable: true };
  }
  return redactErrorInfo(info, ctx.secrets);
}

export function timeoutInfo(ctx: ErrorContext): ModelErrorInfo {
  const seconds = Math.round(ctx.timeoutMs / 100) / 10;
  return {
    kind: 'timeout',
    message: `The API at ${ctx.baseURL} did not answer within ${seconds} s. Try again, or raise agent.request_timeout.`,
    retryable: true,
  };
}

/** What a page's `<title>` says, if it has one (a login page, a proxy's notice, a docs site). */
function pageTitle(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return title ? clip(title) : undefined;
}

/**
 * A 200 whose body is not an event stream: a web page (the base URL points at a website, a login or a proxy page),
 * JSON that is no usable response, or plain text. Retrying cannot help; the base URL is what to check.
 */
export function notAStreamInfo(document: 'json' | 'html' | 'text', sample: string, ctx: ErrorContext): ModelErrorInfo {
  const check = `check the base URL (agent.base_url in Settings), which must be the API's address, such as https://api.openai.com/v1.`;
  let message: string;
  if (document === 'html') {
    const title = pageTitle(sample);
    message = `The server at ${ctx.baseURL} answered with a web page instead of a stream: ${check}${title ? ` The page is titled "${title}".` : ''}`;
  } else if (document === 'json') {
    message = `The server at ${ctx.baseURL} answered with JSON instead of a stream, and it was not a complete answer: ${check}`;
  } else {
    const said = clip(sample);
    message = `The server at ${ctx.baseURL} answered with text instead of a stream: ${check}${said ? ` It said: "${said}"` : ''}`;
  }
  return redactErrorInfo({ kind: 'not_a_stream', message, retryable: false }, ctx.secrets);
}

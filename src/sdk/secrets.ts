/**
 * Secrets for tool authors (docs/specs/004-tool-sdk.md, "API Headers" and "Lazy Client Factory"). Secrets come from the
 * calling tool's context (`ctx.getSecret`), which reads the user's secrets YAML; they are never logged (the worker's
 * redactor knows every value) and never passed anywhere but the header or factory that asked.
 */
import type { ToolContext } from '../tools/Tool.ts';

/** Where secrets come from: a ToolContext, or anything with the same lookup. */
export type SecretSource = Pick<ToolContext, 'getSecret'>;

export interface ApiHeadersOptions {
  /** Header name (default `Authorization`). */
  headerName?: string;
  /** Text before the value, joined by one space (default `Bearer`; `''` = the bare value). */
  prefix?: string;
  /** More headers to include (only when the secret exists). */
  extra?: Record<string, string>;
}

/**
 * `api_headers(secret_name, header_name=..., prefix=...)`: `{Authorization: "Bearer <value>"}` by default,
 * `{<headerName>: "<prefix> <value>"}` or the bare value with `prefix: ''`; `{}` when the secret is not set (the
 * caller decides whether that is an error — `requires(secret(...))` makes it one with a clear message).
 */
export function apiHeaders(
  source: SecretSource,
  secretName: string,
  options: ApiHeadersOptions = {},
): Record<string, string> {
  const value = source.getSecret(secretName);
  if (!value) return {};
  const { headerName = 'Authorization', prefix = 'Bearer', extra } = options;
  return { ...extra, [headerName]: prefix ? `${prefix} ${value}` : value };
}

export interface LazyClientOptions {
  /** Create the client only when this secret is set; the factory receives its value. */
  secretName?: string;
}

/** The getter `lazyClient` returns. */
export interface LazyClient<T> {
  /**
   * The client, created on first use. With `secretName`: `undefined` (factory not called) while the secret is not
   * set, and a new client when the secret's value changed since the last one was made.
   */
  (source?: SecretSource): Promise<T | undefined>;
  /** Forget the client (the next call creates a new one). */
  reset(): void;
  /** How many times the factory has been called (for diagnostics and tests). */
  readonly created: number;
}

/**
 * `lazy_client(factory, secret_name=...)`: a getter that creates the client once, however many callers race for it
 * — concurrent first calls share one pending creation, so the factory runs exactly once and all get the same
 * instance. A factory that fails is forgotten, so the next call tries again.
 */
export function lazyClient<T>(
  factory: (secret: string | undefined) => T | Promise<T>,
  options: LazyClientOptions = {},
): LazyClient<T> {
  let pending: Promise<T> | undefined;
  let madeWith: string | undefined;
  let created = 0;
  const get = ((source?: SecretSource): Promise<T | undefined> => {
    let secret: string | undefined;
    if (options.secretName !== undefined) {
      if (!source)
        return Promise.reject(
          new TypeError(`This client needs the secret ${options.secretName}: call the getter with the tool's context`),
        );
      secret = source.getSecret(options.secretName) || undefined;
      if (secret === undefined) return Promise.resolve(undefined);
      if (pending && madeWith !== secret) pending = undefined; // the secret changed (ot.reload): make a new client
    }
    if (!pending) {
      madeWith = secret;
      created++;
      const attempt = Promise.resolve().then(() => factory(secret));
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
    }
    return pending;
  }) as LazyClient<T>;
  get.reset = () => {
    pending = undefined;
    madeWith = undefined;
  };
  Object.defineProperty(get, 'created', { get: () => created });
  return get;
}

/**
 * Otto's tool SDK (docs/specs/004-tool-sdk.md): helpers for anyone writing an Otto tool. See docs/tools/sdk.md
 * ("Writing a tool").
 *
 *   sdk(ctx)                      bound helpers: getPack, callTool, apiHeaders, secret, checkDeps
 *   getPack / callTool            other packs' tools, through the interceptor
 *   batchExecute / batchMap       many items, bounded concurrency, original order, labelled sections
 *   normalizeItems                items → [value, label] pairs
 *   safeRequest                   fetch that returns [true, data] | [false, message] and never throws
 *   apiHeaders                    auth headers from a secret
 *   lazyClient                    a client created once, on first use, even under concurrent callers
 *   requires(...) / checkDeps     declare and check permissions, host permissions, secrets, browser APIs
 */
export { sdk, type BoundSdk } from './bound.ts';
export { getPack, callTool, callToolIn, type PackProxy, type PackMethod, type CallContext } from './packAccess.ts';
export {
  batchExecute,
  batchMap,
  formatBatchResults,
  normalizeItems,
  DEFAULT_MAX_WORKERS,
  type BatchItem,
  type BatchOptions,
  type BatchFormatOptions,
  type BatchResult,
} from './batch.ts';
export {
  safeRequest,
  describeRequestError,
  isTextual,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  type SafeRequestInit,
  type SafeResult,
  type FullResponse,
  type ParseMode,
} from './http.ts';
export {
  apiHeaders,
  lazyClient,
  type ApiHeadersOptions,
  type LazyClient,
  type LazyClientOptions,
  type SecretSource,
} from './secrets.ts';
export {
  requires,
  requirementsOf,
  permission,
  host,
  hostOf,
  secret,
  browserApi,
  checkDeps,
  checkRequirements,
  originPattern,
  MissingDependencyError,
  type Requirement,
  type DepStatus,
  type ToolDeps,
  type DepsReport,
  type CheckDepsOptions,
} from './deps.ts';
export { type PermissionsLike } from './sdkRuntime.ts';

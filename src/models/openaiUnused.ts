/**
 * Build-time stand-ins for parts of the openai SDK that Otto never calls (aliased in vite.config.ts). The SDK's
 * client constructs every API namespace and its resources import their stream helpers eagerly, so none of it can be
 * tree-shaken; Otto uses `responses.create({ stream: true })`, `chat.completions.create()` and `models.list()`.
 * These keep ~70 KB out of the worker, which is what brings the extension under 1 MB. Reaching one throws a clear
 * error (helpers) or finds an empty namespace (`client.admin` has no methods).
 */
function notBundled(): never {
  throw new Error('This part of the openai SDK is not bundled in Otto (see vite.config.ts).');
}

/** A stream helper: constructing it, or calling any factory the SDK's resources call, throws. */
class NotBundled {
  constructor() {
    notBundled();
  }
  static fromReadableStream = notBundled;
  static createAssistantStream = notBundled;
  static createThreadAssistantStream = notBundled;
  static createToolAssistantStream = notBundled;
  static createChatCompletion = notBundled;
  static createResponse = notBundled;
  static runTools = notBundled;
}

// `beta.threads…stream()`, `chat.completions.stream()` / `.runTools()`, `responses.stream()`.
export const AssistantStream = NotBundled;
export const ChatCompletionRunner = NotBundled;
export const ChatCompletionStreamingRunner = NotBundled;
export const ChatCompletionStream = NotBundled;
export const ResponseStream = NotBundled;

/** An API namespace the client constructs but Otto never uses: present, empty. */
class UnusedNamespace {
  constructor(readonly _client?: unknown) {}
}

export const Admin = UnusedNamespace;
export const Beta = UnusedNamespace;
export const Containers = UnusedNamespace;
export const Evals = UnusedNamespace;
export const FineTuning = UnusedNamespace;
export const Skills = UnusedNamespace;
export const VectorStores = UnusedNamespace;
export const Webhooks = UnusedNamespace;
// Also unused (the top-level `completions` is the legacy API, not `chat.completions`): ~10 KB more.
export const Audio = UnusedNamespace;
export const Batches = UnusedNamespace;
export const Completions = UnusedNamespace;
export const Conversations = UnusedNamespace;
export const Embeddings = UnusedNamespace;
export const Files = UnusedNamespace;
export const Graders = UnusedNamespace;
export const Images = UnusedNamespace;
export const Moderations = UnusedNamespace;
export const Realtime = UnusedNamespace;
export const Uploads = UnusedNamespace;
export const Videos = UnusedNamespace;

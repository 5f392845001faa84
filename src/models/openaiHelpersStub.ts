/**
 * Build-time stand-in for helpers of the openai SDK that Otto never calls (aliased in vite.config.ts): the Assistants
 * stream (`beta.threads…stream()`) and the chat-completions runners (`chat.completions.stream()`, `.runTools()`).
 * The SDK's resource classes import them eagerly; Otto uses `responses.create({ stream: true })` and
 * `chat.completions.create()`, which do not. Keeps ~30 KB out of the worker. Using one throws a clear error.
 */
function notBundled(): never {
  throw new Error('This openai SDK helper is not bundled in Otto (see vite.config.ts).');
}

/** Constructing it, or calling any of the factories the SDK's resources call, throws. */
class NotBundled {
  constructor() {
    notBundled();
  }
  static fromReadableStream = notBundled;
  static createAssistantStream = notBundled;
  static createThreadAssistantStream = notBundled;
  static createToolAssistantStream = notBundled;
  static createChatCompletion = notBundled;
  static runTools = notBundled;
}

export const AssistantStream = NotBundled;
export const ChatCompletionRunner = NotBundled;
export const ChatCompletionStreamingRunner = NotBundled;
export const ChatCompletionStream = NotBundled;

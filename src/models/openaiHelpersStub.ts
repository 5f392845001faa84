/**
 * Build-time stand-in for helpers of the openai SDK that Otto never calls (aliased in vite.config.ts): the Assistants
 * stream (`beta.threads…stream()`) and the chat-completions runners (`chat.completions.stream()`, `.runTools()`).
 * The SDK's resource classes import them eagerly; Otto uses `responses.create({ stream: true })` and
 * `chat.completions.create()`, which do not. Keeps ~30 KB out of the worker. Using one throws a clear error.
 */
class NotBundled {
  constructor() {
    throw new Error('This openai SDK helper is not bundled in Otto (see vite.config.ts).');
  }
  static fromReadableStream(): never {
    return new NotBundled() as never;
  }
  static createAssistantStream(): never {
    return new NotBundled() as never;
  }
  static createThreadAssistantStream(): never {
    return new NotBundled() as never;
  }
  static createToolAssistantStream(): never {
    return new NotBundled() as never;
  }
  static createChatCompletion(): never {
    return new NotBundled() as never;
  }
  static runTools(): never {
    return new NotBundled() as never;
  }
}

export const AssistantStream = NotBundled;
export const ChatCompletionRunner = NotBundled;
export const ChatCompletionStreamingRunner = NotBundled;
export const ChatCompletionStream = NotBundled;

/**
 * What the run loop needs of the tools: the narrow interface the registry + interceptor are adapted to. The loop
 * never imports the registry; the composition root (background/) passes an object of this shape.
 */

export interface ToolRunContext {
  /** Aborted when the user stops the run or the call times out. Tools should stop promptly. */
  signal: AbortSignal;
  conversationId: string;
  callId: string;
}

export interface ToolInfo {
  /** The qualified name (`dom.click`), shown to the user and passed to `run`. */
  qualifiedName: string;
  /** Read-only calls from one response may run concurrently; the others run one at a time. */
  readOnly: boolean;
}

export interface AgentToolHost {
  /** Tool definitions for the request, in the nested Chat-Completions shape, names already API-encoded. */
  definitions(): unknown[];
  /** Resolves a name the model sent (API-encoded, or an alias) to a tool; undefined when unknown. */
  lookup(apiName: string): ToolInfo | undefined;
  /** The closest real tool names to an unknown one, best first, at most `n` (for the error sent to the model). */
  closest(name: string, n?: number): string[];
  /**
   * Whether this call needs the user's approval (typing into a password field, submitting a form, leaving the
   * origin, closing a tab...). May inspect the page; called just before the call would run.
   */
  isDestructive(qualifiedName: string, args: unknown, ctx?: { conversationId: string }): Promise<boolean> | boolean;
  /**
   * Runs the call through the interceptor. Resolves with the result (string or JSON-serialisable value); rejects on
   * invalid arguments (the interceptor's validation message) or a tool error.
   */
  run(qualifiedName: string, args: unknown, ctx: ToolRunContext): Promise<unknown>;
}

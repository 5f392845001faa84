/**
 * A proxy tool's result as text for the model, following the reference: text parts joined with newlines, binary
 * parts (images, audio, blob resources) as `[Binary content: <mime type>]`, and `Tool returned empty response.` when
 * nothing is left. Embedded text resources contribute their text; resource links their URI. A result with no
 * content but `structuredContent` is that, as JSON. `isError: true` is an error (`McpToolError`), not a result.
 */

export const EMPTY_RESPONSE = 'Tool returned empty response.';

/** The MCP tool reported a failure (`isError: true`); the message is the server's text. */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
}

interface Part {
  type?: string;
  text?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { text?: unknown; blob?: unknown; mimeType?: unknown; uri?: unknown };
}

export interface CallResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** Old protocol versions answer `{toolResult}`. */
  toolResult?: unknown;
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[Binary content: ${typeof part.mimeType === 'string' && part.mimeType ? part.mimeType : part.type}]`;
    case 'resource': {
      const r = part.resource ?? {};
      if (typeof r.text === 'string') return r.text;
      return `[Binary content: ${typeof r.mimeType === 'string' && r.mimeType ? r.mimeType : 'application/octet-stream'}]`;
    }
    case 'resource_link':
      // Only strings are shown: a malformed link must not read "[object Object]".
      return `[Resource: ${typeof part.name === 'string' && part.name ? `${part.name} ` : ''}${typeof part.uri === 'string' ? part.uri : ''}]`;
    default:
      return JSON.stringify(part);
  }
}

/** The text of a `tools/call` result (see the module comment). Does not look at `isError`. */
export function resultText(result: CallResultLike): string {
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  const text = parts
    .map((p) => (p && typeof p === 'object' ? partText(p) : String(p)))
    .filter((t) => t !== '')
    .join('\n');
  if (text.trim()) return text;
  if (result.structuredContent !== undefined && result.structuredContent !== null)
    return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined && result.toolResult !== null)
    return typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  return '';
}

/** The result as the model sees it, or an McpToolError for `isError: true`. */
export function formatCallResult(result: CallResultLike): string {
  const text = resultText(result);
  if (result.isError === true) throw new McpToolError(text.trim() || 'The tool reported an error without a message.');
  return text.trim() ? text : EMPTY_RESPONSE;
}

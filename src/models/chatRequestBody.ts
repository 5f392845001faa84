/**
 * The body of `POST /chat/completions` for one turn, made from the same ModelRequest the Responses client gets. The
 * transcript stays in Responses items (the agent loop, persistence and the panel do not change); this file is the
 * one place they become Chat Completions messages:
 *
 *   message (user/system/developer)      → {role, content} (input_image parts → image_url parts)
 *   message (assistant) + function_calls → one assistant message {content, tool_calls}
 *   function_call_output                 → {role:'tool', tool_call_id, content: text}; its images follow in a user
 *                                          message (a tool message takes text only), or a text note with `images: false`
 *   reasoning, hosted tool items         → dropped (servers do not take them back; DeepSeek refuses them)
 */
import type { ModelRequest, ResponseItem } from './events.ts';
import { flattenToolsForResponsesApi } from './flattenTools.ts';
import type { ReasoningEffort } from './requestBody.ts';
import { isRecord } from '../shared/plainObject.ts';

export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: 'auto';
  parallel_tool_calls?: boolean;
  stream: true;
  stream_options: { include_usage: true };
  reasoning_effort?: ReasoningEffort;
}

export interface ChatSettings {
  model: string;
  instructions?: string;
  parallelToolCalls: boolean;
  reasoningEffort?: ReasoningEffort;
  /** Whether the server takes images (screenshots) in messages; default true. */
  images?: boolean;
}

export const IMAGE_NOTE = '[A screenshot was taken, but this server does not take images.]';

/** Content of a Responses message or tool output → text and image parts. */
function parts(content: unknown): ChatContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: ChatContentPart[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') out.push({ type: 'text', text: part.text });
    else if (part.type === 'input_image' && typeof part.image_url === 'string')
      out.push({ type: 'image_url', image_url: { url: part.image_url } });
  }
  return out;
}

const textOf = (ps: ChatContentPart[]): string =>
  ps
    .filter((p): p is Extract<ChatContentPart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');

/** Responses input items → Chat Completions messages (see the module comment). */
export function toChatMessages(
  input: readonly ResponseItem[],
  instructions: string | undefined,
  images = true,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  // Images from tool outputs wait until the run of tool messages ends: nothing may come between an assistant's
  // tool_calls and their tool messages.
  let pendingImages: ChatContentPart[] = [];
  const flushImages = (): void => {
    if (!pendingImages.length) return;
    messages.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images from the tool results above:' }, ...pendingImages],
    });
    pendingImages = [];
  };
  const lastAssistant = (): Extract<ChatMessage, { role: 'assistant' }> => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') return last;
    const created: Extract<ChatMessage, { role: 'assistant' }> = { role: 'assistant', content: null };
    messages.push(created);
    return created;
  };
  for (const item of input) {
    if (item.type === 'function_call_output') {
      const ps = parts(item.output);
      const imgs = ps.filter((p) => p.type === 'image_url');
      let text = textOf(ps);
      if (imgs.length && !images) text = text ? `${text}\n${IMAGE_NOTE}` : IMAGE_NOTE;
      else if (imgs.length) pendingImages.push(...imgs);
      messages.push({ role: 'tool', tool_call_id: String(item.call_id), content: text });
      continue;
    }
    flushImages();
    if (item.type === 'function_call') {
      const assistant = lastAssistant();
      (assistant.tool_calls ??= []).push({
        id: String(item.call_id),
        type: 'function',
        function: { name: String(item.name), arguments: typeof item.arguments === 'string' ? item.arguments : '{}' },
      });
      continue;
    }
    if (item.type !== 'message' && item.type !== undefined) continue; // reasoning, hosted tool calls
    const role = item.role;
    const ps = parts(item.content);
    if (role === 'assistant') {
      // A new assistant message, unless the previous one is the same turn's (text before its tool calls).
      const text = textOf(ps);
      const last = messages.at(-1);
      if (last?.role === 'assistant' && !last.tool_calls) last.content = (last.content ?? '') + text;
      else messages.push({ role: 'assistant', content: text });
    } else if (role === 'system' || role === 'developer') {
      messages.push({ role: 'system', content: textOf(ps) });
    } else {
      const onlyText = ps.every((p) => p.type === 'text');
      const content = onlyText ? textOf(ps) : images ? ps : `${textOf(ps)}\n${IMAGE_NOTE}`;
      messages.push({ role: 'user', content });
    }
  }
  flushImages();
  return messages;
}

/**
 * Function tools in the nested shape Chat Completions wants, validated like the Responses ones
 * (docs/specs/001-tool-flattening.md).
 */
export function chatTools(tools: unknown[]): ChatTool[] {
  return flattenToolsForResponsesApi(tools)
    .filter((t) => t.type === 'function')
    .map((t) => {
      const fn = t as { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
      return {
        type: 'function',
        function: {
          name: fn.name,
          description: fn.description,
          parameters: fn.parameters,
          ...(fn.strict ? { strict: true } : {}),
        },
      };
    });
}

export function buildChatRequestBody(settings: ChatSettings, request: ModelRequest): ChatRequestBody {
  const tools = chatTools(request.tools);
  const body: ChatRequestBody = {
    model: settings.model,
    messages: toChatMessages(request.input, request.instructions ?? settings.instructions, settings.images ?? true),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (tools.length) {
    body.tools = tools;
    body.tool_choice = 'auto';
    body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.reasoningEffort) body.reasoning_effort = settings.reasoningEffort;
  return body;
}

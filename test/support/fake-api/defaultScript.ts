/**
 * What the fake API says when no scripted turn matches (and what `npm run fake-api` says to a human): a friendly
 * text reply; a demo tool call when the user asks for one; a short acknowledgement of a tool's output.
 */
import type { RecordedRequest, Turn } from './turns.ts';

const ASKS_FOR_TOOL = /\b(tool|tools|demo|call|use|help)\b/i;

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** The function tool to demo: one whose name mentions help, else the first. */
function demoTool(request: RecordedRequest): string | undefined {
  const names = (request.body?.tools ?? [])
    .filter((t) => t.type === 'function' && typeof t.name === 'string')
    .map((t) => t.name as string);
  return names.find((name) => /help/i.test(name)) ?? names[0];
}

export function defaultTurn(request: RecordedRequest): Turn {
  const input = Array.isArray(request.body?.input) ? request.body.input : [];
  const last = input[input.length - 1];
  if (last?.type === 'function_call_output') {
    return { label: 'default: tool result', text: `Done. The tool returned: ${clip(request.lastInput, 200)}` };
  }
  if (ASKS_FOR_TOOL.test(request.lastInput)) {
    const tool = demoTool(request);
    if (tool)
      return {
        label: 'default: demo tool call',
        text: `Sure, calling ${tool} to show how tools work.`,
        calls: [{ name: tool, arguments: {} }],
      };
    return { label: 'default: no tools', text: 'I would call a tool, but this request offered me none.' };
  }
  const said = request.lastInput ? ` You said: "${clip(request.lastInput, 120)}".` : '';
  return {
    label: 'default: hello',
    text: `Hello! I'm Otto's fake Responses API, answering locally.${said} Ask me to use a tool and I will call one.`,
  };
}

/** At panel start: a notice when MCP server tools wait for review (changed or added since the user approved). */
import type { PortClient } from '../../port/portClient.ts';
import type { Reply } from '../../port/panelReplies.ts';

export async function reviewNotice(client: PortClient): Promise<string | undefined> {
  let list: Reply<'servers.list'>;
  try {
    list = await client.request({ type: 'servers.list' });
  } catch {
    return undefined;
  }
  const waiting = list.servers.flatMap((s) => (s.review ?? []).map((t) => `${s.name}.${t}`));
  if (!waiting.length) return undefined;
  return `MCP server tools changed or added since you approved them: ${waiting.slice(0, 5).join(', ')}${waiting.length > 5 ? `, and ${waiting.length - 5} more` : ''}. They are off until you review them in Settings → MCP servers.`;
}

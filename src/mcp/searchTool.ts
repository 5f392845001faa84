/**
 * `mcp.search`: registered only when the servers' tool definitions would pass the request budget
 * (src/tools/toolBudget.ts) and some servers' tools are therefore not sent. It finds those tools by words in their
 * names and descriptions and loads the definitions it returns into the following requests, so the model can call
 * them directly. Descriptions are the servers' text, so the answer is inside the untrusted boundary.
 */
import { z } from '../shared/zod.ts';
import { defineTool } from '../tools/defineTool.ts';
import type { AnyTool } from '../tools/Tool.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { searchTools } from '../tools/toolBudget.ts';
import { paramDocs, signatureOf } from '../tools/packs/ot/signature.ts';

export const SEARCH_PACK = 'mcp';

export interface SearchDeps {
  /** The tools whose definitions are deferred. */
  candidates(): { tool: AnyTool; qualified: string }[];
  /** Loads definitions into the next requests. */
  load(qualified: string[]): void;
}

/** The server's description without Otto's framing (the part inside the boundary). */
function plainDescription(description: string): string {
  const m = /<external-content-[0-9a-f]+>\n([\s\S]*)\n<\/external-content-[0-9a-f]+>$/.exec(description);
  return (m ? m[1]! : description).replace(/\s+/g, ' ').trim();
}

export function searchTool(deps: SearchDeps): AnyTool {
  return defineTool({
    pack: SEARCH_PACK,
    name: 'search',
    description:
      'Find tools of connected MCP servers that are not listed here (there are too many to send every time). Give a few words about what you need; the matching tools become callable by name in your next step.',
    parameters: z.object({
      query: z.string().min(1).max(500).describe('Words describing the tool you need'),
      limit: z.number().int().min(1).max(10).default(5).describe('How many tools to return'),
    }),
    effect: 'reads',
    execute: ({ query, limit }) => {
      const all = deps.candidates();
      const byName = new Map(all.map((c) => [c.qualified, c.tool]));
      const hits = searchTools(
        query,
        all.map((c) => ({ name: c.qualified, description: plainDescription(c.tool.description) })),
        limit,
      );
      if (!hits.length) return `No deferred MCP tool matches "${query}". Try other words.`;
      deps.load(hits.map((h) => h.name));
      const lines = hits.map((h) => {
        const tool = byName.get(h.name)!;
        return `- ${signatureOf(h.name, paramDocs(tool))}: ${h.description.slice(0, 300)}`;
      });
      return `${hits.length} tool${hits.length === 1 ? '' : 's'} found; call ${hits.length === 1 ? 'it' : 'them'} by name (as pack__tool) in your next step. Their descriptions are the servers' text:\n${wrapUntrusted(lines.join('\n'))}`;
    },
  }) as AnyTool;
}

/**
 * Every tool Otto registers declares where its output comes from and where a call can send data (issue 13): a new
 * tool cannot forget it, because this test lists every registered tool and fails on one it does not know. A tool
 * that declares nothing would be treated as a sink to anywhere (it asks whenever the run has read anything).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { buildRegistry } from '../../src/background/registry.ts';
import { proxyTool } from '../../src/mcp/proxyTool.ts';
import { flowOf, UNDECLARED_FLOW } from '../../src/tools/guard/flow.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { z } from '../../src/shared/zod.ts';

const EXPECTED: Record<string, string> = {
  'dom.check': 'page → page',
  'dom.console': 'page → none',
  'dom.network': 'page → none',
  'files.download': 'url → url',
  'files.download_click': 'page → page',
  'files.list': 'none → none',
  'files.read': 'reported → none',
  'files.upload': 'page → page',
  'dom.click': 'page → page',
  'dom.dialogs': 'page → page',
  'dom.drag': 'page → page',
  'dom.fill_form': 'page → page',
  'dom.find': 'page → none',
  'dom.hover': 'page → page',
  'dom.press': 'page → page',
  'dom.query': 'page → none',
  'dom.read': 'page → none',
  'dom.scroll': 'page → none',
  'dom.select': 'page → page',
  'dom.select_text': 'page → page',
  'dom.snapshot': 'page → none',
  'dom.text': 'page → none',
  'dom.type': 'page → page',
  'dom.wait_for': 'page → none',
  'llm.transform': 'inputs → none',
  'ot.aliases': 'none → none',
  'ot.call': 'reported → none',
  'ot.config': 'none → none',
  'ot.health': 'none → none',
  'ot.help': 'none → none',
  'ot.notify': 'none → none',
  'ot.packs': 'none → none',
  'ot.reload': 'none → none',
  'ot.result': 'none → none',
  'ot.run': 'reported → none',
  'ot.save_snippet': 'none → none',
  'ot.snippets': 'none → none',
  'ot.stats': 'none → none',
  'ot.tools': 'none → none',
  'ot.version': 'none → none',
  'tabs.activate': 'page → none',
  'tabs.back': 'page → none',
  'tabs.close': 'page → none',
  'tabs.forward': 'page → none',
  'tabs.list': 'tabs → none',
  'tabs.navigate': 'url → url',
  'tabs.open': 'url → url',
  'tabs.reload': 'page → none',
  'tabs.screenshot': 'page → none',
  'web.fetch': 'url → url',
  'web.fetch_many': 'url → url',
};

describe('data-flow declarations', () => {
  it('every registered tool declares its flow, and it is the one this table expects', () => {
    const registry = buildRegistry(DEFAULT_CONFIG);
    const declared: Record<string, string> = {};
    for (const tool of registry.list()) {
      const name = `${tool.pack}.${tool.name}`;
      expect(tool.flow, `${name} declares no flow`).toBeDefined();
      declared[name] = `${tool.flow!.source} → ${tool.flow!.sink}`;
    }
    expect(declared).toEqual(EXPECTED);
  });

  it('an MCP proxy tool reads from and sends to its server, whatever its annotations say', () => {
    const t = proxyTool(
      'notes',
      { name: 'get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      async () => 'x',
      { tagHex: '0a1b2c3d' },
    );
    expect(t.flow).toEqual({ source: 'server', sink: 'server' });
  });

  it('a tool that declares nothing is treated as an unknown source sending anywhere', () => {
    const t = defineTool({
      pack: 'x',
      name: 'y',
      description: 'd',
      parameters: z.object({}),
      effect: 'reads',
      execute: () => 1,
    });
    expect(flowOf(t)).toBe(UNDECLARED_FLOW);
    expect(UNDECLARED_FLOW).toEqual({ source: 'unknown', sink: 'anywhere' });
  });
});

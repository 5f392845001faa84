/**
 * What a tool declares about data flow, next to its `effect` (see README.md in src/tools/):
 *
 *   source  where the content of its output comes from
 *     none    nothing from outside Otto (ot.help, ot.stats, tabs.activate...)
 *     page    the tab it reads: the top origin and the origin of every frame (dom.*, tabs.screenshot)
 *     url     the URL(s) it fetches or loads (`url`, `urls` arguments)
 *     tabs    every open tab (tabs.list: titles and URLs of all tabs are private data too)
 *     inputs  only what it was given (llm.transform): its output carries its inputs' labels
 *     server  its MCP server
 *     reported  the tool reports its output's labels itself (ot.run: the labels of its program's value)
 *   sink    where a call can send data
 *     none    nowhere outside the browser and the user's own model endpoint
 *     url     the origin of its `url` / `urls` arguments (web.fetch, tabs.open, tabs.navigate)
 *     page    the page it types, fills, selects or clicks into: the target's frame origin, plus the destination of
 *             a link it activates (a page's scripts see every keystroke before any submit)
 *     server  its MCP server
 *     anywhere  unknown destination: asks whenever the run has read anything
 *
 * A tool that declares nothing gets UNDECLARED_FLOW — an unknown source and a sink to anywhere — so forgetting the
 * declaration can only make Otto ask more, never leak. test/tools/flowDeclarations.test.ts enumerates every tool.
 */

export type SourceKind = 'none' | 'page' | 'url' | 'tabs' | 'inputs' | 'server' | 'reported' | 'unknown';
export type SinkKind = 'none' | 'url' | 'page' | 'server' | 'anywhere';

export interface ToolFlow {
  readonly source: SourceKind;
  readonly sink: SinkKind;
}

export const UNDECLARED_FLOW: ToolFlow = Object.freeze({ source: 'unknown', sink: 'anywhere' });

/** Shorthands for the common declarations. */
export const FLOW = {
  /** Reads nothing from outside, sends nothing. */
  internal: Object.freeze({ source: 'none', sink: 'none' }) as ToolFlow,
  /** Reads the page, sends nothing (dom.snapshot). */
  readsPage: Object.freeze({ source: 'page', sink: 'none' }) as ToolFlow,
  /** Acts on the page and reads what changed (dom.type, dom.click). */
  actsOnPage: Object.freeze({ source: 'page', sink: 'page' }) as ToolFlow,
  /** Requests a URL and reads the answer (web.fetch, tabs.open). */
  requestsUrl: Object.freeze({ source: 'url', sink: 'url' }) as ToolFlow,
  /** An MCP server's tool. */
  server: Object.freeze({ source: 'server', sink: 'server' }) as ToolFlow,
} as const;

export function flowOf(tool: { readonly flow?: ToolFlow | undefined }): ToolFlow {
  return tool.flow ?? UNDECLARED_FLOW;
}

/**
 * What a server's tool list offers the model: each tool checked against its review state (pins.ts) and its schema,
 * wrapped as a proxy tool and its definition's size counted, and the warnings the settings page shows for the list.
 * The manager (manager.ts) keeps connections and state; this is the one pass from a list to what is offered.
 */
import type { Logger } from '../shared/log.ts';
import type { AnyTool } from '../tools/Tool.ts';
import { createToolDefinition } from '../tools/toolDefinition.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import type { McpToolInfo } from './client.ts';
import { describeChange, type PinRecord, type ReviewState } from './pins.ts';
import { proxyTool, type ProxyCall } from './proxyTool.ts';
import { CAPS, clean, type CleanReport } from './sanitize.ts';
import { schemaProblem } from './schemaCheck.ts';

export interface ToolView {
  name: string;
  /**
   * on: offered to the model; off: turned off by the user; changed: differs from what the user approved (off until
   * reviewed); new: appeared after the server was connected (off until turned on); invalid: its schema cannot be
   * used (off, with the reason).
   */
  state: ReviewState | 'invalid';
  reason?: string;
  /** The description exactly as the model receives it. */
  description: string;
  /** Where a cap cut the server's text. */
  cut?: string[];
  /** For a changed tool: what differs from the approved version. */
  changes?: string[];
  readOnly: boolean;
}

export interface ToolOffer {
  /** The tools offered to the model (state `on`). */
  proxies: AnyTool[];
  /** Every tool of the list, as the settings page shows it. */
  views: ToolView[];
  warnings: string[];
  /** Characters the offered tools' definitions cost per request. */
  costChars: number;
}

export interface OfferInput {
  server: string;
  tools: readonly McpToolInfo[];
  states: ReadonlyMap<string, ReviewState>;
  pins: PinRecord | undefined;
  /** Each tool's state in the list offered before: a tool announced for review once is not announced again. */
  previous: ReadonlyMap<string, ToolView['state']>;
  tagHex: string;
  instructions: string | undefined;
  call: ProxyCall;
  log: Logger;
  onReview: ((server: string, tool: string, kind: 'changed' | 'new') => void) | undefined;
}

export function offerTools({
  server,
  tools,
  states,
  pins,
  previous,
  tagHex,
  instructions,
  call,
  log,
  onReview,
}: OfferInput): ToolOffer {
  const proxies: AnyTool[] = [];
  const views: ToolView[] = [];
  const report: CleanReport = { removed: 0, cut: [] };
  let costChars = 0;
  for (const info of tools) {
    const state = states.get(info.name) ?? 'on';
    const problem = schemaProblem(info.inputSchema);
    const own: CleanReport = { removed: 0, cut: [] };
    let proxy: AnyTool | undefined;
    let reason = problem;
    let defChars = 0;
    if (!problem) {
      try {
        proxy = proxyTool(server, info, call, {
          tagHex,
          report: own,
        });
        // Built (and cloned) here as every request will: if that fails, the tool is off, not every run.
        defChars = JSON.stringify(createToolDefinition(proxy, `${server}__${info.name}`)).length;
      } catch (error) {
        proxy = undefined;
        reason = `it could not be registered: ${errorMessage(error)}`;
      }
    }
    report.removed += own.removed;
    report.cut.push(...own.cut.map((c) => `${info.name}: ${c}`));
    const view: ToolView = {
      name: info.name,
      state: reason ? 'invalid' : state,
      description: proxy ? proxy.description : '',
      readOnly: info.annotations?.readOnlyHint === true,
    };
    if (reason) {
      view.reason = reason;
      log.warn(`MCP server '${server}': tool '${info.name}' is off: ${reason}`, { server });
    }
    if (own.cut.length) view.cut = own.cut;
    if (state === 'changed' && pins?.tools[info.name]) view.changes = describeChange(pins.tools[info.name]!.tool, info);
    views.push(view);
    if (proxy && view.state === 'on') {
      proxies.push(proxy);
      costChars += defChars;
    }
    if ((state === 'changed' || state === 'new') && !reason && previous.get(info.name) !== state) {
      log.warn(
        `MCP server '${server}': tool '${info.name}' ${state === 'new' ? 'appeared' : 'changed'}; it is off until reviewed`,
        {
          server,
        },
      );
      onReview?.(server, info.name, state);
    }
  }
  const warnings: string[] = [];
  if (report.removed)
    warnings.push(
      `Removed ${report.removed} invisible character${report.removed === 1 ? '' : 's'} (zero-width, bidi or tag) from its tool descriptions.`,
    );
  if (report.cut.length) warnings.push(`Cut to length: ${report.cut.join('; ')}.`);
  if (instructions) {
    const c = clean(instructions, CAPS.instructions);
    if (c.removed) warnings.push(`Removed ${c.removed} invisible characters from its instructions.`);
    if (c.cutFrom !== undefined)
      warnings.push(
        `Its instructions were cut to ${CAPS.instructions.toLocaleString('en-US')} of ${c.cutFrom.toLocaleString('en-US')} characters.`,
      );
  }
  const invalid = views.filter((v) => v.state === 'invalid').length;
  if (invalid)
    warnings.push(
      `${invalid} tool${invalid === 1 ? ' is' : 's are'} off because ${invalid === 1 ? 'its' : 'their'} definition cannot be used.`,
    );
  return { proxies, views, warnings, costChars };
}

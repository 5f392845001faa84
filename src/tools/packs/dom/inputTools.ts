/**
 * The input tools of the `dom` pack (#45): dom.click, dom.type, dom.fill_form, dom.select and dom.check — each on one
 * element named by ref, selector or readable locator, each deciding per call whether it needs approval
 * (destructive.ts).
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { pointArgs } from './gestures.ts';
import { clickIsDestructive, fillFormTypesPassword, isPasswordField, typeSubmitIsDestructive } from './destructive.ts';
import {
  acceptDialog,
  locatorArgs,
  locatorParams,
  needTarget,
  ref,
  selector,
  tabId,
  target,
  textLocator,
  type DomKit,
} from './domToolKit.ts';

const fieldValue = z
  .union([z.string().max(100_000), z.boolean(), z.array(z.string().max(1000)).max(100)])
  .describe(
    'Text for text fields; true/false for checkboxes, radios and switches; an option value or label (or a list) for selects',
  );

function clickTool({ page, tab, act }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'click',
    description:
      'Click an element like a person (scrolled into view; refused, saying why, if hidden, disabled or covered). ' +
      'Or by locator (role+name, label, text). x/y: a point from its top-left (canvas) or in the viewport. ' +
      'Reports what changed. A submit button asks the user first. ' +
      'A confirm()/prompt() it raises gets Cancel unless accept_dialog names its question.',
    parameters: z.object({
      ref,
      selector,
      ...locatorParams,
      text: textLocator,
      button: z.enum(['left', 'right', 'middle']).default('left').describe('right opens the context menu'),
      double: z.boolean().default(false).describe('Double-click'),
      modifiers: z
        .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
        .max(4)
        .optional()
        .describe('Keys held'),
      accept_dialog: acceptDialog,
      ...pointArgs,
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    needsApproval: async (args, ctx) =>
      args.accept_dialog !== undefined ||
      clickIsDestructive(page(), await tab(args, ctx), locatorArgs(args, true), args.button),
    examples: [
      "dom.click(ref='e12')",
      "dom.click(selector='#menu', button='right')",
      "dom.click(ref='e3', double=True)",
      "dom.click(ref='e7', x=120, y=45)",
      "dom.click(role='button', name='Log in')",
    ],
    returns: 'What was clicked and what changed on the page (page text inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      const t = locatorArgs(args, true);
      const point = args.x !== undefined || args.y !== undefined;
      if (point && !t.ref && !t.selector && !t.locator && (args.x === undefined || args.y === undefined))
        throw new Error('dom.click at a viewport point needs both x and y (or a ref/selector to aim inside).');
      if (!point) needTarget(t, 'dom.click');
      return act(args, ctx, {
        type: 'dom.click',
        ...target(t),
        button: args.button,
        clickCount: args.double ? 2 : 1,
        ...(args.modifiers?.length ? { modifiers: args.modifiers } : {}),
        ...(args.x !== undefined ? { x: args.x } : {}),
        ...(args.y !== undefined ? { y: args.y } : {}),
      });
    },
  });
}

function typeTool({ page, tab, act }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'type',
    description:
      'Type into a field, textarea or editor with real typing events, then check the value landed; reports what changed. ' +
      'Or by locator: role+name, label. ' +
      'Password fields and submitting a form ask the user first.',
    parameters: z.object({
      ref,
      selector,
      ...locatorParams,
      text: z.string().max(100_000).describe('The text to type; \\n makes a new line in multi-line fields'),
      clear: z.boolean().default(true).describe('Replace the current value (true) or append to it (false)'),
      submit: z.boolean().default(false).describe('Press Enter afterwards (submits the form)'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    // Enter submits only in a field of a form: a TodoMVC input (no form) is no submission.
    needsApproval: async (args, ctx) => {
      const t = await tab(args, ctx);
      const at = locatorArgs(args, false);
      return (args.submit && (await typeSubmitIsDestructive(page(), t, at))) || isPasswordField(page(), t, at);
    },
    examples: [
      "dom.type(ref='e5', text='Ada Lovelace')",
      "dom.type(ref='e9', text='weather in Rome', submit=True)",
      "dom.type(ref='e5', text=' and more', clear=False)",
      "dom.type(label='Email', text='ada@example.com')",
    ],
    returns:
      'What was typed where, whether the field shows it, and what changed (page text inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      const t = locatorArgs(args, false);
      needTarget(t, 'dom.type');
      return act(args, ctx, {
        type: 'dom.type',
        ...target(t),
        text: args.text,
        clear: args.clear,
        submit: args.submit,
      });
    },
  });
}

function fillFormTool({ page, tab, act }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'fill_form',
    description:
      'Fill several fields in one call (text, checkboxes, radios, selects), each by ref or selector; optionally submit (asks the user first).',
    parameters: z.object({
      fields: z
        .array(z.object({ ref, selector, ...locatorParams, value: fieldValue }))
        .min(1)
        .max(100)
        .describe('The fields, in order: [{ref, value}, ...]'),
      submit: z.boolean().default(false).describe('Submit the form after filling it (Enter in the last field)'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    needsApproval: async (args, ctx) =>
      args.submit ||
      fillFormTypesPassword(
        page(),
        await tab(args, ctx),
        args.fields.map((f) => ({ ...locatorArgs(f, false), value: f.value })),
      ),
    examples: ["dom.fill_form(fields=[{'ref': 'e3', 'value': 'ada@example.com'}, {'ref': 'e6', 'value': True}])"],
    returns:
      'One line per field (filled or why not), and what changed (page text inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      const fields = args.fields.map((f) => locatorArgs(f, false));
      fields.forEach((f, i) => needTarget(f, `dom.fill_form field ${i + 1}`));
      return act(args, ctx, {
        type: 'dom.fill_form',
        fields: fields.map((f, i) => ({ ...target(f), value: args.fields[i]!.value })),
        submit: args.submit,
      });
    },
  });
}

function selectTool({ act }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'select',
    description:
      'Choose options in a select, listbox or combobox, by option value or visible label; a list selects several in a multi-select.',
    parameters: z.object({
      ref,
      selector,
      ...locatorParams,
      value: z
        .union([z.string().min(1).max(1000), z.array(z.string().max(1000)).min(1).max(100)])
        .describe('Option value or label, or a list of them'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    examples: ["dom.select(ref='e8', value='Germany')", "dom.select(ref='e9', value=['Cheese', 'Olives'])"],
    returns: 'What is selected now, and what changed (page text inside an <external-content-…> boundary).',
    async execute(args, ctx) {
      const t = locatorArgs(args, false);
      needTarget(t, 'dom.select');
      return act(args, ctx, {
        type: 'dom.select',
        ...target(t),
        values: Array.isArray(args.value) ? args.value : [args.value],
      });
    },
  });
}

function checkTool({ act }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'check',
    description: 'Set a checkbox, radio or switch to checked or unchecked, clicking it or its label as a person would.',
    parameters: z.object({
      ref,
      selector,
      ...locatorParams,
      checked: z.boolean().default(true).describe('false unchecks'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    examples: ["dom.check(ref='e4')", "dom.check(ref='e4', checked=False)"],
    returns: 'The state now and whether it changed, and what changed on the page.',
    async execute(args, ctx) {
      const t = locatorArgs(args, false);
      needTarget(t, 'dom.check');
      return act(args, ctx, { type: 'dom.check', ...target(t), checked: args.checked });
    },
  });
}

export function createInputTools(kit: DomKit): AnyTool[] {
  return [clickTool(kit), typeTool(kit), fillFormTool(kit), selectTool(kit), checkTool(kit)] as AnyTool[];
}

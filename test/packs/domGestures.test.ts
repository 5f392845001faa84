/**
 * The gesture parameters of the dom pack (#21) over a stubbed page router: what dom.drag, dom.select_text, dom.click
 * with a point and dom.press's clipboard ask the page for, and the argument mistakes refused before the page is
 * touched, in words a model can act on.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDomTools } from '../../src/tools/packs/dom/index.ts';
import type { PageApi } from '../../src/page/api.ts';
import { ottoClipboard } from '../../src/tools/packs/dom/ottoClipboard.ts';
import { callNeedsApproval, type AnyTool } from '../../src/tools/Tool.ts';
import type { ActionRequest } from '../../src/shared/contentMessages.ts';
import type { ActionResult } from '../../src/page/actions.ts';
import { makeCtx } from '../tools/helpers.ts';

function setup(details: Record<string, unknown> = {}) {
  const act = vi.fn(async (_tab: number, req: ActionRequest): Promise<ActionResult> => ({
    action: req.type,
    summary: `${req.type} done`,
    details,
    changes: { added: [], addedCount: 0, removedCount: 0, dialogsOpened: [], dialogsClosed: [], pageDialogs: [] },
  }));
  const page = {
    resolveTabId: async (id?: number) => id ?? 99,
    frameOfRef: (ref: string) => Number(/^f(\d+)/.exec(ref)?.[1] ?? 0),
    act,
    formatAction: (r: ActionResult) => `${r.action} ok.\n${r.summary}`,
    query: vi.fn(async () => ({ matches: [], total: 0 })),
  } as unknown as PageApi;
  const tools = new Map(createDomTools({ page: () => page }).map((t) => [t.name, t as AnyTool]));
  const ctx = makeCtx({ tabId: 7, origin: 'http://127.0.0.1:4000' });
  const run = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const t = tools.get(name)!;
    return (await t.execute(t.parameters.parse(args), ctx)) as string;
  };
  const last = (): ActionRequest => act.mock.lastCall![1];
  return { act, run, last, tools, ctx };
}

beforeEach(() => ottoClipboard.clear());

describe('dom.drag', () => {
  it('maps to another element, a point inside it, an offset, a resize corner and a forced method', async () => {
    const { run, last } = setup();
    await run('drag', { ref: 'e4', to_ref: 'e9' });
    expect(last()).toEqual({ type: 'dom.drag', ref: 'e4', toRef: 'e9' });
    await run('drag', { selector: '.card', to_selector: '#done', to_x: 10, to_y: 5, method: 'html5' });
    expect(last()).toEqual({
      type: 'dom.drag',
      selector: '.card',
      toSelector: '#done',
      toX: 10,
      toY: 5,
      method: 'html5',
    });
    await run('drag', { ref: 'e2', dx: -40 });
    expect(last()).toEqual({ type: 'dom.drag', ref: 'e2', dx: -40 });
    await run('drag', { ref: 'e5', resize: true, dx: 100, dy: 40, method: 'mouse' });
    expect(last()).toEqual({ type: 'dom.drag', ref: 'e5', dx: 100, dy: 40, resize: true, method: 'mouse' });
  });

  it('refuses a drag without a source, without a destination, with two, across frames, or a resize without an offset', async () => {
    const { run, act } = setup();
    await expect(run('drag', { to_ref: 'e9' })).rejects.toThrow(
      'dom.drag needs the element to drag: ref (from dom.snapshot or dom.find), its text, or selector.',
    );
    await expect(run('drag', { ref: 'e4' })).rejects.toThrow(
      'dom.drag needs where to: to_ref (or to_text, to_selector) for another element, or dx/dy for an offset in pixels.',
    );
    await expect(run('drag', { ref: 'e4', to_ref: 'e9', dx: 5 })).rejects.toThrow(
      'give a destination element (to_ref/to_text) or an offset (dx/dy), not both',
    );
    await expect(run('drag', { ref: 'e4', to_ref: 'e9', to_text: 'Fold' })).rejects.toThrow(
      'dom.drag: give one destination: to_ref, to_text or to_selector.',
    );
    await expect(run('drag', { ref: 'e4', text: 'Wash', to_text: 'Fold' })).rejects.toThrow(
      'Give one target: a ref, a selector, or a locator (role/name, label, text) — not several.',
    );
    await expect(run('drag', { ref: 'e4', to_ref: 'f2e9' })).rejects.toThrow(
      'e4 and f2e9 are in different frames; a drag stays inside one frame.',
    );
    await expect(run('drag', { ref: 'e4', resize: true, to_ref: 'e5' })).rejects.toThrow(
      'dom.drag(resize=True) drags the corner by dx/dy: give dx and/or dy.',
    );
    expect(act).not.toHaveBeenCalled();
  });

  it('names what to drag and where to drop it by visible text (#43): a text locator each', async () => {
    const { run, last } = setup();
    await run('drag', { text: 'Wash', to_text: 'Fold' });
    expect(last()).toEqual({ type: 'dom.drag', locator: { text: 'Wash' }, toLocator: { text: 'Fold' } });
    await run('drag', { ref: 'e4', to_text: 'Fold', to_y: 2 });
    expect(last()).toEqual({ type: 'dom.drag', ref: 'e4', toLocator: { text: 'Fold' }, toY: 2 });
    await run('drag', { text: 'Thumb', dx: 30 });
    expect(last()).toEqual({ type: 'dom.drag', locator: { text: 'Thumb' }, dx: 30 });
  });

  it('never asks for approval by itself (the data-flow guard judges it as a send to the page)', async () => {
    const { tools, ctx } = setup();
    const t = tools.get('drag')!;
    expect(t.flow).toEqual({ source: 'page', sink: 'page' });
    expect(await callNeedsApproval(t, t.parameters.parse({ ref: 'e1', to_ref: 'e2' }), ctx)).toBe(false);
  });
});

describe('dom.click at a point', () => {
  it('passes x/y relative to the target, or a viewport point without one', async () => {
    const { run, last } = setup();
    await run('click', { ref: 'e3', x: 40, y: 150 });
    expect(last()).toEqual({ type: 'dom.click', ref: 'e3', button: 'left', clickCount: 1, x: 40, y: 150 });
    await run('click', { x: 300, y: 200 });
    expect(last()).toEqual({ type: 'dom.click', button: 'left', clickCount: 1, x: 300, y: 200 });
    await expect(run('click', { x: 300 })).rejects.toThrow(
      'dom.click at a viewport point needs both x and y (or a ref/selector to aim inside).',
    );
  });
});

describe('dom.select_text', () => {
  it('selects a phrase (its n-th occurrence) or all of the element', async () => {
    const { run, last } = setup();
    await run('select_text', { ref: 'e8', text: 'fox', occurrence: 2 });
    expect(last()).toEqual({ type: 'dom.select_text', ref: 'e8', text: 'fox', occurrence: 2 });
    await run('select_text', { selector: '#editor' });
    expect(last()).toEqual({ type: 'dom.select_text', selector: '#editor' });
    await expect(run('select_text', {})).rejects.toThrow(
      'dom.select_text needs the text to select, or the element holding it: ref or selector.',
    );
  });

  it('given text alone, names the one element that shows it by a text locator (#43)', async () => {
    const { run, last } = setup();
    await run('select_text', { text: 'quick brown' });
    expect(last()).toEqual({ type: 'dom.select_text', locator: { text: 'quick brown' }, text: 'quick brown' });
  });
});

describe("dom.press and Otto's clipboard", () => {
  it('keeps what Control+C copied and hands it to the next Control+V only', async () => {
    const copied = { origin: 'http://127.0.0.1:4000', text: 'lazy dog' };
    const a = setup({ copied });
    await a.run('press', { ref: 'e1', key: 'Control+C' });
    expect(a.last()).toEqual({ type: 'dom.press', ref: 'e1', key: 'Control+C' });
    expect(ottoClipboard.get()).toEqual(copied);

    const b = setup();
    await b.run('press', { key: 'Enter' });
    expect(b.last()).toEqual({ type: 'dom.press', key: 'Enter' });
    await b.run('press', { ref: 'e2', key: 'Control+V' });
    expect(b.last()).toEqual({ type: 'dom.press', ref: 'e2', key: 'Control+V', clipboard: copied });
    await b.run('press', { ref: 'e2', key: 'Meta+v' });
    expect(b.last()).toEqual({ type: 'dom.press', ref: 'e2', key: 'Meta+v', clipboard: copied });
  });

  it('an empty clipboard sends nothing with the paste', async () => {
    const { run, last } = setup();
    await run('press', { key: 'Control+V' });
    expect(last()).toEqual({ type: 'dom.press', key: 'Control+V' });
  });
});

describe('the element a call is judged by (#42)', () => {
  const described = {
    e4: { role: 'listitem', name: 'Alice — Lunch' },
    e9: { role: 'link', name: 'Trash', text: 'Trash', hints: 'folder trash', context: ['x'] },
    e3: { role: 'textbox', name: 'To', formAction: 'https://m.test/send', formMethod: 'POST' },
  } as Record<string, Record<string, unknown>>;
  function withDescribe() {
    const describe = vi.fn(async (_tab: number, t: { ref?: string }) => described[t.ref ?? '']);
    const page = {
      resolveTabId: async (id?: number) => id ?? 99,
      frameOfRef: () => 0,
      describe,
    } as unknown as PageApi;
    const tools = new Map(createDomTools({ page: () => page }).map((t) => [t.name, t as AnyTool]));
    const ctx = makeCtx({ tabId: 7, origin: 'http://127.0.0.1:4000' });
    const element = async (name: string, args: Record<string, unknown>) => {
      const t = tools.get(name)!;
      const spec = await t.target!(t.parameters.parse(args), ctx);
      return spec.element?.();
    };
    return { element, describe };
  }
  it('dom.drag onto an element: the source with where it is dropped (role and words, no context)', async () => {
    const { element } = withDescribe();
    expect(await element('drag', { ref: 'e4', to_ref: 'e9' })).toEqual({
      role: 'listitem',
      name: 'Alice — Lunch',
      dropOnto: { role: 'link', name: 'Trash', text: 'Trash', hints: 'folder trash' },
    });
    expect(await element('drag', { ref: 'e4', dx: 10 })).toEqual({ role: 'listitem', name: 'Alice — Lunch' });
  });
  it('a call by locator is judged by the element the locator names, not left unjudged (text, role and name)', async () => {
    const locate = vi.fn(async (_tab: number, loc: Record<string, string>) => (loc.text === 'Trash' ? 'e9' : 'e3'));
    const describe = vi.fn(async (_tab: number, t: { ref?: string }) => described[t.ref ?? '']);
    const page = {
      resolveTabId: async (id?: number) => id ?? 99,
      frameOfRef: () => 0,
      describe,
      locate,
    } as unknown as PageApi;
    const tools = new Map(createDomTools({ page: () => page }).map((t) => [t.name, t as AnyTool]));
    const ctx = makeCtx({ tabId: 7, origin: 'http://127.0.0.1:4000' });
    const judged = async (name: string, args: Record<string, unknown>) => {
      const t = tools.get(name)!;
      return (await t.target!(t.parameters.parse(args), ctx)).element?.();
    };
    expect(await judged('click', { text: 'Send' })).toEqual(described.e3);
    expect(locate.mock.lastCall![1]).toEqual({ text: 'Send' });
    expect(await judged('click', { role: 'button', name: 'Send' })).toEqual(described.e3);
    expect(await judged('drag', { text: 'Alice', to_text: 'Trash' })).toMatchObject({
      dropOnto: { role: 'link', name: 'Trash' },
    });
    // dom.type's text is what is typed, not a target.
    expect(await judged('type', { label: 'To', text: 'bob@example.com' })).toEqual(described.e3);
    expect(locate.mock.lastCall![1]).toEqual({ label: 'To' });
  });
  it('dom.fill_form: its last field (submit is Enter there)', async () => {
    const { element, describe } = withDescribe();
    const el = await element('fill_form', {
      fields: [
        { ref: 'e1', value: 'a' },
        { ref: 'e3', value: 'b' },
      ],
      submit: true,
    });
    expect(el).toEqual(described.e3);
    expect(describe.mock.lastCall![1]).toEqual({ ref: 'e3' });
  });
});

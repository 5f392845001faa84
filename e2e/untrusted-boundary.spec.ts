/**
 * Page text stays inside the untrusted-content boundary (docs/decisions.md, "Page text stays inside the untrusted
 * boundary"): a fixture page whose every name, text, title, attribute value, option label, console line and URL
 * fragment carries the marker INJ<nn> is read and acted on with every page tool the model has, through the worker's
 * registry as the agent calls them; in each output every marker must lie between a matching pair of boundary tags.
 * The model's own arguments never carry the marker, so anything outside a boundary is Otto's voice.
 */
import type { Worker } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTab, refIn, tool } from './page-tools.helpers.ts';

const MARKER = /INJ\d\d/g;
/** Boundaries: a block or an inline one, each closed by the tag that opened it. */
const BOUNDARY = /<(external-content-[0-9a-f]{8})>[\s\S]*?<\/\1>/g;

/** The markers of `out` that stand outside every boundary (what the model would read as Otto's words). */
export function leaksOf(out: string): string[] {
  return out.replace(BOUNDARY, '').match(MARKER) ?? [];
}

test('every page tool keeps the page’s words inside the untrusted boundary', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  test.setTimeout(120_000);
  const { page, tabId } = await openTab(context, sw, `${pages.origin}/untrusted.html?q=INJ90#INJ91-frag`);
  const outputs: { call: string; out: string }[] = [];
  const run = async (name: string, args: Record<string, unknown>, w: Worker = sw): Promise<string> => {
    const out = await tool(w, name, { tab_id: tabId, ...args });
    outputs.push({ call: `${name}(${JSON.stringify(args)})`, out });
    return out;
  };

  const snap = await run('dom.snapshot', {});
  expect(snap).toContain('INJ14 Open');
  await run('dom.snapshot', { root: '#items' });
  await run('dom.find', { text: 'Alpha' });
  await run('dom.find', { text: 'Alpha', limit: 1 });
  await run('dom.find', { role: 'button', name: 'Open' });
  await run('dom.find', { text: 'nowhere-at-all' });
  await run('dom.query', { selector: 'li.item', limit: 1 });
  await run('dom.query', { selector: '#hidden' });
  await run('dom.query', { selector: 'table.none' });
  await run('dom.text', {});
  await run('dom.text', { selector: '#items' });
  await run('dom.read', {});
  // A reload makes the console capture begin with the page, so its messages are in the log.
  await run('tabs.reload', {});
  await run('dom.console', {});
  await run('dom.network', {});
  await run('dom.wait_for', { selector: '#open' });
  await run('dom.wait_for', { text: 'Alpha' });
  await run('dom.wait_for', { selector: '#hidden', state: 'disappear', timeout_ms: 300 });
  await run('dom.wait_for', { selector: '#open', state: 'disappear', timeout_ms: 300 });
  await run('dom.hover', { ref: refIn(snap, 'INJ14 Open') });
  await run('dom.click', { selector: '#open' });
  await run('dom.click', { role: 'button', name: 'Open' });
  await run('dom.click', { selector: '#ask' });
  await run('dom.dialogs', {});
  await run('dom.type', { selector: '#name', text: 'upper' });
  await run('dom.type', { selector: '#email', text: 'a@b.c' });
  await run('dom.fill_form', {
    fields: [
      { selector: '#email', value: 'x@y.z' },
      { selector: '#agree', value: true },
    ],
  });
  await run('dom.check', { selector: '#agree', checked: false });
  await run('dom.select', { selector: '#color', value: 'green' });
  await run('dom.press', { selector: '#name', key: 'Tab' });
  await run('dom.scroll', { to: 'bottom' });
  await run('dom.drag', { selector: '#drag', to_selector: '#drop' });
  await run('dom.select_text', { selector: '#desc' });
  await run('dom.console', {});
  // Failures the model reads: an element of the wrong kind, an option the select lacks, a missing selector, a name
  // that matches nothing.
  await run('dom.type', { selector: '#agree', text: 'x' });
  await run('dom.check', { selector: '#open' });
  await run('dom.select', { selector: '#color', value: 'purple' });
  await run('dom.select_text', { selector: '#desc', text: 'nowhere' });
  // Failures the model reads: a missing selector, a name that matches nothing.
  await run('dom.click', { selector: '#nothing-here' });
  await run('dom.click', { role: 'button', name: 'Nothing like it' });
  await run('tabs.list', {});
  await run('tabs.navigate', { url: `${pages.origin}/untrusted.html?q=nav` });
  await run('tabs.back', {});
  await run('tabs.activate', {});
  await run('web.fetch', { url: `${pages.origin}/untrusted.html?q=fetch` });
  await run('web.fetch', { url: `${pages.origin}/untrusted.html?q=fetch`, format: 'html' });

  // The page's words did reach the model (the test can fail), and none of them outside a boundary.
  const all = outputs.map((o) => o.out).join('\n');
  for (const m of ['INJ02', 'INJ14', 'INJ23', 'INJ26', 'INJ36', 'INJ39', 'INJ41', 'INJ42', 'INJ43', 'INJ45', 'INJ91'])
    expect(all).toContain(m);
  // The page's own console line reached the console tool (not only the fetched HTML that quotes it).
  expect(outputs.filter((o) => o.call.startsWith('dom.console') && o.out.includes('INJ41 clicked'))).toHaveLength(1);
  const leaks = outputs.map((o) => ({ call: o.call, leaks: leaksOf(o.out), out: o.out })).filter((o) => o.leaks.length);
  // Known and open (docs/decisions.md): a tab's `url` field in the tabs tools' JSON is still bare, because the model
  // passes it on to tabs.navigate and the URL guards as it is. Listed exactly, so closing it must update this list.
  const OPEN = [
    'tabs.reload({}): INJ90, INJ91',
    'tabs.list({}): INJ90, INJ40',
    'tabs.back({}): INJ90, INJ40',
    'tabs.activate({}): INJ90, INJ40',
  ];
  const open = leaks.filter((l) => OPEN.includes(`${l.call}: ${l.leaks.join(', ')}`) && /"url":"[^"<]*INJ/.test(l.out));
  expect(leaks.filter((l) => !open.includes(l)).map((l) => `${l.call}: ${l.leaks.join(', ')}\n${l.out}`)).toEqual([]);
  expect(open.map((l) => `${l.call}: ${l.leaks.join(', ')}`)).toEqual(OPEN);
  await page.close();
});

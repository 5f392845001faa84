/**
 * #19: the page's console and requests, captured in the page's own world without the debugger. A page already open
 * before Otto looks is captured late, and the answer says so; once a run works on the tab, its next load is captured
 * from the start. #26: an idle Otto injects nothing — not into a page no run touched while a run works elsewhere,
 * and not into the run's own tab once the run is over.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { send, waitForStatus, connectedTest } from './support/agent.ts';
import { lastOutputs } from './support/modelTurns.ts';
import type { Turn } from '../test/support/fake-api/turns.ts';
import { openTab } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

/** Whether anything of Otto's capture is in the page's world. */
function captured(page: Page): Promise<{ slot: boolean; nativeLog: boolean; nativeFetch: boolean }> {
  return page.evaluate(() => ({
    slot: Symbol.for('otto.devlog') in window,
    nativeLog: console.log.toString().includes('[native code]'),
    nativeFetch: window.fetch.toString().includes('[native code]'),
  }));
}

const NOTHING = { slot: false, nativeLog: true, nativeFetch: true };

connectedTest(
  'console and network: late capture says so; after a reload the errors, the uncaught exception and the failed POST are there, failed first; idle pages get nothing',
  async ({ context, panel, fakeApi, pages }) => {
    const url = `${pages.origin}/files/broken.html`;
    const bystander = await context.newPage();
    await bystander.goto(`${url}?bystander`);
    const { page, tabId } = await openTab(context, panel, url);
    const turns: Turn[] = [
      {
        match: 'why does submit do nothing',
        calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }],
      },
      { calls: [{ name: 'tabs__reload', arguments: {} }] },
      { calls: [{ name: 'dom__click', arguments: { selector: '#submit' } }] },
      { calls: [{ name: 'dom__wait_for', arguments: { text: 'Nothing happened' } }] },
      { calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }] },
      { calls: [{ name: 'ot__call', arguments: { tool: 'dom.network', args: {} } }] },
      { text: 'The order request fails with HTTP 500.' },
    ];
    fakeApi.script(turns);
    const id = await send(panel, 'why does submit do nothing', { tabId });
    // The run is under way (its first call has happened): reload the bystander and look.
    await expect.poll(() => fakeApi.responsesRequests().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await bystander.reload();
    const bystanderDuringRun = await captured(bystander);
    await waitForStatus(panel, id, 'completed', 60_000);
    const all = lastOutputs(fakeApi);
    expect(all.length, all.join('\n=====\n')).toBe(6);
    const [late, , , , consoleOut, network] = all;

    expect(late).toMatch(
      /^Console of the page named below: 0 messages \(0 errors or uncaught\)\. Capture began late: \d+\.\d s after this page started, when Otto first looked; Otto watches this tab from now on, so reload it \(tabs__reload\) to capture from the start\. Console messages from before are not known\.\nNo console messages\.\n<(external-content-[0-9a-f]{8})>\npage: http:\/\/127\.0\.0\.1:\d+\/files\/broken\.html\n<\/\1>$/,
    );

    expect(consoleOut).toMatch(
      /^Console of the page named below: 5 messages \(2 errors or uncaught\)\. Captured since the page started/,
    );
    const origin = pages.origin.replace(/[.:/]/g, '\\$&');
    for (const line of [
      `\\[log\\] \\d+\\.\\d s \\(\\d+\\.\\d s ago\\) checkout page loaded \\(${origin}/files/broken\\.html:9\\)`,
      `\\[warn\\] \\d+\\.\\d s \\(\\d+\\.\\d s ago\\) deprecated option: legacyTotals \\(${origin}/files/broken\\.html:10\\)`,
      `\\[info\\] \\d+\\.\\d s \\(\\d+\\.\\d s ago\\) submitting order 42 \\(${origin}/files/broken\\.html:12\\)`,
      `\\[error\\] \\d+\\.\\d s \\(\\d+\\.\\d s ago\\) order failed with 500 \\(${origin}/files/broken\\.html:14\\)`,
      `\\[uncaught\\] \\d+\\.\\d s \\(\\d+\\.\\d s ago\\) TypeError: Cannot read properties of undefined \\(reading 'total'\\) \\(${origin}/files/broken\\.html:17\\)`,
    ])
      expect(consoleOut).toMatch(new RegExp(line));
    expect(consoleOut).toMatch(
      /<external-content-[0-9a-f]{8}>\npage: http:\/\/127\.0\.0\.1:\d+\/files\/broken\.html\n\[log\]/,
    );

    expect(network).toMatch(
      /^Requests of the page named below: \d+ \(1 failed\); failed first, then newest first\. Captured since the page started/,
    );
    const lines = network!.split('\n');
    expect(lines[1]).toMatch(/^<external-content-[0-9a-f]{8}>$/);
    expect(lines[2]).toMatch(new RegExp(`^page: ${origin}/files/broken\\.html$`));
    expect(lines[3]).toMatch(
      new RegExp(
        `^FAILED POST ${origin}/status/500\\?order=42 → 500 · fetch · \\d+ ms · 24 B · at \\d+\\.\\d s \\(\\d+\\.\\d s ago\\)$`,
      ),
    );
    expect(network).toMatch(
      new RegExp(
        `\\nGET ${origin}/files/expenses\\.csv → 200 · fetch · \\d+ ms · 63 B · at \\d+\\.\\d s \\(\\d+\\.\\d s ago\\)\\n`,
      ),
    );
    expect(network).toMatch(new RegExp(`\\nGET ${origin}/files/broken\\.html → 200 · document · \\d+ ms · `));

    // #26: a page no run touched got nothing while the run went on; the run's own tab gets nothing once it is over.
    expect(bystanderDuringRun).toEqual(NOTHING);
    expect(await captured(page)).toMatchObject({ slot: true });
    await page.reload();
    expect(await captured(page)).toEqual(NOTHING);
    await bystander.close();
    await page.close();
  },
);

connectedTest(
  'console and network entries carry the time they happened: errors two seconds apart read two seconds apart',
  async ({ context, panel, fakeApi, pages }) => {
    const url = `${pages.origin}/files/timed.html`;
    const { page, tabId } = await openTab(context, panel, url);
    fakeApi.script([
      // The first look watches the tab; its reload is then captured from the start.
      {
        match: 'why are the totals missing',
        calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }],
      },
      { calls: [{ name: 'tabs__reload', arguments: {} }] },
      { calls: [{ name: 'dom__wait_for', arguments: { text: 'Totals unavailable' } }] },
      { calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }] },
      { calls: [{ name: 'ot__call', arguments: { tool: 'dom.network', args: {} } }] },
      { text: 'The totals request fails.' },
    ]);
    const id = await send(panel, 'why are the totals missing', { tabId });
    await waitForStatus(panel, id, 'completed', 60_000);
    const [, , , consoleOut, network] = lastOutputs(fakeApi);
    const at = (re: RegExp, text: string) => Number(re.exec(text)?.[1]);
    const first = at(/\[error\] (\d+\.\d) s \(\d+\.\d s ago\) totals failed first/, consoleOut!);
    const second = at(/\[error\] (\d+\.\d) s \(\d+\.\d s ago\) totals failed again/, consoleOut!);
    expect(second - first).toBeGreaterThanOrEqual(1.9);
    expect(second - first).toBeLessThan(4);
    // How long ago each happened, as of the read: the earlier one that much longer ago.
    const agoFirst = at(/\(([\d.]+) s ago\) totals failed first/, consoleOut!);
    const agoSecond = at(/\(([\d.]+) s ago\) totals failed again/, consoleOut!);
    expect(Math.abs(agoFirst - agoSecond - (second - first))).toBeLessThanOrEqual(0.2);
    const loadReq = at(
      /GET \S+\/files\/expenses\.csv\?at=first → 200 · fetch · \d+ ms · 63 B · at (\d+\.\d) s \(\d+\.\d s ago\)/,
      network!,
    );
    const laterReq = at(
      /GET \S+\/files\/expenses\.csv\?at=again → 200 · fetch · \d+ ms · 63 B · at (\d+\.\d) s \(\d+\.\d s ago\)/,
      network!,
    );
    expect(laterReq - loadReq).toBeGreaterThanOrEqual(1.9);
    expect(laterReq - loadReq).toBeLessThan(4);
    await page.close();
  },
);

connectedTest(
  'an error long after the capture began late reads the time it happened, not when the capture began',
  async ({ context, panel, fakeApi, pages }) => {
    const url = `${pages.origin}/files/timed-late.html`;
    const { page, tabId } = await openTab(context, panel, url);
    fakeApi.script([
      // The first look installs the capture late (the page was open before the run); then the click makes the page
      // fail 1.5 s later, and the model waits for what the page shows, not for a time.
      { match: 'why do the totals fail', calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }] },
      { calls: [{ name: 'dom__click', arguments: { text: 'Refresh totals' } }] },
      { calls: [{ name: 'dom__wait_for', arguments: { text: 'Totals unavailable' } }] },
      { calls: [{ name: 'ot__call', arguments: { tool: 'dom.console', args: {} } }] },
      { text: 'The refresh fails.' },
    ]);
    const id = await send(panel, 'why do the totals fail', { tabId });
    await waitForStatus(panel, id, 'completed', 60_000);
    const [, , , consoleOut] = lastOutputs(fakeApi);
    const began = Number(/Capture began late: (\d+\.\d) s after this page started/.exec(consoleOut!)?.[1]);
    const entry = /\[error\] (\d+\.\d) s \((\d+\.\d) s ago\) totals refresh failed/.exec(consoleOut!);
    expect(entry, consoleOut).not.toBeNull();
    // The page's own clock at the moment it logged: the entry reads that (to the tenth), at least 1.5 s after the
    // capture began — not the capture's start.
    const loggedAt = (await page.evaluate(() => (window as unknown as { loggedAt: number }).loggedAt)) / 1000;
    expect(Math.abs(Number(entry![1]) - loggedAt)).toBeLessThanOrEqual(0.1);
    expect(Number(entry![1]) - began).toBeGreaterThanOrEqual(1.5);
    await page.close();
  },
);

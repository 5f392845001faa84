// @vitest-environment happy-dom
/**
 * #43 part 2: dom.drag's destination named by its visible text (`to_text`) is resolved by the same text locator as
 * every other target (Playwright's rules, content/locatorRules.ts): the one element, or an error that says it is
 * about the drop target and how to narrow it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { dropTarget } from '../../src/content/targets.ts';
import { LocatorError } from '../../src/content/locator.ts';
import { registry } from '../../src/content/refs.ts';
import { setPage } from './helpers.ts';

const later = () => performance.now() + 5000;

beforeEach(() =>
  setPage(`<ul id="chores"><li id="wash">Wash</li><li id="dry">Dry</li><li id="fold">Fold</li></ul>
    <p id="order">Chores: Wash, Dry, Fold</p>`),
);

describe('a drag destination by its text', () => {
  it('gives the ref of the one element whose own text holds it', async () => {
    const ref = await dropTarget({ text: 'Chores:' }, later());
    expect(registry.resolve(ref).id).toBe('order');
  });

  it('refuses several, naming them by ref and saying how to narrow it', async () => {
    const err = await dropTarget({ text: 'Fold' }, later()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LocatorError);
    expect((err as LocatorError).code).toBe('locator-many');
    const fold = registry.refFor(document.getElementById('fold')!);
    const order = registry.refFor(document.getElementById('order')!);
    expect((err as Error).message.split('\n')[0]).toBe(
      `The drop target: 2 elements match text="Fold": ${fold}, ${order}. A locator must name exactly one: give more of the text (a phrase only that element shows), or act by one of these refs.`,
    );
  });

  it('refuses none, saying so', async () => {
    await expect(dropTarget({ text: 'Iron' }, later())).rejects.toThrow(
      /^The drop target: No element matches text="Iron" on this page\./,
    );
  });
});

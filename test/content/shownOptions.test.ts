// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectOptions } from '../../src/content/actions/forms.ts';
import { setPage } from './helpers.ts';

/** A combobox that renders its listbox at the end of the page when clicked (a portal), with no aria-controls. */
function portalCombobox(): HTMLElement {
  const box = document.getElementById('status')!;
  box.addEventListener('click', () => {
    const list = document.createElement('ul');
    list.setAttribute('role', 'listbox');
    list.innerHTML = '<li role="option">Open</li><li role="option">Ham</li><li role="option">Closed</li>';
    list.addEventListener('click', (e) => {
      box.textContent = (e.target as Element).textContent;
      list.remove();
    });
    document.body.append(list);
  });
  return box;
}

describe('dom.select on a combobox that shows its options elsewhere', () => {
  afterEach(() => vi.restoreAllMocks());

  it('picks from what the click made appear, not from other lists on the page, and checks only those', async () => {
    const other: string[] = [];
    for (let i = 0; i < 1000; i++) other.push(`<li role="option">${i === 500 ? 'Ham' : `Topping ${i}`}</li>`);
    setPage(
      `<ul role="listbox" aria-label="Toppings">${other.join('')}</ul><div id="status" role="combobox" tabindex="0">Any</div>`,
    );
    const box = portalCombobox();
    const styles = vi.spyOn(window, 'getComputedStyle');
    const r = await selectOptions(box, ['Ham']);
    expect(r.summary).toBe('clicked option "Ham"');
    expect(box.textContent).toBe('Ham');
    // The popup's three options (and their ancestors), the click's own checks: not the thousand elsewhere.
    expect(styles.mock.calls.length).toBeLessThan(60);
  });

  it('falls back to options shown anywhere when the click changed nothing', async () => {
    setPage(
      '<div id="status" role="combobox" tabindex="0">Any</div><ul role="listbox"><li role="option">Closed</li></ul>',
    );
    const box = document.getElementById('status')!;
    let picked = '';
    document.querySelector('li')!.addEventListener('click', () => (picked = 'Closed'));
    const r = await selectOptions(box, ['Closed']);
    expect(r.summary).toBe('clicked option "Closed"');
    expect(picked).toBe('Closed');
  });

  it('says so when no options show', async () => {
    setPage('<div id="status" role="combobox" tabindex="0">Any</div>');
    await expect(selectOptions(document.getElementById('status')!, ['Closed'])).rejects.toThrow(
      /^<(external-content-[0-9a-f]{8})>combobox "Any" <div#status><\/\1> \(combobox\) shows no options to select\. If it is a text combobox, type into it with dom\.type and pick from what appears\.$/,
    );
  });
});

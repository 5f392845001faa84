// @vitest-environment happy-dom
/**
 * #43 part 3: an SVG's interactive shapes get refs in the snapshot (a pointer cursor, a handler attribute, a role, a
 * tabindex); its drawing and its text stay out, so an SVG with nothing to act on reads as before.
 */
import { describe, expect, it } from 'vitest';
import { setPage, snap } from './helpers.ts';

const stable = (t: string) => t.replace(/\[ref=[a-df-z]{2}e\d+\]/g, '[ref=REF]');

describe('snapshot: SVG shapes', () => {
  it('gives refs to the shapes that act, inside a named board and an unnamed chart', () => {
    setPage(`
      <svg aria-label="Game board" width="300" height="200">
        <circle style="cursor: pointer" cx="40" cy="40" r="20" fill="grey"><title>Target</title></circle>
        <rect x="100" y="10" width="30" height="30"></rect>
        <text x="10" y="180">Score: 3</text>
      </svg>
      <svg width="300" height="100">
        <g><rect role="button" aria-label="Bar 2024" tabindex="0" x="0" y="0" width="10" height="50"></rect></g>
        <path onclick="void 0" aria-label="Region north" d="M0 0 L10 10"></path>
        <text x="0" y="90">Axis</text>
      </svg>`);
    expect(stable(snap())).toBe(`- clickable "Target" [ref=REF]
- button "Bar 2024" [ref=REF]
- clickable "Region north" [ref=REF]`);
  });

  it('adds nothing for an SVG with nothing to act on, and a button keeps its icon as its name', () => {
    setPage(`
      <p>Before</p>
      <svg width="100" height="100"><circle cx="5" cy="5" r="4"></circle><text>Label</text></svg>
      <button><svg aria-label="Settings"><path d="M0 0"></path></svg></button>`);
    expect(stable(snap())).toBe(`- text: Before
- button "Settings" [ref=REF]`);
  });
});

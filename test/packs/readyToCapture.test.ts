/**
 * #43: a screenshot of a PDF waits until the viewer has drawn — captured again while the image is flat or still
 * changing, within a bound — and says so when it never drew. (The page-side wait runs in e2e/files.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import { captureDrawnPdf, isFlat } from '../../src/tools/packs/tabs/readyToCapture.ts';

function pixels(colors: [number, number, number][], n = 1000): Uint8ClampedArray {
  const px = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) px.set([...colors[i % colors.length]!, 255], i * 4);
  return px;
}

describe('a capture that has not been drawn', () => {
  it('is one flat colour (a near shade counts as the same)', () => {
    expect(isFlat(pixels([[40, 40, 40]]))).toBe(true);
    expect(
      isFlat(
        pixels([
          [40, 40, 40],
          [41, 40, 42],
        ]),
      ),
    ).toBe(true);
    expect(
      isFlat(
        pixels([
          [40, 40, 40],
          [255, 255, 255],
          [0, 0, 0],
        ]),
        1,
      ),
    ).toBe(false);
  });

  it('a PDF is captured again until drawn and unchanged; a viewer that never draws is said to be blank', async () => {
    const shots = ['flat', 'half', 'full', 'full', 'full'];
    const taken: string[] = [];
    const capture = async () => {
      taken.push(shots[taken.length] ?? 'full');
      return taken.at(-1)!;
    };
    const got = await captureDrawnPdf(capture, 4000, async (s) => s === 'flat');
    expect(got).toEqual({ dataUrl: 'full', blank: false });
    expect(taken).toEqual(['flat', 'half', 'full', 'full']);

    const never = await captureDrawnPdf(
      async () => 'flat',
      1200,
      async () => true,
    );
    expect(never).toEqual({ dataUrl: 'flat', blank: true });
  }, 10_000);
});

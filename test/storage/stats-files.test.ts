// The generic files store (HTML reports now, ot.notify topic files later).
import { describe, expect, it } from 'vitest';
import { openOttoDB } from '../../src/storage/db.ts';
import { FileStore, fileNameProblem } from '../../src/storage/files.ts';

async function fixture() {
  let now = 1000;
  const db = await openOttoDB(`files-${Math.random()}`);
  return { files: new FileStore(db, { now: () => now }), tick: (ms: number) => (now += ms) };
}

describe('files store', () => {
  it('saveFile / getFile / listFiles: content kept, list without content, newest first', async () => {
    const { files, tick } = await fixture();
    await files.save('a.html', '<p>a</p>', 'text/html');
    tick(10);
    const info = await files.save('notes.md', '# n');
    expect(info).toEqual({ name: 'notes.md', mime: 'text/plain', size: 3, createdAt: 1010, updatedAt: 1010 });
    expect(await files.get('a.html')).toEqual({
      name: 'a.html',
      mime: 'text/html',
      content: '<p>a</p>',
      size: 8,
      createdAt: 1000,
      updatedAt: 1000,
    });
    expect((await files.list()).map((f) => f.name)).toEqual(['notes.md', 'a.html']);
    expect((await files.list())[0]).not.toHaveProperty('content');
  });

  it('saving again replaces the content and keeps createdAt', async () => {
    const { files, tick } = await fixture();
    await files.save('r.html', 'one', 'text/html');
    tick(500);
    await files.save('r.html', 'two!', 'text/html');
    expect(await files.get('r.html')).toMatchObject({ content: 'two!', size: 4, createdAt: 1000, updatedAt: 1500 });
    expect(await files.list()).toHaveLength(1);
  });

  it('delete removes a file and says whether it existed', async () => {
    const { files } = await fixture();
    await files.save('x.txt', 'x');
    expect(await files.delete('x.txt')).toBe(true);
    expect(await files.delete('x.txt')).toBe(false);
    expect(await files.get('x.txt')).toBeUndefined();
  });

  it('refuses unusable names', async () => {
    const { files } = await fixture();
    await expect(files.save('a/b.txt', 'x')).rejects.toThrow(/path separators/);
    expect(fileNameProblem('ok.html', '.html')).toBeUndefined();
    expect(fileNameProblem('Report.HTML', '.html')).toBeUndefined();
    expect(fileNameProblem('con.txt')).toBe("'con' is a reserved file name");
    expect(fileNameProblem('tab\there.html')).toBe('the name contains a character not allowed in file names: "\\t"');
    expect(fileNameProblem('end.')).toBe('the name ends with a dot');
  });
});

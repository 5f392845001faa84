#!/usr/bin/env node
/** `npm run zip`: packs dist/ into otto-<version>.zip for the Chrome Web Store (deflate, no external tools). */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const version = JSON.parse(readFileSync(path.join(dist, 'manifest.json'), 'utf8')).version;
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
})(dist);

const locals = [];
const centrals = [];
let offset = 0;
for (const file of files) {
  const name = Buffer.from(path.relative(dist, file).split(path.sep).join('/'));
  const data = readFileSync(file);
  const deflated = zlib.deflateRawSync(data, { level: 9 });
  const crc = zlib.crc32(data);
  const header = (sig, extra) => {
    const b = Buffer.alloc(sig === 0x04034b50 ? 30 : 46);
    b.writeUInt32LE(sig, 0);
    let o = 4;
    if (sig === 0x02014b50) {
      b.writeUInt16LE(20, o); // version made by
      o += 2;
    }
    b.writeUInt16LE(20, o); // version needed
    b.writeUInt16LE(0x0800, o + 2); // UTF-8 names
    b.writeUInt16LE(8, o + 4); // deflate
    b.writeUInt32LE(0x00210000, o + 6); // 1980-01-01 00:00, so builds are reproducible
    b.writeUInt32LE(crc, o + 10);
    b.writeUInt32LE(deflated.length, o + 14);
    b.writeUInt32LE(data.length, o + 18);
    b.writeUInt16LE(name.length, o + 22);
    if (extra !== undefined) b.writeUInt32LE(extra, 42);
    return b;
  };
  locals.push(header(0x04034b50), name, deflated);
  centrals.push(header(0x02014b50, offset), name);
  offset += 30 + name.length + deflated.length;
}
const central = Buffer.concat(centrals);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(files.length, 8);
end.writeUInt16LE(files.length, 10);
end.writeUInt32LE(central.length, 12);
end.writeUInt32LE(offset, 16);
const out = path.join(root, `otto-${version}.zip`);
writeFileSync(out, Buffer.concat([...locals, central, end]));
console.log(`otto: wrote ${path.relative(root, out)} (${files.length} files, ${statSync(out).size} bytes)`);

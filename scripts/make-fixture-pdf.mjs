// Writes e2e/fixtures/pages/files/report.pdf: pages 1 and 2 carry text, page 3 is only an image (a "scanned" page
// with no text layer). Hand-written PDF objects with a computed xref table, so the fixture needs no PDF library.
import { writeFileSync } from 'node:fs';

const W = 64;
const H = 32;
const pixels = Buffer.alloc(W * H, 0xff);
for (let y = 8; y < 24; y++) for (let x = 8; x < 56; x++) pixels[y * W + x] = (x + y) % 3 ? 0x20 : 0xff;

const text = (lines) => `BT /F1 18 Tf 72 720 Td 24 TL ${lines.map((l) => `(${l}) Tj T*`).join(' ')} ET`;
const contents = [
  text(['Invoice 2026-11', 'Customer: Ada Lovelace']),
  text(['Total due: 1,234.56 EUR', 'Payable within 30 days']),
  'q 400 0 0 200 100 400 cm /Im1 Do Q',
];
const objs = [];
objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
objs[2] = '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>';
for (let i = 0; i < 3; i++)
  objs[3 + i] =
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${6 + i} 0 R /Resources << /Font << /F1 9 0 R >> /XObject << /Im1 10 0 R >> >> >>`;
for (let i = 0; i < 3; i++) objs[6 + i] = `<< /Length ${contents[i].length} >>\nstream\n${contents[i]}\nendstream`;
objs[9] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const parts = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
const offsets = [];
let pos = parts[0].length;
const push = (b) => {
  parts.push(b);
  pos += b.length;
};
for (let n = 1; n <= 10; n++) {
  offsets[n] = pos;
  if (n === 10) {
    push(
      Buffer.from(
        `10 0 obj\n<< /Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n`,
        'latin1',
      ),
    );
    push(pixels);
    push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  } else push(Buffer.from(`${n} 0 obj\n${objs[n]}\nendobj\n`, 'latin1'));
}
const xref = pos;
let table = `xref\n0 11\n0000000000 65535 f \n`;
for (let n = 1; n <= 10; n++) table += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
push(Buffer.from(`${table}trailer\n<< /Size 11 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
writeFileSync(new URL('../e2e/fixtures/pages/files/report.pdf', import.meta.url), Buffer.concat(parts));

/** A small RFC 4180 CSV reader: a header row of names, then one record per row (quotes, "" escapes, CRLF). */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('the CSV ends inside a quoted value');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const nonEmpty = rows.filter((r) => r.some((f) => f.trim() !== ''));
  const [header, ...records] = nonEmpty;
  if (!header) throw new Error('the CSV is empty (its first line names the parameters)');
  const names = header.map((h) => h.trim());
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(n)) throw new Error(`CSV column '${n}' is not a parameter name`);
  return records.map((r, i) => {
    if (r.length !== names.length)
      throw new Error(`CSV row ${i + 2} has ${r.length} values for ${names.length} columns`);
    return Object.fromEntries(names.map((n, j) => [n, r[j]!]));
  });
}

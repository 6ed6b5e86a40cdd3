import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Copies of a real slide under other names in a fresh temporary folder (bulk upload reads the case number from the
 * file name), so the shared test data is never written to and nothing lands in the repository. `remove` deletes them.
 */
export async function slideCopies(
  source: string,
  names: readonly string[],
): Promise<{ files: string[]; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-slides-'));
  const files = names.map((name) => path.join(dir, name));
  for (const file of files) await fs.copyFile(source, file);
  return { files, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * A small valid PDF of `pages` US-letter pages, each saying "<title> page <n>" in Helvetica, written by hand with a
 * correct cross-reference table (byte offsets), so pdf.js opens it without repairing it.
 */
export function multiPagePdf(pages: number, title = 'E2E report'): Buffer {
  const objects: string[] = [];
  const pageIds = Array.from({ length: pages }, (_, index) => 4 + index * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pageIds.forEach((id, index) => {
    const content = `BT /F1 36 Tf 72 680 Td (${title} page ${index + 1}) Tj ET`;
    objects[id] =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });

  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  // Every entry is exactly 20 bytes: 10-digit offset, 5-digit generation, n/f, and a two-byte end of line.
  const entries = offsets.slice(1).map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
  body +=
    `xref\n0 ${objects.length}\n0000000000 65535 f \n${entries.join('')}` +
    `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

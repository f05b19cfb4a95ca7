import { CopyTextBuffer } from './copy-text-buffer';

describe('CopyTextBuffer', () => {
  const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');

  it('keeps text in order across chunks, multi-byte characters included, and starts over after take()', () => {
    const buffer = new CopyTextBuffer();
    expect(buffer.take()).toEqual([]);
    const rows: string[] = [];
    for (let i = 0; i < 40_000; i++) rows.push(`${i}\tnaïve ✓ 𝄞 ${'x'.repeat(i % 97)}\n`);
    for (const row of rows) buffer.append(row);
    const chunks = buffer.take();
    expect(chunks.length).toBeGreaterThan(1); // over a MiB: the boundaries fall inside the rows' text
    expect(text(chunks)).toBe(rows.join(''));
    expect(buffer.take()).toEqual([]);
    buffer.append('after\n');
    expect(text(buffer.take())).toBe('after\n');
  });

  it('takes a single string larger than a chunk whole', () => {
    const buffer = new CopyTextBuffer();
    const big = 'é'.repeat(1_500_000);
    buffer.append('a');
    buffer.append(big);
    buffer.append('');
    expect(text(buffer.take())).toBe('a' + big);
  });
});

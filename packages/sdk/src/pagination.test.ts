import { paginate, paginateItems } from './pagination';

describe('paginate', () => {
  const pages: Record<string, { items: number[]; next_cursor?: string }> = {
    start: { items: [1, 2], next_cursor: 'c2' },
    c2: { items: [3, 4], next_cursor: 'c3' },
    c3: { items: [5] },
  };

  it('follows next_cursor until a page has none', async () => {
    const asked: (string | undefined)[] = [];
    const fetchPage = async (cursor?: string) => (asked.push(cursor), pages[cursor ?? 'start']);
    const items: number[] = [];
    for await (const item of paginateItems(paginate(fetchPage))) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, 'c2', 'c3']);
  });

  it('starts from a given cursor and fetches nothing more once the loop stops', async () => {
    const asked: (string | undefined)[] = [];
    const fetchPage = async (cursor?: string) => (asked.push(cursor), pages[cursor ?? 'start']);
    for await (const page of paginate(fetchPage, 'c2')) {
      expect(page.items).toEqual([3, 4]);
      break;
    }
    expect(asked).toEqual(['c2']);
  });
});

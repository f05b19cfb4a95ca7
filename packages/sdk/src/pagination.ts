/** A page of a keyset-paginated list (API.md: next_cursor only when more rows exist). */
export interface TCursorPage<TItem> {
  items: TItem[];
  next_cursor?: string;
}

/**
 * Every page from `startCursor` (or the first page), following next_cursor until the list
 * ends; nothing is fetched until iterated, so a loop that stops early fetches no more.
 */
export async function* paginate<TPage extends TCursorPage<unknown>>(
  fetchPage: (cursor?: string) => Promise<TPage>,
  startCursor?: string,
): AsyncGenerator<TPage> {
  let cursor = startCursor;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.next_cursor;
  } while (cursor);
}

/** The items of every page, in order. */
export async function* paginateItems<TItem>(pages: AsyncIterable<TCursorPage<TItem>>): AsyncGenerator<TItem> {
  for await (const page of pages) yield* page.items;
}

/** The page size of `all` when the query names none. */
export const defaultPageSize = 100

/**
 * Every item of `query`, a page at a time: `readPage` is called with the query and the cursor
 * of the page before (none first, or the query's own), until a page names no next one.
 */
export async function* everyItem<Q extends { limit?: number | undefined; cursor?: unknown }, T>(
  query: Q,
  readPage: (query: Q & { limit: number }) => Promise<{ items: T[]; next?: string | undefined }>,
): AsyncGenerator<T, void, undefined> {
  let cursor = query.cursor
  do {
    const page = await readPage({ ...query, limit: query.limit ?? defaultPageSize, cursor })
    yield* page.items
    cursor = page.next
  } while (cursor !== undefined)
}

/** An order of `GET /items`: by `id`, `name` or `genre`, descending with a leading `-`. */
export type SortOrder = 'id' | '-id' | 'name' | '-name' | 'genre' | '-genre'

/** The parameters of `GET /items` that shape the answer rather than filter it. */
export type QueryShape = {
  /** The order; ties, and no `sort` at all, keep insertion order. */
  sort?: SortOrder | undefined
  /** At most this many items (1-1000). */
  limit?: number | undefined
  /** Where a page starts: only as a previous page's `next` gave it. */
  cursor?: string | undefined
}

/**
 * `Q` checked as a query of `GET /items`: `sort`, `limit` and `cursor` as `QueryShape` types
 * them, every other key an exact-match filter on the top-level field it names, its value a
 * string (`{ genre: 'Drama', sort: '-name' }`). An `undefined` value is left out.
 */
export type ItemQuery<Q> = {
  [K in keyof Q]: K extends keyof QueryShape ? QueryShape[K] : string | undefined
}

/** A query of one page: an `ItemQuery` with a `limit`. */
export type PageQuery<Q> = ItemQuery<Q> & { limit: number }

import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'

/**
 * The owners of a log's records in the embedded store: a named database beside the log's
 * (`<log>.owners`) with one empty entry a record that has an owner, keyed
 * `<owner>/<_id>`, so one owner's records lie together in `_id` order. A page of one owner is a
 * read of `limit` keys backwards from the cursor, whatever the other owners hold. Its writes go
 * in the commit of the record's own, by the log (`EmbeddedMailLog`).
 */
export class EmbeddedOwnerIndex {
  readonly #keys: Database<string, string>

  constructor(env: EmbeddedEnv, log: string) {
    this.#keys = env.database<string>(`${log}.owners`, 'string')
  }

  /** The key of a record of `owner`; the owner is escaped, so it never holds the `/`. */
  key(owner: string, id: string): string {
    return `${encodeURIComponent(owner)}/${id}`
  }

  /** Files a record under its owner; inside a commit. */
  add(owner: string, id: string): void {
    this.#keys.put(this.key(owner, id), '')
  }

  /** Forgets a record of the owner; inside a commit. */
  remove(owner: string, id: string): void {
    this.#keys.remove(this.key(owner, id))
  }

  /** The `_id`s of the newest `limit` records of `owner` below `before`, newest first. */
  idsOf(owner: string, { limit, before }: { limit: number; before?: string | undefined }) {
    const prefix = `${encodeURIComponent(owner)}/`
    // Backwards from the cursor, or from the key after every key of the owner ('0' follows '/').
    const from =
      before === undefined
        ? { start: `${encodeURIComponent(owner)}0` }
        : { start: `${prefix}${before}`, exclusiveStart: true }
    const ids: string[] = []
    for (const key of this.#keys.getKeys({ ...from, end: prefix, reverse: true, limit })) {
      ids.push(key.slice(prefix.length))
    }
    return ids
  }
}

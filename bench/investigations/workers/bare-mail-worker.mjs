// The bound for mail-service's Worker, as bare-worker.mjs is for items-service's: every request
// goes to one Durable Object (SQLite storage), which reads the JSON body, writes one row and
// answers 201 with the row's id. No key, no validation, no rate limit, no log line.

/** The one object every send goes to, as mail-service's Worker sends its state to `mail-state`. */
export class MailLogObject {
  #sql

  constructor(state) {
    this.#sql = state.storage.sql
    this.#sql.exec(
      'CREATE TABLE IF NOT EXISTS sent (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL)',
    )
  }

  async fetch(request) {
    const { email, name } = await request.json()
    const [{ id }] = this.#sql
      .exec('INSERT INTO sent (email, name) VALUES (?, ?) RETURNING id', email, name)
      .toArray()
    return Response.json({ id: String(id), message: 'Queued. Thank you.' }, { status: 201 })
  }
}

export default {
  fetch(request, env) {
    return env.MAIL_STATE.get(env.MAIL_STATE.idFromName('mail-state')).fetch(request)
  },
}

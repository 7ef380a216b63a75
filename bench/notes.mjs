// The prose of RESULTS.md that explains a run: how n moves, and how each server was set up.

/** The notes for a run with these options, `large` being the second size of GET /items. */
export function describeRun({ n, writes, warmupWrites, big }, large) {
  const moves = [
    `GET /items, GET /items/:id and PUT /items/:id: n stays at ${n} (PUT changes a field of an existing item, cycling through all ${n}).`,
    `POST /items: ${warmupWrites} warm-up then ${writes} measured creations of new ids, so n grows from ${n} to ${n + warmupWrites} to ${n + warmupWrites + writes}.`,
    `DELETE /items/:id: deletes exactly the items POST added, in order (${warmupWrites} warm-up, then ${writes} measured), so n falls from ${n + warmupWrites + writes} to ${n + writes} to ${n}; every server lists ${n} items again at the end (checked).`,
    `GET /items at ${large}: a second start of all three servers holding ${large} movies.`,
  ]
  const loading = [
    'items-service: `node items-service/dist/server.js` (the built bundle), with PORT=0 (a free port), HOST=127.0.0.1 and a fresh temporary DATA_DIR; every other setting at its default (embedded store, CORS `*`, request log, body limits, validation). Its stdout, one log line per request, is piped to the bench and drained.',
    `items-service data: at n = ${n} the movies are POSTed through the API (4 at a time) after start; at n = ${large} and ${big} a datafile of the earlier releases (NeDB's format: one JSON document per line, increasing 24-hex \`_id\`s) is imported once by a first start and stop, and each run starts from a copy of the store that leaves, because every POST answers the whole list and posting ${large} items would move gigabytes.`,
    'bound: `bench/reference-server.mjs`, node:http; the list and every item kept as cached JSON bytes; a POST appends to the list bytes with one copy, a PUT or DELETE re-serialises only the item it touches and joins the cached items with one copy. No validation, no persistence, no logging.',
    'json-server 0.17.4: its CLI on a `db.json` holding `{ "items": [...] }` with the same movies (no `_id`), logging on, started in an empty directory. It answers the created or replaced item on POST and PUT and `{}` on DELETE, not the list, and rewrites db.json on every write.',
    'bound, for the sync features (`bench/reference-sync.mjs`): a strong tag per item and for the list, new on every change; a GET whose `If-None-Match` is exactly that tag answers 304 with the headers items-service gives a 304 (ETag, request id, CORS, nosniff), and its 200s carry the ETag too; the list compressed with node:zlib at the levels items-service uses, made once per change of the list; `/items/events` writes each change, serialised once, to every open stream, after an `id:` line at the start. No replay, no limits.',
    'The sync reads (304, br, gzip) are loaded with `bench/socket-load.mjs`, not autocannon: the same 50 kept-alive connections and request bytes, one request in flight per connection, each answer framed by its Content-Length and its body skipped unread. autocannon turns every body into a string, which for compressed bytes cost it about 0.3 ms per 28 KB answer, four times what either server spends, so it, not the server, set the pace.',
    'Every request of every run is valid: GET and PUT cycle through existing ids; POST uses new ids; DELETE removes the ids POST added. A non-2xx count above 0 means something is wrong.',
    '"server CPU" is the server process\'s CPU time over the run\'s wall time (100% = one core), "autocannon CPU" the same for the bench process that generates the load, and "other processes CPU" what the rest of the machine used meanwhile (it is shared: a high figure means a noisy run). The machine\'s cores are shared by the server and the load generator.',
  ]
  return { moves, loading }
}

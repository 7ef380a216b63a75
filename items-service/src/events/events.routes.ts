import { apiRoute, errorEntry } from '@movies-and-mail/http-kit/routes'

const example = [
  'retry: 2000',
  '',
  'event: created',
  'id: 1795000000000001',
  'data: {"_id":"6740a1f2c3d4e5f6a7b8c9d0","id":"tt0111161","name":"The Shawshank Redemption","genre":"Drama"}',
  '',
  ': heartbeat',
  '',
  'event: deleted',
  'id: 1795000000000002',
  'data: {"_id":"6740a1f2c3d4e5f6a7b8c9d0","id":"tt0111161","name":"The Shawshank Redemption","genre":"Drama"}',
  '',
  '',
].join('\n')

const retryAfter = {
  description: 'Seconds to wait before trying again',
  schema: { type: 'integer', minimum: 1, example: 5 },
} as const

export const itemEventsRoute = apiRoute({
  method: 'get',
  path: '/items/events',
  operationId: 'followItemEvents',
  tags: ['Items'],
  summary: 'Follow every change to the items as Server-Sent Events',
  description:
    'A `text/event-stream` that stays open: each create, update and delete is one event ' +
    '(`event: created|updated|deleted`, `id:` the event id, `data:` the item as JSON; for a ' +
    'delete, as it was). Send the last id received in `Last-Event-ID` (browsers do when they ' +
    'reconnect) to get what was missed; when that is no longer kept, the stream starts with ' +
    '`event: reload` (`data: {"reason": "..."}`): read `GET /items` again. It starts with an ' +
    '`id:` line, and comment lines (`: heartbeat`) keep quiet connections open. Public: needs ' +
    'no key.',
  security: [],
  parameters: [
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'The id of the last event received: the events after it are sent first',
      schema: { type: 'string' },
    },
  ],
  responses: {
    200: {
      description:
        'The stream of changes; it ends when the client or the service stops, or after ' +
        'EVENTS_IDLE_CLOSE_MS without an event (with a `retry` hint: reconnect with `Last-Event-ID`)',
      headers: {
        'Cache-Control': { schema: { type: 'string', example: 'no-cache' } },
      },
      content: { 'text/event-stream': { schema: { type: 'string', example } } },
    },
    501: errorEntry(
      'The store cannot follow changes (MongoDB that is not a replica set)',
      'live changes need MongoDB as a replica set (Atlas is one); this server is standalone',
    ),
    429: {
      ...errorEntry(
        'This client (its address) holds as many streams as one may (EVENTS_MAX_STREAMS_PER_CLIENT)',
        'this client holds 20 event streams already, the most one may; close one first',
      ),
      headers: { 'Retry-After': retryAfter },
    },
    503: {
      ...errorEntry(
        'As many streams are open as the service allows; try again later',
        'too many event streams are open; try again later',
      ),
      headers: { 'Retry-After': retryAfter },
    },
  },
})

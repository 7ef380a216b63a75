import { createRoute } from '@hono/zod-openapi'
import { errorResponse } from '@movies-and-mail/http-kit'

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

export const itemEventsRoute = createRoute({
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
      description: 'The stream of changes; it ends only when the client or the service stops',
      headers: {
        'Cache-Control': { schema: { type: 'string', example: 'no-cache' } },
      },
      content: { 'text/event-stream': { schema: { type: 'string', example } } },
    },
    501: errorResponse(
      'The store cannot follow changes (MongoDB that is not a replica set)',
      'live changes need MongoDB as a replica set (Atlas is one); this server is standalone',
    ),
    503: {
      ...errorResponse(
        'As many streams are open as the service allows; try again later',
        'too many event streams are open; try again later',
      ),
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before trying again',
          schema: { type: 'integer', minimum: 1, example: 5 },
        },
      },
    },
  },
})

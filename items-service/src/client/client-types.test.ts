import type { ResponseSchema } from '@movies-and-mail/http-kit/routes'
import { describe, expectTypeOf, it } from 'vitest'
import type { $ZodType, input, output } from 'zod/v4/core'
import type {
  ErrorBody,
  Item,
  ItemFields,
  ItemPage,
  ItemsClient,
  NewItem,
  TaggedItem,
  ValidationIssue,
} from '../../../packages/items-client/src/index.js'
import type { itemEventsRoute } from '../events/events.routes.js'
import type { itemFieldsSchema, itemSchema, newItemSchema } from '../items/item.schema.js'
import type * as routes from '../items/items.routes.js'
import type * as port from '../store/item-store.js'

// The published client declares the API's types by hand, so that its declarations need nothing
// of the service. These checks hold them to the routes' own types; `npm run typecheck` runs them.

type Statuses<R> = R extends { responses: infer Answers } ? keyof Answers : never
type Answer<R, Status> = output<ResponseSchema<R, Status> & $ZodType>
type Success<R> = Answer<R, 200 | 201>
// 304 has no body: only a caller that sent If-None-Match itself gets it.
type Failure<R> = Answer<R, Exclude<Statuses<R>, 200 | 201 | 304>>
type Json<R> = R extends {
  request: { body: { content: { 'application/json': { schema: infer S extends $ZodType } } } }
}
  ? input<S>
  : never
type Param<R> = R extends { request: { params: infer S extends $ZodType } }
  ? input<S>['id' & keyof input<S>]
  : never

type List = typeof routes.listItemsRoute
type Get = typeof routes.getItemRoute
type Create = typeof routes.createItemRoute
type Update = typeof routes.updateItemRoute
type Remove = typeof routes.deleteItemRoute
type Events = typeof itemEventsRoute

type Client = ItemsClient
type Resolved<K extends keyof Client> = Awaited<ReturnType<Client[K]>>

describe('the published client’s types', () => {
  it('are the schema’s types and the store port’s, under the OpenAPI document’s names', () => {
    expectTypeOf<Item>().toEqualTypeOf<output<typeof itemSchema>>()
    expectTypeOf<NewItem>().toEqualTypeOf<output<typeof newItemSchema>>()
    expectTypeOf<ItemFields>().toEqualTypeOf<output<typeof itemFieldsSchema>>()
    expectTypeOf<Item>().toEqualTypeOf<port.Item>()
    expectTypeOf<NewItem>().toEqualTypeOf<port.NewItem>()
    expectTypeOf<ItemFields>().toEqualTypeOf<port.ItemFields>()
    // A refused body: the error response that names its issues.
    type Refused = Answer<Create, 400>
    expectTypeOf<ErrorBody>().toEqualTypeOf<Refused>()
    expectTypeOf<ValidationIssue>().toEqualTypeOf<NonNullable<Refused['issues']>[number]>()
  })

  it('take what each route takes', () => {
    expectTypeOf<Parameters<Client['create']>[0]>().toEqualTypeOf<Json<Create>>()
    expectTypeOf<Parameters<Client['update']>[1]>().toEqualTypeOf<Json<Update>>()
    expectTypeOf<Parameters<Client['get']>[0]>().toEqualTypeOf<Param<Get>>()
    expectTypeOf<Parameters<Client['read']>[0]>().toEqualTypeOf<Param<Get>>()
    expectTypeOf<Parameters<Client['update']>[0]>().toEqualTypeOf<Param<Update>>()
    expectTypeOf<Parameters<Client['remove']>[0]>().toEqualTypeOf<Param<Remove>>()
  })

  it('hold what each route answers on success', () => {
    expectTypeOf<Success<List | Get | Create | Update | Remove>>().not.toBeNever()
    expectTypeOf<Success<List>>().toExtend<Resolved<'list'>>()
    expectTypeOf<Success<List>>().toExtend<Resolved<'page'>['items']>()
    expectTypeOf<Success<Get>>().toExtend<Resolved<'get'>>()
    expectTypeOf<Success<Get>>().toExtend<Resolved<'read'>['item']>()
    expectTypeOf<Resolved<'read'>>().toEqualTypeOf<TaggedItem>()
    expectTypeOf<Resolved<'page'>>().toEqualTypeOf<ItemPage>()
    expectTypeOf<Success<Create>>().toExtend<Resolved<'create'>>()
    expectTypeOf<Success<Update>>().toExtend<Resolved<'update'>>()
    expectTypeOf<Success<Remove>>().toExtend<Resolved<'remove'>>()
  })

  it('hold every error answer of every route as an ErrorBody', () => {
    type Routes = List | Get | Create | Update | Remove | Events
    expectTypeOf<Failure<Routes>>().not.toBeNever()
    expectTypeOf<Failure<Routes>>().toExtend<ErrorBody>()
    // A stale If-Match, and the feed's "cannot follow changes", among them.
    expectTypeOf<Answer<Update | Remove, 412>>().toExtend<ErrorBody>()
    expectTypeOf<Answer<Update | Remove, 412>>().not.toBeNever()
    expectTypeOf<Answer<Events, 501>>().toExtend<ErrorBody>()
    expectTypeOf<Answer<Events, 501>>().not.toBeNever()
  })
})

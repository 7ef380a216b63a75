// The runtime's own module, which the Worker bundle leaves for workerd to provide: the one class
// the service takes from it, with what the service uses of it. Its `fetch` is the object's own,
// typed as the service's other handlers are, by the web's `Request`.
declare module 'cloudflare:workers' {
  import type { DurableObjectState } from '@cloudflare/workers-types'

  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState
    protected readonly env: Env
    constructor(ctx: DurableObjectState, env: Env)
  }
}

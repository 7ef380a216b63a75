// The runtime's own module, which the Worker bundle leaves for workerd to provide: the one class
// the service takes from it, typed by @cloudflare/workers-types.
declare module 'cloudflare:workers' {
  import type { CloudflareWorkersModule } from '@cloudflare/workers-types'

  export const DurableObject: typeof CloudflareWorkersModule.DurableObject
  export type DurableObject<Env = unknown> = CloudflareWorkersModule.DurableObject<Env>
}

import { redactText } from '@movies-and-mail/http-kit/redact'
import { misconfiguredMessage } from '@movies-and-mail/http-kit/settings'
import {
  analyticsDatasetOf,
  analyticsEngineRequestsOf,
  workerAppLog,
} from '@movies-and-mail/http-kit/workers-monitoring'
import { responseOutsideApp } from '@movies-and-mail/http-kit/workers-runtime'
import { createApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { issuerUsers } from '../users/issuer-users.js'
import { type Bindings, settingsOf } from './items-object.js'
import { type ItemsNamespace, ObjectItemStore } from './object-item-store.js'

type Fetch = (request: Request) => Response | Promise<Response>

/**
 * What the Worker runs for every request but the page (`worker.ts` loads it with the first one):
 * the whole items-service app, as on Node, over the collection's Durable Object
 * (`ObjectItemStore`; `COLLECTION_NAME`, `movies` by default). Checks, refusals, headers and log
 * lines are made here, in as many isolates as the platform runs; the object only keeps the
 * collection. Settings that do not parse answer 503 to every request, and the log says which.
 */
export function workerApp(bindings: Bindings): Fetch {
  const raw = settingsOf(bindings)
  let settings: ReturnType<typeof parseEnv>
  try {
    settings = parseEnv(raw)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.error(redactText(`items-service cannot start: ${reason}`, secretValues(raw)))
    const refusal = { error: misconfiguredMessage }
    const points = analyticsEngineRequestsOf(bindings)
    return (request) => responseOutsideApp(request, 503, refusal, performance.now(), points)
  }
  const secrets = secretValues(raw)
  const store = new ObjectItemStore(bindings.ITEMS as ItemsNamespace, settings.collectionName)
  const app = createApp({
    store,
    apiKey: settings.apiKey,
    // The isolate fetches the issuer's key set and keeps it for every request it serves.
    users: settings.users && issuerUsers(settings.users),
    corsOrigins: settings.corsOrigins,
    // Each request an object on the console (Workers Logs indexes its fields) and, with an
    // ANALYTICS dataset bound, a data point; an error may quote a library's message, and with
    // it a URL or a setting that holds a secret.
    ...workerAppLog({ secrets, analytics: analyticsDatasetOf(bindings) }),
    logError: (line) => console.error(redactText(line.trimEnd(), secrets)),
    mailServiceUrl: settings.mailServiceUrl,
    followChanges: (request) => store.followChanges(request),
    // The Worker read each body whole within BODY_TIMEOUT_MS before the app runs
    // (`withBodyReadFirst`), so the body here is in memory: no second deadline, no timer.
    bodyTimeoutMs: Number.POSITIVE_INFINITY,
    // The collection's bounds are the object's: it sees every write of every isolate.
    // No compression: the platform compresses what it sends.
  })
  return (request) => app.fetch(request)
}

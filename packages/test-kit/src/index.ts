export { brokenBuild } from './broken-build.js'
export { BuiltEntry, type BuiltEntryOptions, type Exit, type FailedStart } from './built-entry.js'
export { clockAhead } from './clock-ahead.js'
export { DetaBaseStandIn, type DetaItem, type DetaRequest } from './deta-base-stand-in.js'
export {
  exchange,
  type SeenResponse,
  seen,
  type WireCase,
  wranglerExitsOnCutBodies,
} from './differential.js'
export {
  canRunAsAnotherUser,
  entryAsUser,
  nobody,
  whyNotAsAnotherUser,
} from './entry-as-user.js'
export { modeAndOwner, modesIn } from './file-modes.js'
export { freePort } from './free-port.js'
export { cspDirectives, thrownBy, trickleForever } from './http-checks.js'
export { implicitMethodProblems } from './implicit-methods-check.js'
export { type LargeUploadResult, largeUpload } from './large-upload.js'
export {
  type MailgunEventData,
  type MailgunWebhookBody,
  mailgunEvent,
  mailgunFailure,
  mailgunSigningKey,
  mailgunToken,
  signedMailgunEvent,
} from './mailgun-events.js'
export {
  closedPortUrl,
  type MailgunReply,
  type MailgunRequest,
  MailgunStandIn,
} from './mailgun-stand-in.js'
export type { WireCommand } from './mongo/wire-codec.js'
export { MongoStandIn, type StandInOptions } from './mongo-stand-in.js'
export { type MongoTestServer, useMongoServer } from './mongo-test-server.js'
export { type IssuerMode, OidcIssuer, type OidcIssuerOptions } from './oidc-issuer.js'
export { checkedAgainst, OpenApiContract } from './openapi-contract.js'
export { RawConnection, type RawResponse, rawRequest, trickledPost } from './raw-connection.js'
export { killBuiltEntries } from './running-children.js'
export { ScrapedMetrics } from './scraped-metrics.js'
export { SmallDisk } from './small-disk.js'
export { type StopDuringTrickle, stopDuringTrickle } from './stop-during-trickle.js'
export type { TestTls } from './tls.global-setup.js'
export { type AssetsOption, assetsOf } from './worker-assets.js'
export {
  analyticsEngineStandIn,
  consoleObjectsIn,
  type DataPoint,
  dataPointsIn,
} from './worker-console.js'
export { WranglerDev, type WranglerDevOptions } from './wrangler-dev.js'

// npm run issuer: an OpenID Provider on this machine, for trying a signed-in app without an
// account anywhere (docs/tutorial.md, §5). It is node-oidc-provider, a certified provider, with
// its development login: any name and any password sign in, as a user of that name. For
// development only: its signing keys are the library's development keys and its sessions live in
// memory, so every start forgets them.
//
// ISSUER_PORT (4400), CLIENT_ID (my-app), REDIRECT_URIS (the tutorial's app and the service's
// own page, comma-separated) and AUDIENCE (urn:items-service: ITEMS_JWT_AUDIENCE) tune it.
import { createServer } from 'node:http'
import Provider from 'oidc-provider'

const port = Number(process.env.ISSUER_PORT ?? 4400)
const issuer = `http://127.0.0.1:${port}`
const clientId = process.env.CLIENT_ID ?? 'my-app'
const audience = process.env.AUDIENCE ?? 'urn:items-service'
const redirectUris = (
  process.env.REDIRECT_URIS ?? 'http://localhost:5173/signed-in.html,http://localhost:4000/'
).split(',')

const provider = new Provider(issuer, {
  clients: [
    {
      // A browser app: a public client, signing in with the code flow and PKCE.
      client_id: clientId,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: redirectUris,
      post_logout_redirect_uris: redirectUris,
    },
  ],
  findAccount: (_context, sub) => ({
    accountId: sub,
    claims: () => ({ sub, name: sub, email: `${sub}@example.test` }),
  }),
  claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
  scopes: ['openid', 'profile', 'email'],
  features: {
    devInteractions: { enabled: true },
    // Access tokens are JWTs for the service (its audience), which it verifies with the keys
    // this provider publishes.
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'openid profile email',
        audience,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 3600,
      }),
    },
  },
  // The app's page is on another origin: its calls to the token endpoint are CORS.
  clientBasedCORS: () => true,
})

createServer(provider.callback()).listen(port, '127.0.0.1', () => {
  console.log(`OpenID issuer on ${issuer} (client ${clientId}; any name and password sign in)`)
})

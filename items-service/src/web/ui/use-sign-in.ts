import { useEffect, useState } from 'hono/jsx/dom'
import type { User, UserManager } from 'oidc-client-ts'
import { Refusal } from './api-error.js'
import type { Write } from './api-key.js'
import { ItemsApiError, type ItemsClient } from './items-api.js'
import { callbackOf, type SignedInUser, type SignInSettings } from './sign-in.js'
import { writeRefusal } from './write-refusal.js'

/** A user's token, or none: what the page's client sends with its writes. */
export type CurrentToken = () => Promise<string | undefined>

function signedInUserOf(user: User | null): SignedInUser | null {
  if (!user) return null
  const { sub, name, preferred_username: userName, email } = user.profile
  return { sub, name: name ?? userName ?? email ?? sub, email }
}

/**
 * The page's sign-in, where the service names an issuer (`settings`): who is signed in, the
 * sign-in and sign-out (redirects to the issuer and back, handled here when the page loads on
 * the way back), and `write`, which sends a request with the user's access token and words a
 * refusal (`writeRefusal`); a 401 also shows in the sign-in bar, beside Sign in (again).
 * Without `settings`, none of it: `enabled` is false.
 * @param clientWith a client that sends the token `token` answers with its writes
 */
export function useSignIn(
  settings: SignInSettings | undefined,
  clientWith: (token: CurrentToken) => ItemsClient,
) {
  // Loaded with the page's first render, in a chunk of its own (user-manager.ts).
  const [manager] = useState<Promise<UserManager> | undefined>(
    () =>
      settings &&
      import('./user-manager.js').then(({ userManagerFor }) => userManagerFor(settings)),
  )
  const [user, setUser] = useState<SignedInUser | null>(null)
  const [loading, setLoading] = useState(settings !== undefined)
  /** Why the user must sign in (again): a failed sign-in, a refused token. */
  const [problem, setProblem] = useState('')
  const [client] = useState(() =>
    clientWith(async () => (await (await manager)?.getUser())?.access_token ?? undefined),
  )

  useEffect(() => {
    if (!manager) return
    void manager
      .then(async (users) => {
        await finishRedirect(users)
        setUser(signedInUserOf(await users.getUser()))
      })
      .catch((error: unknown) => {
        setProblem(`Sign-in failed: ${error instanceof Error ? error.message : String(error)}`)
      })
      .finally(() => setLoading(false))
  }, [])

  const write: Write = async (request) => {
    try {
      return await request(client)
    } catch (error) {
      const refusal = writeRefusal(error, (await (await manager)?.getUser()) != null)
      if (refusal === undefined) throw error
      if (error instanceof ItemsApiError && error.status === 401) setProblem(refusal)
      throw new Refusal(refusal)
    }
  }

  return {
    enabled: manager !== undefined,
    user,
    loading,
    problem,
    write,
    /** Whether the user may change `owner`'s item: their own only. */
    owns: (owner: string | undefined) => user !== null && owner === user.sub,
    signIn: async () => {
      setProblem('')
      await (await manager)?.signinRedirect()
    },
    signOut: async () => {
      const users = await manager
      if (!users) return
      setUser(null)
      // At the issuer too where it has an end-session endpoint, else in this tab only.
      try {
        await users.signoutRedirect()
      } catch {
        await users.removeUser()
      }
    },
  }
}

/** Ends the sign-in or sign-out this page load returns from, and drops its query from the URL. */
async function finishRedirect(manager: UserManager): Promise<void> {
  const callback = callbackOf(window.location.href)
  if (!callback) return
  try {
    if (callback === 'sign-in') await manager.signinRedirectCallback()
    else await manager.signoutRedirectCallback()
  } finally {
    window.history.replaceState(null, '', window.location.pathname)
  }
}

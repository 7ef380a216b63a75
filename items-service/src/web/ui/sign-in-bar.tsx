/** @jsxImportSource hono/jsx/dom */
import type { SignedInUser } from './sign-in.js'

type Props = {
  user: SignedInUser | null
  /** The way back from the issuer is still being handled. */
  loading: boolean
  /** Why the user must sign in (again), if they must. */
  problem: string
  onSignIn: () => void
  onSignOut: () => void
}

/**
 * Who is signed in (their name, email and `sub`) with Sign out, or Sign in; and why a sign-in
 * is needed when a write was refused for it.
 */
export function SignInBar({ user, loading, problem, onSignIn, onSignOut }: Props) {
  return (
    <section class="card sign-in" aria-label="Sign-in">
      {loading ? (
        <p class="hint">Signing in…</p>
      ) : user ? (
        <p class="signed-in">
          Signed in as <strong>{user.name}</strong>
          {user.email && user.email !== user.name ? ` (${user.email})` : ''}{' '}
          <span class="hint">
            user <code>{user.sub}</code>
          </span>
        </p>
      ) : (
        <p class="hint">Sign in to add movies and to change or delete the ones you added.</p>
      )}
      {!loading && (
        <div class="sign-in-actions">
          {(!user || problem) && (
            <button type="button" onClick={onSignIn}>
              {user ? 'Sign in again' : 'Sign in'}
            </button>
          )}
          {user && (
            <button type="button" class="secondary" onClick={onSignOut}>
              Sign out
            </button>
          )}
        </div>
      )}
      <p class="message error" role="alert">
        {problem}
      </p>
    </section>
  )
}

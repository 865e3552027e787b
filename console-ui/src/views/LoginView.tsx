import { useState, type FormEvent } from 'react';
import { Api, ApiError, describeError } from '../api/client';
import { Banner } from '../components/Banner';

/** Sign-in with an API token; the token is checked against the project before it is kept. */
export function LoginView({
  project: initialProject,
  reason,
  onSignedIn,
}: {
  project: string;
  reason: string | null;
  onSignedIn: (token: string, project: string) => void;
}) {
  const [token, setToken] = useState('');
  const [project, setProject] = useState(initialProject);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await new Api(token.trim()).getProject(project.trim());
      onSignedIn(token.trim(), project.trim());
    } catch (err) {
      setError(explain(err, project.trim()));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login">
      <form className="card login-card" onSubmit={submit}>
        <h1 className="login-brand">Tributary</h1>
        <p className="muted">Sign in with an API token of your project. It is kept only until you close this tab.</p>
        {reason && <Banner tone="warn">{reason}</Banner>}
        {error && <Banner>{error}</Banner>}
        <label className="field">
          <span>API token</span>
          <input
            name="token"
            type="password"
            autoComplete="off"
            placeholder="trb_…"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
            autoFocus
          />
        </label>
        <label className="field">
          <span>Project</span>
          <input name="project" value={project} onChange={(e) => setProject(e.target.value)} required />
        </label>
        <button className="btn btn-primary btn-wide" type="submit" disabled={busy || !token.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}

function explain(error: unknown, project: string): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return `The token was not accepted: ${error.message}. Check that you copied it whole.`;
    if (error.status === 403) return `The token cannot open project "${project}": ${error.message}.`;
    if (error.status === 404) return `There is no project "${project}". Check its name.`;
  }
  return describeError(error);
}

import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Api, type ApiError } from './api/client';
import { ApiContext } from './api/context';
import { Banner } from './components/Banner';
import { clearToken, loadProject, loadToken, saveProject, saveToken } from './lib/session';
import { formatRoute, navigate, useRoute, type Route } from './lib/route';
import { Shell } from './views/Shell';
import { LoginView } from './views/LoginView';
import { JobsView } from './views/JobsView';
import { JobView } from './views/JobView';

// The editor (CodeMirror, the YAML parser) loads when first opened.
const EditorView = lazy(() => import('./views/EditorView').then((m) => ({ default: m.EditorView })));

export function App() {
  const [token, setToken] = useState<string | null>(() => loadToken());
  const [signedOutReason, setSignedOutReason] = useState<string | null>(null);
  const route = useRoute(loadProject());
  const project = route.kind === 'notFound' ? loadProject() : route.project;

  const signOut = useCallback((reason: string | null) => {
    clearToken();
    setToken(null);
    setSignedOutReason(reason);
  }, []);

  const api = useMemo(
    () =>
      token
        ? new Api(token, {
            onUnauthorized: (e: ApiError) => signOut(`The server no longer accepts your token (${e.message}). Sign in again.`),
          })
        : null,
    [token, signOut],
  );

  useEffect(() => saveProject(project), [project]);

  if (!api) {
    return (
      <LoginView
        project={project}
        reason={signedOutReason}
        onSignedIn={(newToken, newProject) => {
          saveToken(newToken);
          saveProject(newProject);
          setSignedOutReason(null);
          setToken(newToken);
          if (newProject !== project || route.kind === 'notFound') navigate({ kind: 'jobs', project: newProject });
        }}
      />
    );
  }

  return (
    <ApiContext.Provider value={api}>
      <Shell project={project} onSignOut={() => signOut(null)}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Page route={route} />
        </Suspense>
      </Shell>
    </ApiContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.kind) {
    case 'jobs':
      return <JobsView project={route.project} />;
    case 'job':
      return <JobView key={`${route.project}/${route.name}`} project={route.project} name={route.name} tab={route.tab} />;
    case 'edit':
      return <EditorView key={`edit/${route.project}/${route.name}`} project={route.project} name={route.name} />;
    case 'new':
      return <EditorView key={`new/${route.project}`} project={route.project} name={null} />;
    case 'notFound':
      return (
        <Banner tone="warn" title="No such page.">
          <a href={formatRoute({ kind: 'jobs', project: loadProject() })}>Go to the jobs</a>.
        </Banner>
      );
  }
}

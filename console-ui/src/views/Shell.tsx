import { useEffect, useState, type ReactNode } from 'react';
import { useApi } from '../api/context';
import { formatRoute, navigate } from '../lib/route';

/** The frame of every signed-in page: brand, project selector, new-job button, sign-out. */
export function Shell({ project, onSignOut, children }: { project: string; onSignOut: () => void; children: ReactNode }) {
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href={formatRoute({ kind: 'jobs', project })}>
          <svg viewBox="0 0 32 32" width="22" height="22" aria-hidden="true">
            <path d="M4 8c8 0 8 8 16 8h8M4 24c8 0 8-8 16-8" stroke="currentColor" strokeWidth="4" fill="none" strokeLinecap="round" />
          </svg>
          Tributary
        </a>
        <nav className="topnav">
          <a href={formatRoute({ kind: 'jobs', project })}>Jobs</a>
        </nav>
        <div className="topbar-right">
          <ProjectSelector project={project} />
          <a className="btn btn-primary" href={formatRoute({ kind: 'new', project })}>
            New job
          </a>
          <button type="button" className="btn btn-ghost" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}

function ProjectSelector({ project }: { project: string }) {
  const api = useApi();
  const [projects, setProjects] = useState<string[] | null>(null);
  useEffect(() => {
    let alive = true;
    api
      .listProjects()
      .then((list) => alive && setProjects(list.items.map((p) => p.name)))
      .catch(() => alive && setProjects([]));
    return () => {
      alive = false;
    };
  }, [api]);
  const names = [...new Set([...(projects ?? []), project])].sort();
  return (
    <label className="project-select">
      <span className="muted small">Project</span>
      <select
        aria-label="Project"
        value={project}
        onChange={(e) => navigate({ kind: 'jobs', project: e.target.value })}
        disabled={names.length < 2}
      >
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}

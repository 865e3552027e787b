import { useEffect, useState } from 'react';

export const JOB_TABS = ['overview', 'checkpoints', 'events', 'output', 'spec'] as const;
export type JobTab = (typeof JOB_TABS)[number];

/**
 * The console's pages, addressed by the URL's hash (`#/jobs/default/my-job`) so the server serves
 * one index.html and needs no SPA fallback.
 */
export type Route =
  | { kind: 'jobs'; project: string }
  | { kind: 'job'; project: string; name: string; tab: JobTab }
  | { kind: 'edit'; project: string; name: string }
  | { kind: 'new'; project: string }
  | { kind: 'notFound'; hash: string };

export function parseRoute(hash: string, defaultProject: string): Route {
  const path = hash.replace(/^#\/?/, '').replace(/\/+$/, '');
  const parts = path === '' ? [] : path.split('/').map(decodeURIComponent);
  const [head, project, name, tab] = parts;
  if (parts.length === 0) return { kind: 'jobs', project: defaultProject };
  if (head === 'jobs' && project !== undefined) {
    if (name === undefined) return { kind: 'jobs', project };
    if (tab === undefined) return { kind: 'job', project, name, tab: 'overview' };
    if (tab === 'edit' && parts.length === 4) return { kind: 'edit', project, name };
    if ((JOB_TABS as readonly string[]).includes(tab) && parts.length === 4) {
      return { kind: 'job', project, name, tab: tab as JobTab };
    }
  }
  if (head === 'new' && project !== undefined && parts.length === 2) return { kind: 'new', project };
  return { kind: 'notFound', hash };
}

export function formatRoute(route: Route): string {
  const e = encodeURIComponent;
  switch (route.kind) {
    case 'jobs':
      return `#/jobs/${e(route.project)}`;
    case 'job':
      return `#/jobs/${e(route.project)}/${e(route.name)}${route.tab === 'overview' ? '' : `/${route.tab}`}`;
    case 'edit':
      return `#/jobs/${e(route.project)}/${e(route.name)}/edit`;
    case 'new':
      return `#/new/${e(route.project)}`;
    case 'notFound':
      return route.hash;
  }
}

export const jobHref = (project: string, name: string, tab: JobTab = 'overview') =>
  formatRoute({ kind: 'job', project, name, tab });

export function navigate(route: Route): void {
  window.location.hash = formatRoute(route);
}

/** The current route, following hash changes. */
export function useRoute(defaultProject: string): Route {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash, defaultProject);
}

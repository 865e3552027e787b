import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, type Route } from './route';

describe('routes', () => {
  it('round-trips every page through the hash', () => {
    const routes: Route[] = [
      { kind: 'jobs', project: 'default' },
      { kind: 'job', project: 'default', name: 'my-job', tab: 'overview' },
      { kind: 'job', project: 'analytics', name: 'clicks', tab: 'checkpoints' },
      { kind: 'edit', project: 'default', name: 'my-job' },
      { kind: 'new', project: 'default' },
    ];
    for (const route of routes) expect(parseRoute(formatRoute(route), 'default')).toEqual(route);
    expect(formatRoute(routes[1]!)).toBe('#/jobs/default/my-job');
  });

  it('opens the default project’s jobs at the root and flags unknown pages', () => {
    expect(parseRoute('', 'analytics')).toEqual({ kind: 'jobs', project: 'analytics' });
    expect(parseRoute('#/', 'default')).toEqual({ kind: 'jobs', project: 'default' });
    expect(parseRoute('#/jobs/default/a/nope', 'default').kind).toBe('notFound');
  });
});

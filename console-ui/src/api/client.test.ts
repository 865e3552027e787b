import { describe, expect, it, vi } from 'vitest';
import { Api, ApiError, describeError } from './client';

function respond(status: number, body: unknown, contentType = 'application/json') {
  return vi.fn<typeof fetch>(async () =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': contentType } }),
  );
}

describe('Api', () => {
  it('sends the bearer token and conditional headers', async () => {
    const fetch = respond(200, { name: 'a' });
    await new Api('trb_secret', { fetch }).applyJob('default', 'a', { spec: { name: 'a', sources: {}, sinks: {} } }, { ifMatch: 7 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/v1/projects/default/jobs/a');
    expect(init?.method).toBe('PUT');
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer trb_secret', 'If-Match': '"7"', 'Content-Type': 'application/json' });
  });

  it('follows job list pages', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(Response.json({ items: [{ name: 'a' }], nextPageToken: 'p2' }))
      .mockResolvedValueOnce(Response.json({ items: [{ name: 'b' }] }));
    const jobs = await new Api('t', { fetch }).listJobs('default');
    expect(jobs.map((j) => j.name)).toEqual(['a', 'b']);
    expect(fetch.mock.calls[1]![0]).toBe('/v1/projects/default/jobs?pageSize=500&pageToken=p2');
  });

  it('turns problem+json into an ApiError with its detail and field errors', async () => {
    const problem = {
      type: 'urn:tributary:problem:invalid-spec',
      title: 'Invalid job spec',
      status: 422,
      detail: 'the spec has 1 error',
      errors: [{ pointer: '/spec/name', message: 'is required' }],
    };
    const error = await new Api('t', { fetch: respond(422, problem, 'application/problem+json') })
      .plan('default', { name: '', sources: {}, sinks: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('the spec has 1 error');
    expect((error as ApiError).fieldErrors).toEqual(problem.errors);
  });

  it('reports a rejected token', async () => {
    const onUnauthorized = vi.fn();
    const fetch = respond(401, { type: 'x', title: 'Unauthorized', status: 401, detail: 'the bearer token is revoked' }, 'application/problem+json');
    await expect(new Api('t', { fetch, onUnauthorized }).getJob('default', 'a')).rejects.toThrow('the bearer token is revoked');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('describes errors without stack traces', async () => {
    const error = await new Api('t', { fetch: vi.fn(async () => new Response('<html>', { status: 502, statusText: 'Bad Gateway' })) })
      .getJob('default', 'a')
      .catch((e: unknown) => e);
    expect(describeError(error)).toBe('The server answered 502 Bad Gateway');
    expect(describeError(new TypeError('Failed to fetch'))).toMatch(/^Cannot reach the Tributary server/);
  });
});

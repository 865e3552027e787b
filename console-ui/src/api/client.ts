import type {
  CheckpointList,
  ExecutionPlan,
  Job,
  JobApply,
  JobEventList,
  JobList,
  JobMetrics,
  JobSpec,
  Problem,
  Project,
  ProjectList,
  RestorePolicy,
  Savepoint,
  SavepointList,
} from './types';

/** An answer of the API that was not a success, with its problem+json body when it had one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The field errors of a validation problem (422, or 409 with pointers), else none. */
  get fieldErrors() {
    return this.problem?.errors ?? [];
  }
}

export interface ApiOptions {
  /** Prefix of every request path; '' for the server the console is served from. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Called when the server rejects the token (401), after the request failed. */
  onUnauthorized?: (error: ApiError) => void;
}

const seg = encodeURIComponent;

/** The Tributary REST API (openapi/tributary.yaml) as the console uses it. */
export class Api {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;

  constructor(
    private readonly token: string,
    private readonly options: ApiOptions = {},
  ) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  }

  listProjects(): Promise<ProjectList> {
    return this.json('GET', '/v1/projects?pageSize=500');
  }

  getProject(project: string): Promise<Project> {
    return this.json('GET', `/v1/projects/${seg(project)}`);
  }

  /** Every job of the project, following the pages. */
  async listJobs(project: string): Promise<Job[]> {
    const jobs: Job[] = [];
    let pageToken: string | undefined;
    do {
      const query = `pageSize=500${pageToken ? `&pageToken=${seg(pageToken)}` : ''}`;
      const page: JobList = await this.json('GET', `${this.jobsPath(project)}?${query}`);
      jobs.push(...page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return jobs;
  }

  getJob(project: string, name: string): Promise<Job> {
    return this.json('GET', this.jobPath(project, name));
  }

  /** Creates or updates a job. `ifMatch` is a job version; `createOnly` refuses to overwrite. */
  applyJob(
    project: string,
    name: string,
    body: JobApply,
    conditions: { ifMatch?: number; createOnly?: boolean } = {},
  ): Promise<Job> {
    const headers: Record<string, string> = {};
    if (conditions.ifMatch !== undefined) headers['If-Match'] = `"${conditions.ifMatch}"`;
    if (conditions.createOnly) headers['If-None-Match'] = '*';
    return this.json('PUT', this.jobPath(project, name), body, headers);
  }

  plan(project: string, spec: JobSpec): Promise<ExecutionPlan> {
    return this.json('POST', `/v1/projects/${seg(project)}/plans`, { spec });
  }

  /** The dry run of a SQL job; `name` names it unless its text does (`SET 'name' = '...'`). */
  planSql(project: string, sql: string, name?: string): Promise<ExecutionPlan> {
    return this.json('POST', `/v1/projects/${seg(project)}/plans`, name ? { sql, name } : { sql });
  }

  stop(project: string, name: string, savepoint: boolean): Promise<Job> {
    return this.json('POST', `${this.jobPath(project, name)}/stop`, { savepoint });
  }

  resume(project: string, name: string, policy: RestorePolicy): Promise<Job> {
    return this.json('POST', `${this.jobPath(project, name)}/resume`, policy);
  }

  rescale(project: string, name: string, parallelism: number): Promise<Job> {
    return this.json('POST', `${this.jobPath(project, name)}/rescale`, { parallelism });
  }

  triggerSavepoint(project: string, name: string): Promise<Savepoint> {
    return this.json('POST', `${this.jobPath(project, name)}/savepoints`);
  }

  /** Deletes a savepoint and its directory; 409 while the job would restore it. */
  deleteSavepoint(project: string, name: string, savepointId: string): Promise<void> {
    return this.json('DELETE', `${this.jobPath(project, name)}/savepoints/${seg(savepointId)}`);
  }

  listCheckpoints(project: string, name: string): Promise<CheckpointList> {
    return this.json('GET', `${this.jobPath(project, name)}/checkpoints?pageSize=20`);
  }

  listSavepoints(project: string, name: string): Promise<SavepointList> {
    return this.json('GET', `${this.jobPath(project, name)}/savepoints?pageSize=50`);
  }

  listEvents(project: string, name: string): Promise<JobEventList> {
    return this.json('GET', `${this.jobPath(project, name)}/events?pageSize=50`);
  }

  getMetrics(project: string, name: string): Promise<JobMetrics> {
    return this.json('GET', `${this.jobPath(project, name)}/metrics`);
  }

  /** Opens the live output stream (text/event-stream); the caller reads and closes the body. */
  async openOutput(project: string, name: string, operatorId: string | null, signal: AbortSignal): Promise<Response> {
    const query = operatorId ? `?operator=${seg(operatorId)}` : '';
    const response = await this.request('GET', `${this.jobPath(project, name)}/output${query}`, undefined, {
      Accept: 'text/event-stream',
    }, signal);
    if (!response.body) throw new ApiError(response.status, null, 'The server sent no output stream.');
    return response;
  }

  private jobsPath(project: string) {
    return `/v1/projects/${seg(project)}/jobs`;
  }

  private jobPath(project: string, name: string) {
    return `${this.jobsPath(project)}/${seg(name)}`;
  }

  private async json<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await this.request(method, path, body, { Accept: 'application/json', ...headers });
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  private async request(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    const init: RequestInit = {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    };
    const response = await this.fetchFn(this.baseUrl + path, init);
    if (response.ok) return response;
    const error = await toApiError(response);
    if (response.status === 401) this.options.onUnauthorized?.(error);
    throw error;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let problem: Problem | null = null;
  const type = response.headers.get('Content-Type') ?? '';
  if (type.includes('json')) {
    try {
      problem = (await response.json()) as Problem;
    } catch {
      problem = null;
    }
  }
  const message =
    problem?.detail ?? problem?.title ?? `The server answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, problem, message);
}

/** A sentence to show the user for any error: the problem's detail, never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof DOMException && error.name === 'AbortError') return 'The request was cancelled.';
  if (error instanceof TypeError) {
    return 'Cannot reach the Tributary server. Check that it is running and that this page is served by it, then retry.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong; retry, and check the server log if it persists.';
}

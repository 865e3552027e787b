// The API token lives only for the browser session (sessionStorage): closing the tab signs out.
const TOKEN_KEY = 'tributary.token';
const PROJECT_KEY = 'tributary.project';

export const DEFAULT_PROJECT = 'default';

export function loadToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export function loadProject(): string {
  return sessionStorage.getItem(PROJECT_KEY) ?? DEFAULT_PROJECT;
}

export function saveProject(project: string): void {
  sessionStorage.setItem(PROJECT_KEY, project);
}

import { createContext, useContext } from 'react';
import type { Api } from './client';

export const ApiContext = createContext<Api | null>(null);

/** The signed-in API client; only rendered inside the signed-in shell. */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside the signed-in console');
  return api;
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client';

export interface Polled<T> {
  data: T | null;
  /** The last poll's error, as a sentence for the user; cleared by the next success. */
  error: string | null;
  loading: boolean;
  refresh: () => void;
}

/**
 * Calls `load` now and then every `intervalMs` after the previous call settled (polls never
 * overlap), while the component is mounted. Changing `key` starts over.
 */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, key: string): Polled<T> {
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null; loading: boolean }>({
    key,
    data: null,
    error: null,
    loading: true,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  const wake = useRef<() => void>(() => undefined);

  useEffect(() => {
    let alive = true;
    let inFlight = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ key, data: null, error: null, loading: true });
    const tick = async () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      clearTimeout(timer);
      try {
        const data = await loadRef.current();
        if (alive) setState({ key, data, error: null, loading: false });
      } catch (e) {
        if (alive) setState((s) => ({ ...s, key, error: describeError(e), loading: false }));
      } finally {
        inFlight = false;
      }
      if (!alive) return;
      if (again) {
        again = false;
        void tick();
      } else {
        timer = setTimeout(tick, intervalMs);
      }
    };
    wake.current = () => void tick();
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [key, intervalMs]);

  const refresh = useCallback(() => wake.current(), []);
  const current = state.key === key ? state : { data: null, error: null, loading: true };
  return { data: current.data, error: current.error, loading: current.loading, refresh };
}

/** The current time, updated every `intervalMs`, for relative ages ("12 s ago"). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

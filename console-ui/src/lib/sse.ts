// Server-sent events read with fetch(), because EventSource cannot send an Authorization header.
// The parser follows the WHATWG "event stream interpretation" rules.

export interface SseEvent {
  /** The `event:` field; "message" when absent. */
  event: string;
  /** The `data:` lines joined by "\n". */
  data: string;
  /** The last `id:` seen on the stream, if any. */
  id?: string;
  /** A `retry:` reconnection delay in milliseconds, if this event carried one. */
  retry?: number;
}

/**
 * An incremental SSE parser: feed it text as it arrives, in chunks split anywhere (even inside a
 * line or between "\r" and "\n"), and it returns the events each chunk completed.
 */
export class SseParser {
  private buffer = '';
  private pendingCr = false;
  private eventType = '';
  private data: string[] = [];
  private hasData = false;
  private lastId: string | undefined;
  private retry: number | undefined;
  private firstChunk = true;

  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.firstChunk && text.length > 0) {
      this.firstChunk = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;

    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      const line = this.buffer.slice(start, i);
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    const event: SseEvent | null = this.hasData
      ? {
          event: this.eventType || 'message',
          data: this.data.join('\n'),
          ...(this.lastId !== undefined ? { id: this.lastId } : {}),
          ...(this.retry !== undefined ? { retry: this.retry } : {}),
        }
      : null;
    this.eventType = '';
    this.data = [];
    this.hasData = false;
    this.retry = undefined;
    return event;
  }
}

/**
 * Reads a text/event-stream response body to its end (or until `signal` aborts), calling
 * `onEvent` for every event. Resolves when the server closes the stream.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
    // A stream that ends without a blank line drops its last, incomplete event (per the spec).
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

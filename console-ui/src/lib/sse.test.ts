import { describe, expect, it } from 'vitest';
import { readSse, SseParser, type SseEvent } from './sse';
import { keepNewest, recordOf } from './output';

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
}

describe('SseParser', () => {
  it('parses named events with JSON data', () => {
    const events = parseAll(['event: record\ndata: {"operatorId":"out","at":"2026-05-01T10:00:00Z","value":{"n":1}}\n\n']);
    expect(events).toEqual([{ event: 'record', data: '{"operatorId":"out","at":"2026-05-01T10:00:00Z","value":{"n":1}}' }]);
  });

  it('defaults the event name to message and joins data lines with newlines', () => {
    expect(parseAll(['data: a\ndata: b\n\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('assembles events split anywhere across chunks', () => {
    const text = 'event: record\ndata: {"x":1}\n\nevent: record\ndata: {"x":2}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const events = parseAll([text.slice(0, cut), text.slice(cut)]);
      expect(events.map((e) => e.data)).toEqual(['{"x":1}', '{"x":2}']);
    }
  });

  it('accepts CRLF and CR line endings, even with CR and LF in different chunks', () => {
    expect(parseAll(['data: one\r\n\r\ndata: two\r\r'])).toEqual([
      { event: 'message', data: 'one' },
      { event: 'message', data: 'two' },
    ]);
    expect(parseAll(['data: x\r', '\n\r', '\n'])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('ignores comments, unknown fields and events without data', () => {
    expect(parseAll([': heartbeat\n\nfoo: bar\nevent: ping\n\ndata:no-space\n\n'])).toEqual([
      { event: 'message', data: 'no-space' },
    ]);
  });

  it('keeps only the first space after the colon, and a field without colon is empty', () => {
    expect(parseAll(['data:  two spaces\ndata\n\n'])).toEqual([{ event: 'message', data: ' two spaces\n' }]);
  });

  it('remembers the last id and reports retry', () => {
    expect(parseAll(['id: 7\nretry: 3000\ndata: a\n\ndata: b\n\n'])).toEqual([
      { event: 'message', data: 'a', id: '7', retry: 3000 },
      { event: 'message', data: 'b', id: '7' },
    ]);
  });

  it('strips a leading byte order mark and holds back an unterminated event', () => {
    const parser = new SseParser();
    expect(parser.push('\uFEFFdata: a\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'a' }]);
    expect(parser.push('data: incomplete')).toEqual([]);
  });
});

describe('readSse', () => {
  it('decodes a byte stream split inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('event: record\ndata: {"city":"Zürich"}\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSse(body, (e) => events.push(e));
    expect(events).toEqual([{ event: 'record', data: '{"city":"Zürich"}' }]);
  });

  it('stops reading when aborted', async () => {
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: first\n\n'));
      },
    });
    const events: SseEvent[] = [];
    const done = readSse(body, (e) => {
      events.push(e);
      abort.abort();
    }, abort.signal);
    await done;
    expect(events.map((e) => e.data)).toEqual(['first']);
  });
});

describe('output records', () => {
  it('takes records from record events only', () => {
    expect(recordOf({ event: 'heartbeat', data: '{}' })).toBeNull();
    expect(recordOf({ event: 'record', data: 'not json' })).toBeNull();
    expect(recordOf({ event: 'record', data: '{"operatorId":"out","at":"2026-05-01T10:00:00Z","value":{"n":1}}' })).toEqual({
      operatorId: 'out',
      at: '2026-05-01T10:00:00Z',
      value: { n: 1 },
    });
  });

  it('keeps the newest records first, up to the limit', () => {
    const r = (n: number) => ({ operatorId: 'out', at: `t${n}`, value: { n } });
    const kept = keepNewest([r(2), r(1)], [r(3), r(4), r(5)], 4);
    expect(kept.map((x) => x.value.n)).toEqual([5, 4, 3, 2]);
  });
});

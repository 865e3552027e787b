package io.tributary.state.heap;

import java.io.IOException;

/** The kinds of heap state, with the tag that identifies them in snapshots (stable: never reorder). */
enum HeapStateKind {
  VALUE,
  LIST,
  MAP,
  WINDOW;

  byte tag() {
    return (byte) ordinal();
  }

  static HeapStateKind fromTag(byte tag) throws IOException {
    HeapStateKind[] all = values();
    if (tag < 0 || tag >= all.length) {
      throw new IOException("unknown heap state kind tag " + tag);
    }
    return all[tag];
  }
}

package io.tributary.connectors.file;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.connectors.json.MalformedRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import io.tributary.connect.StorageRoots;
import java.nio.file.StandardOpenOption;

/**
 * Reads one file's JSON lines; opens the file on the first read.
 *
 * <p>Lines end at {@code \n}, {@code \r\n} or a lone {@code \r} (as {@link
 * java.io.BufferedReader#readLine}); the last line needs no terminator. The reader counts bytes
 * itself, so {@link #position()} is the exact byte offset after the last line consumed (handed out
 * or skipped as blank), and {@link FileSource#open(io.tributary.connect.SourceSplit, String)}
 * resumes there. A line that is not valid UTF-8 is reported as malformed.
 */
final class FileSplitReader implements SplitReader {
  private static final int BUFFER = 64 * 1024;

  private final String sourceId;
  private final Path file;
  private final ByteBuffer buffer;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT);
  private FileChannel channel;
  /** Byte offset after the last complete line consumed: what {@link #position()} returns. */
  private long offset;
  private StorageRoots roots = StorageRoots.unrestricted();
  private boolean eof;
  private boolean ended;

  FileSplitReader(String sourceId, Path file) {
    this(sourceId, file, 0);
  }

  /** A reader starting at byte {@code offset}, which must be the start of a line. */
  FileSplitReader(String sourceId, Path file, long offset) {
    this(sourceId, file, offset, BUFFER);
  }

  /** A reader that checks {@code file} against {@code roots} when it opens it. */
  FileSplitReader(String sourceId, Path file, long offset, StorageRoots roots) {
    this(sourceId, file, offset, BUFFER);
    this.roots = roots;
  }

  /** As above with a buffer of {@code bufferSize} bytes (small ones for tests). */
  FileSplitReader(String sourceId, Path file, long offset, int bufferSize) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    this.sourceId = sourceId;
    this.file = file;
    this.offset = offset;
    this.buffer = ByteBuffer.allocate(bufferSize).flip();
  }

  @Override
  public int read(SplitOutput out, int max) {
    if (ended) {
      return END;
    }
    try {
      return readLines(out, max);
    } catch (IOException e) {
      throw new ConnectorException("file source '" + sourceId + "': cannot read " + file, e);
    }
  }

  @Override
  public String position() {
    return Long.toString(offset);
  }

  private int readLines(SplitOutput out, int max) throws IOException {
    if (channel == null) {
      open();
    }
    int n = 0;
    while (n < max) {
      if (!nextLine()) {
        close();
        ended = true;
        return n == 0 ? END : n;
      }
      if (emit(out)) {
        n++;
      }
    }
    return n;
  }

  private void open() throws IOException {
    // the real path, checked now and opened without following a link swapped in since
    Path real = roots.checkOpen(file);
    channel = FileChannel.open(real, StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    long size = channel.size();
    if (offset > size) {
      close();
      throw new ConnectorException("file source '" + sourceId + "': cannot resume " + file + " at byte "
          + offset + ": the file has only " + size + " bytes (was it replaced or truncated?)");
    }
    channel.position(offset);
  }

  /**
   * Reads the next line's bytes, without terminator, into {@link #line} and advances {@link
   * #offset} past it and its terminator; false at the end of the file.
   */
  private boolean nextLine() throws IOException {
    line.reset();
    long consumed = 0;
    boolean any = false;
    while (true) {
      if (!buffer.hasRemaining() && !fill()) {
        offset += consumed;
        return any;
      }
      any = true;
      byte[] b = buffer.array();
      int start = buffer.position();
      int end = buffer.limit();
      for (int i = start; i < end; i++) {
        if (b[i] == '\n' || b[i] == '\r') {
          line.write(b, start, i - start);
          buffer.position(i + 1);
          consumed += i - start + 1;
          if (b[i] == '\r' && (buffer.hasRemaining() || fill()) && b[buffer.position()] == '\n') {
            buffer.position(buffer.position() + 1);
            consumed++;
          }
          offset += consumed;
          return true;
        }
      }
      line.write(b, start, end - start);
      consumed += end - start;
      buffer.position(end);
    }
  }

  /** Refills the empty buffer; false at the end of the file. */
  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    buffer.clear();
    int r;
    do {
      r = channel.read(buffer);
    } while (r == 0);
    buffer.flip();
    if (r < 0) {
      eof = true;
      return false;
    }
    return true;
  }

  /** Hands out the current line unless it is blank; true when it did. */
  private boolean emit(SplitOutput out) {
    byte[] bytes = line.toByteArray();
    String text;
    try {
      text = utf8.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      out.malformed(new String(bytes, StandardCharsets.UTF_8), "invalid UTF-8");
      return true;
    }
    if (text.isBlank()) {
      return false;
    }
    try {
      out.record(JsonRecords.parse(text));
    } catch (MalformedRecordException e) {
      out.malformed(text, e.getMessage());
    }
    return true;
  }

  @Override
  public void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // read-only file: nothing is lost
      }
      channel = null;
    }
  }
}

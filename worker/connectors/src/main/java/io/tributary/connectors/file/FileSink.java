package io.tributary.connectors.file;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connect.StorageRoots;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sink writing JSON lines into the directory {@code path} (created when missing), committing by
 * rename (contract C10).
 *
 * <p>Visibility contract: committed output is exactly the files named {@code
 * part-<subtask>-<attempt>-<seq>.jsonl}. A writer of subtask {@code s} in restart attempt {@code a}
 * writes into the hidden {@code .part-s-a-seq.jsonl.inprogress}. {@link SinkWriter#preCommit}
 * flushes, fsyncs and renames it to the hidden {@code .part-s-a-seq.jsonl.pending} and returns a
 * committable naming it; {@link #commit(List)} renames pending files to their visible names once
 * the checkpoint completed. {@link SinkWriter#commit()} (end of a bounded job) publishes at once
 * everything the writer wrote, pending or in progress. Every rename is atomic, so a reader never
 * sees a partial file. A writer never overwrites anything: its sequence numbers continue after the
 * highest one in the directory for its subtask and attempt, and attempts never share names.
 * {@link #recover} deletes the hidden files earlier attempts left that the restored checkpoint
 * does not commit; until then hidden files are never output.
 *
 * <p>A committable is a small JSON object {@code {"checkpoint": n, "files": [{"pending": ...,
 * "final": ...}, ...]}}. It lists the writer's new pending file and any earlier one of the same
 * writer that is still pending (whose checkpoint was aborted or is not yet committed), so that the
 * next completed checkpoint commits it too.
 */
public final class FileSink implements SinkConnector {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** Any file of this sink: group 1 the hidden dot, 2 subtask, 3 attempt, 4 seq, 5 hidden suffix. */
  private static final Pattern FILE =
      Pattern.compile("(\\.)?part-(\\d{1,9})-(\\d{1,18})-(\\d{1,18})\\.jsonl(\\.inprogress|\\.pending)?");

  private final String sinkId;
  private final Path declared;
  private final StorageRoots roots;
  private final boolean insertsAsChangelog;
  private Path dir;

  public FileSink(String sinkId, Path dir) {
    this(sinkId, dir, StorageRoots.unrestricted());
  }

  /**
   * @param roots where this sink may write: {@code dir} is checked (symbolic links followed) before
   *     anything is created, listed, renamed or deleted in it
   */
  public FileSink(String sinkId, Path dir, StorageRoots roots) {
    this(sinkId, dir, roots, false);
  }

  /**
   * @param insertsAsChangelog write each record with {@code _op: insert} in front: an append-only
   *     stream in the changelog form of an upsert stream (whose records carry {@code _op} already)
   */
  public FileSink(String sinkId, Path dir, StorageRoots roots, boolean insertsAsChangelog) {
    this.sinkId = sinkId;
    this.declared = dir;
    this.dir = dir;
    this.roots = roots;
    this.insertsAsChangelog = insertsAsChangelog;
  }

  /** The directory to work in, checked now; created if {@code create}. */
  private Path checkedDirectory(boolean create) throws IOException {
    Path real = roots.checkOpen(declared);
    if (create) {
      Files.createDirectories(real);
      real = roots.checkOpen(declared);
    }
    dir = roots.restricted() ? real : declared;
    return dir;
  }

  /** A writer of attempt 0. */
  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    return open(subtaskIndex, parallelism, 0);
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism, long attempt) {
    try {
      checkedDirectory(true);
      return new FileSinkWriter(sinkId, dir, subtaskIndex, attempt, nextSequence(subtaskIndex, attempt),
          insertsAsChangelog);
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot create directory " + dir, e);
    }
  }

  /**
   * Makes the pending files of {@code committables} visible. Idempotent: a file already visible is
   * fine; one that is neither pending nor visible fails, since a completed checkpoint's data would
   * be lost.
   */
  @Override
  public void commit(List<String> committables) {
    if (committables == null || committables.isEmpty()) {
      return;
    }
    try {
      checkedDirectory(false);
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot use directory " + declared, e);
    }
    for (String committable : committables) {
      if (committable == null) {
        continue;
      }
      for (String[] file : parse(committable)) {
        publish(sinkId, dir, dir.resolve(file[0]), dir.resolve(file[1]));
      }
    }
    syncDirectory(dir);
  }

  /**
   * Commits {@code committables}, then deletes every in-progress or pending file of this sink that
   * an attempt before {@code attempt} left (of any subtask, so {@code maxPreviousParallelism} is
   * not needed). Files of {@code attempt} itself and later are left alone.
   */
  @Override
  public void recover(List<String> committables, int maxPreviousParallelism, long attempt) {
    commit(committables);
    try {
      checkedDirectory(false);
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot use directory " + declared, e);
    }
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> stale = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Matcher m = FILE.matcher(f.getFileName().toString());
        if (m.matches() && m.group(1) != null && m.group(5) != null && Long.parseLong(m.group(3)) < attempt) {
          stale.add(f);
        }
      }
      for (Path f : stale) {
        Files.deleteIfExists(f);
      }
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot delete uncommitted files in " + dir, e);
    }
    syncDirectory(dir);
  }

  /** The committed file name of the {@code seq}-th file of a subtask in an attempt. */
  public static String partName(int subtask, long attempt, long seq) {
    return "part-" + subtask + "-" + attempt + "-" + seq + ".jsonl";
  }

  static String inProgressName(String partName) {
    return "." + partName + ".inprogress";
  }

  static String pendingName(String partName) {
    return "." + partName + ".pending";
  }

  /** The committable for pending files, each {pending name, final name}. */
  static String committable(long checkpointId, List<String[]> files) {
    ObjectNode root = JSON.createObjectNode().put("checkpoint", checkpointId);
    ArrayNode list = root.putArray("files");
    for (String[] f : files) {
      list.addObject().put("pending", f[0]).put("final", f[1]);
    }
    return root.toString();
  }

  /** The {pending, final} names of a committable, checked to be files of a file sink. */
  private List<String[]> parse(String committable) {
    List<String[]> out = new ArrayList<>();
    try {
      JsonNode files = JSON.readTree(committable).path("files");
      if (!files.isArray()) {
        throw badCommittable(committable, null);
      }
      for (JsonNode f : files) {
        String pending = f.path("pending").asText("");
        String fin = f.path("final").asText("");
        Matcher m = FILE.matcher(fin);
        if (!m.matches() || m.group(1) != null || m.group(5) != null || !pending.equals(pendingName(fin))) {
          throw badCommittable(committable, null);
        }
        out.add(new String[] {pending, fin});
      }
    } catch (IOException e) {
      throw badCommittable(committable, e);
    }
    return out;
  }

  private ConnectorException badCommittable(String committable, Exception cause) {
    return new ConnectorException("file sink '" + sinkId + "': not a committable of a file sink: " + committable, cause);
  }

  /**
   * Atomically renames {@code pending} to {@code visible}; fine when it already was, a failure
   * naming both when neither exists.
   */
  static void publish(String sinkId, Path dir, Path pending, Path visible) {
    try {
      Files.move(pending, visible, StandardCopyOption.ATOMIC_MOVE);
    } catch (NoSuchFileException e) {
      if (!Files.exists(visible)) {
        throw new ConnectorException("file sink '" + sinkId + "': cannot commit " + visible.getFileName()
            + ": neither it nor " + pending.getFileName() + " exists in " + dir
            + "; output of a completed checkpoint was lost (deleted by hand, or another job writes here?)", e);
      }
    } catch (IOException e) {
      throw new ConnectorException("file sink '" + sinkId + "': cannot commit " + pending + " as " + visible, e);
    }
  }

  /** Makes renames in {@code dir} durable where the platform can. */
  static void syncDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // not every platform can fsync a directory; the rename itself is atomic
    }
  }

  /** After the highest sequence number of any file (visible or hidden) of the subtask and attempt. */
  private long nextSequence(int subtask, long attempt) throws IOException {
    long next = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Matcher m = FILE.matcher(f.getFileName().toString());
        if (m.matches() && Integer.parseInt(m.group(2)) == subtask && Long.parseLong(m.group(3)) == attempt) {
          next = Math.max(next, Long.parseLong(m.group(4)) + 1);
        }
      }
    }
    return next;
  }
}

package io.hops.namenode.resolve;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * HDFS's virtual paths under {@code /.reserved} (FSDirectory.resolveComponents): {@code
 * /.reserved/.inodes/<id>[/rest]} names the inode with that id wherever it is now (what a {@code
 * PathHandle} that survives a rename opens), {@code /.reserved/.inodes/<id>/..} its parent, and
 * {@code /.reserved/raw/rest} is {@code /rest} (hops has no encryption zones, so raw bytes are the
 * bytes).
 *
 * <p>The lock order of docs/architecture.md, "Lock order" stays: the id is turned into a path
 * first, in its own read-committed transaction (one index read on {@code id}, then one per
 * directory above it); the operation then locks that path as usual, and its lock phase checks that
 * the inode found there still has the id ({@link #check}), else the caller translates again.
 */
public final class ReservedPaths {
  private static final String RESERVED = "/.reserved";
  private static final String INODES = RESERVED + "/.inodes/";
  private static final String RAW = RESERVED + "/raw";

  /** A translated path: its inode at {@code depth} must still have {@code id}. */
  public record Pin(String path, int depth, long id) {}

  /** The paths of {@code /.reserved/.inodes} translated for the current call. */
  private static final ThreadLocal<List<Pin>> PINS = ThreadLocal.withInitial(ArrayList::new);

  /** The lock phase met an inode other than the one a {@code /.reserved/.inodes} path named. */
  public static final class MovedException extends StorageException {
    private static final long serialVersionUID = 1L;

    MovedException(Pin pin) {
      super("inode " + pin.id() + " is no longer at " + pin.path());
    }
  }

  /** A translation: the ordinary path, and the pin to check, if any. */
  public record Translation(String path, Pin pin) {}

  private ReservedPaths() {}

  /** Whether {@code path} is one HDFS resolves specially: an inode-id or a raw path. */
  public static boolean isVirtual(String path) {
    return path != null
        && ((path.startsWith(INODES) && path.length() > INODES.length())
            || path.equals(RAW)
            || (path.startsWith(RAW + "/") && !path.equals(RAW + "/.reserved")));
  }

  /** Whether {@code path} is a {@code /.reserved/raw} path. */
  public static boolean isRaw(String path) {
    return path.equals(RAW) || path.startsWith(RAW + "/");
  }

  /**
   * The ordinary path {@code path} names now, with HDFS's errors for a bad or unknown id; {@code
   * path} unchanged if it is not virtual.
   */
  public static Translation translate(Storage storage, String path) throws IOException {
    if (!isVirtual(path)) {
      return new Translation(path, null);
    }
    String[] c = PathNames.components(path); // [".reserved", "raw"|".inodes", ...]
    if (c[1].equals("raw")) {
      return new Translation(join(c, 2, List.of()), null);
    }
    long id;
    try {
      id = Long.parseLong(c[2]);
    } catch (NumberFormatException e) {
      throw new FileNotFoundException("Invalid inode path: " + join(c, 0, List.of()));
    }
    if (id == Inodes.ROOT_ID && c.length == 3) {
      return new Translation("/", null);
    }
    try (Transaction tx = storage.begin()) {
      InodePaths paths = InodePaths.in(tx);
      InodeRow inode = paths.byId(id);
      String full = inode == null ? null : paths.pathOf(inode);
      if (full == null) {
        throw new FileNotFoundException(
            "File for given inode path does not exist: " + join(c, 0, List.of()));
      }
      List<String> names = List.of(PathNames.components(full));
      if (c.length > 3 && c[3].equals("..")) {
        // NFS's lookup of the parent: the parent's path, the root for the root or its children.
        if (names.size() <= 1) {
          return new Translation("/", null);
        }
        List<String> parent = names.subList(0, names.size() - 1);
        return new Translation(
            join(new String[0], 0, parent),
            new Pin(join(new String[0], 0, parent), parent.size(), inode.parentId()));
      }
      String base = join(new String[0], 0, names);
      return new Translation(join(c, 3, names), new Pin(base, names.size(), id));
    }
  }

  /** "/" + head + c[from..]. */
  private static String join(String[] c, int from, List<String> head) {
    StringBuilder sb = new StringBuilder();
    for (String n : head) {
      sb.append('/').append(n);
    }
    for (int i = from; i < c.length; i++) {
      sb.append('/').append(c[i]);
    }
    return sb.length() == 0 ? "/" : sb.toString();
  }

  /** Pins the translations of the current call (the lock phases check them). */
  public static void pin(List<Pin> pins) {
    PINS.get().clear();
    PINS.get().addAll(pins);
  }

  public static void unpin() {
    PINS.get().clear();
  }

  /** Throws {@link MovedException} if {@code p} passes a pinned path at another inode now. */
  public static void check(ResolvedPath p) throws MovedException {
    List<Pin> pins = PINS.get();
    if (pins.isEmpty()) {
      return;
    }
    for (Pin pin : pins) {
      if (p.path().equals(pin.path()) || p.path().startsWith(pin.path() + "/")) {
        if (p.inodes().size() <= pin.depth() || p.inodes().get(pin.depth()).id() != pin.id()) {
          throw new MovedException(pin);
        }
      }
    }
  }
}

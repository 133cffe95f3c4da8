package org.modelfs.store;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every name ModelFS gives a file beside a model, and the only place that parses them back
 * (Lucene's {@code IndexFileNames} idea). All are hidden names derived from the model's
 * {@link ModelId#key() key} and matched exactly, never by prefix, so that a neighbour whose name
 * starts the same ({@code m.fb} and {@code m.fb.sdz}, {@code bert} and {@code bert.v2}) never
 * matches:
 *
 * <pre>
 *   .&lt;key&gt;.modelfs-lock                      the writer lock (removed by its last holder)
 *   .&lt;key&gt;.modelfs-journal-&lt;32 hex&gt;         a writer's journal directory (random, 0700)
 *       &lt;kind&gt;-&lt;n&gt;.bin                        one journaled file in it
 *   .&lt;key&gt;.modelfs-commit-&lt;32 hex&gt;          the roll-forward record of a multi-file commit
 *   .&lt;target&gt;.modelfs-&lt;32 hex&gt;.tmp          a commit's new file before its rename
 *   .&lt;target&gt;.modelfs-&lt;32 hex&gt;.old          a hard link to the file a multi-file commit replaces,
 *                                              until the commit is complete (its way back)
 * </pre>
 *
 * The random parts (128 bits from {@link SecureRandom}) make the names unguessable: nobody can
 * plant a link at a name before ModelFS creates it, and every file is created with
 * {@code CREATE_NEW} besides.
 */
public final class SidecarNames {
  private static final String TEMP_MARK = ".modelfs-";
  private static final Pattern TEMP = Pattern.compile("\\.(.+)\\.modelfs-([0-9a-f]{32})\\.tmp", Pattern.DOTALL);
  private static final Pattern BACKUP = Pattern.compile("\\.(.+)\\.modelfs-([0-9a-f]{32})\\.old", Pattern.DOTALL);
  private static final Pattern JOURNAL_DATA = Pattern.compile("[a-z_]{1,32}-[0-9]{1,19}\\.bin");
  private static final Pattern HEX32 = Pattern.compile("[0-9a-f]{32}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private SidecarNames() {}

  /** The writer lock of the model with key {@code key}. */
  public static String lock(String key) {
    return "." + key + ".modelfs-lock";
  }

  /** A new journal directory name for {@code key}. */
  public static String newJournal(String key) {
    return "." + key + ".modelfs-journal-" + random();
  }

  /**
   * A new name for a journal in the local temporary directory, for a model kept elsewhere (an
   * object store): {@code modelfs-journal-<32 hex>}.
   */
  public static String newLocalJournal() {
    return "modelfs-journal-" + random();
  }

  /** Whether {@code name} is a journal directory name of {@code key}. */
  public static boolean isJournal(String key, String name) {
    String prefix = "." + key + ".modelfs-journal-";
    return name.length() == prefix.length() + 32 && name.startsWith(prefix)
        && HEX32.matcher(name.substring(prefix.length())).matches();
  }

  /** The name of a journaled file: {@code <kind>-<n>.bin}. */
  public static String journalData(String kind, long n) {
    String name = kind + "-" + n + ".bin";
    if (!JOURNAL_DATA.matcher(name).matches()) {
      throw new IllegalArgumentException("journal file kind '" + kind + "'");
    }
    return name;
  }

  /** Whether {@code name} is a journaled file's name. */
  public static boolean isJournalData(String name) {
    return JOURNAL_DATA.matcher(name).matches();
  }

  /** A new roll-forward record name for {@code key}. */
  public static String newRecord(String key) {
    return "." + key + ".modelfs-commit-" + random();
  }

  /** Whether {@code name} is a roll-forward record name of {@code key}. */
  public static boolean isRecord(String key, String name) {
    String prefix = "." + key + ".modelfs-commit-";
    return name.length() == prefix.length() + 32 && name.startsWith(prefix)
        && HEX32.matcher(name.substring(prefix.length())).matches();
  }

  /** A new temporary name for the file {@code target}. */
  public static String newTemp(String target) {
    return "." + target + TEMP_MARK + random() + ".tmp";
  }

  /** The file a temporary name was made for, or {@code null} if {@code name} is not one. */
  public static String tempTarget(String name) {
    Matcher m = TEMP.matcher(name);
    return m.matches() ? m.group(1) : null;
  }

  /** A new backup name for the file {@code target} (not {@code *.tmp}: tmp cleaners leave it). */
  public static String newBackup(String target) {
    return "." + target + TEMP_MARK + random() + ".old";
  }

  /** Whether {@code name} is a backup of one of {@code id}'s files. */
  public static boolean isBackupOf(ModelId id, String name) {
    Matcher m = BACKUP.matcher(name);
    return m.matches() && id.isModelFile(m.group(1));
  }

  /** The file a backup name was made for, or {@code null}. */
  public static String backupTarget(String name) {
    Matcher m = BACKUP.matcher(name);
    return m.matches() ? m.group(1) : null;
  }

  /** Whether {@code name} is a temporary of one of {@code id}'s files. */
  public static boolean isTempOf(ModelId id, String name) {
    String target = tempTarget(name);
    return target != null && id.isModelFile(target);
  }

  private static String random() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}

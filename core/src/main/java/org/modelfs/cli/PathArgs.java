package org.modelfs.cli;

import org.modelfs.store.Backings;
import org.modelfs.store.Shown;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.modelfs.container.Models;
import org.modelfs.tree.ModelTree;

/**
 * The one place where a command-line argument becomes a {@link Path}, and where
 * {@code MODEL[#TAG][:PATH]} is split (docs/CLI.md, "Paths and object stores").
 *
 * <p>The URI rule: an argument that starts with {@code <scheme>://} (a scheme of two or more
 * characters) is a URI when an installed {@link FileSystemProvider} has that scheme
 * ({@code s3://bucket/dir/m.fb}, {@code s3x://host:port/bucket/dir/m.sdnb} with the object-store
 * module on the class path); a scheme no installed provider has is a usage mistake. Everything
 * else is a local path, exactly as {@link Path#of(String, String...)} takes it — including names
 * that merely hold a ':' ({@code a:b.fb}, {@code C:\m.fb}, {@code x:/y}).
 *
 * <p>The ':' before PATH is looked for only after a URI's authority ({@code host:port},
 * {@code key:secret@}), so the colons of {@code s3x://k:s@host:9000/b/m.fb:params/W} are never
 * taken for it; a '#' in a URI is MODEL#TAG's (a key holding '#' is written {@code %23}).
 */
final class PathArgs {
  /** {@code scheme://}: RFC 3986's scheme characters; one letter alone is a drive ({@code C://x}), not a scheme. */
  private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+)://");
  /** A tag name (docs/FILESYSTEM.md §1.1): never holds ':' or '#'. */
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private PathArgs() {}

  /**
   * The PATH of {@code MODEL:PATH} (or a command's PATH argument) as a path from the model's
   * root — {@code fromTag}: from a tag's directory — the same for every command (docs/CLI.md
   * "Paths in a model"): leading '/' optional; a path whose first name is none of the root's
   * entries ({@code tags/} and the aliases {@code params/}, {@code updater/}, {@code graph},
   * {@code graph.json}, {@code training.json}, {@code metadata/}; in a tag the same without
   * {@code tags/}) is a parameter's name: {@code layer0/W} is {@code /params/layer0/W}.
   */
  static String inModel(String path, boolean fromTag) {
    String p = path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    String first = p.contains("/") ? p.substring(0, p.indexOf('/')) : p;
    boolean entry = p.isEmpty() || first.equals(".") || first.equals("..")
        || ModelTree.ALIASES.contains(first) || !fromTag && first.equals(ModelTree.TAGS);
    return (fromTag ? "" : "/") + (entry ? p : ModelTree.PARAMS + "/" + p);
  }

  /**
   * The path {@code arg} names: a URI of an installed provider, or a local path.
   *
   * @throws Args.UsageException if {@code arg} starts with a scheme no installed provider has, or
   *     is not a valid URI of its provider
   * @throws NoSuchFileException if the provider has no file system for the URI (and makes none)
   */
  static Path path(String arg) throws Args.UsageException, NoSuchFileException {
    String scheme = scheme(arg);
    if (scheme == null) {
      return Path.of(arg);
    }
    if (arg.indexOf('#') >= 0) {
      throw new Args.UsageException(arg + ": '#' in a URI is MODEL#TAG's, and this argument takes no tag"
          + " (write %23 for a '#' in an object's key)");
    }
    URI uri;
    try {
      uri = new URI(arg);
    } catch (URISyntaxException e) {
      throw new Args.UsageException("not a valid " + scheme + ":// URI (" + e.getMessage()
          + "; write other characters of a key %-encoded, e.g. a space as %20)");
    }
    try {
      Path p = Backings.path(uri);
      if ((scheme.equals("s3") || scheme.equals("s3x")) && !sameKey(scheme, uri, p)) {
        // the S3 provider 2.3.0 drops a key's first segment when it equals the bucket's name
        // (s3://models/models/m.fb becomes models/m.fb's sibling m.fb): never act on another object
        throw new Args.UsageException(arg + ": the " + scheme + " file system provider reads this as "
            + p.toAbsolutePath() + " in its bucket (a key whose first segment is the bucket's name); this object"
            + " cannot be named so");
      }
      return p;
    } catch (FileSystemNotFoundException e) {
      throw new NoSuchFileException(arg, null, e.getMessage() == null ? "no such file system" : e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new Args.UsageException(arg + ": not a path of the " + scheme + " file system provider ("
          + e.getMessage() + ")");
    }
  }

  /**
   * How a message names {@code p}: a local path as it is; a path of another provider (an
   * {@code s3x://} key) by its URI, as the user wrote it but without credentials (its own
   * {@code toString()} is the bare key, {@code /dir/m.sdnb}).
   */
  static String shown(Path p) {
    return Shown.path(p);
  }

  /**
   * Whether the S3 provider's path {@code p} has the key {@code uri} names: the URI's decoded path
   * ({@code s3://bucket/key}), or that path without its first segment, the bucket
   * ({@code s3x://host/bucket/key}), against the path's own string ({@code /key}).
   */
  private static boolean sameKey(String scheme, URI uri, Path p) {
    String given = uri.getPath() == null ? "" : uri.getPath();
    if (scheme.equals("s3x")) {
      int slash = given.indexOf('/', 1);
      given = slash < 0 ? "/" : given.substring(slash);
    }
    String got = p.toAbsolutePath().toString();
    return given.equals(got) || given.equals(got + "/") || (given + "/").equals(got);
  }

  /**
   * The scheme {@code arg} starts with ({@code s3} of {@code s3://…}), in lower case, when an
   * installed provider has it; {@code null} for a local path.
   *
   * @throws Args.UsageException if no installed provider has the scheme
   */
  static String scheme(String arg) throws Args.UsageException {
    Matcher m = SCHEME.matcher(arg);
    if (!m.lookingAt()) {
      return null;
    }
    String scheme = m.group(1).toLowerCase(Locale.ROOT);
    for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
      if (p.getScheme().equalsIgnoreCase(scheme)) {
        return scheme;
      }
    }
    throw new Args.UsageException("no file system provider for '" + scheme + "://' paths is installed ("
        + arg + "); s3:// and s3x:// paths need the modelfs-s3 jar: java -jar modelfs-s3.jar …, hdfs:// paths the"
        + " modelfs-hdfs jar: java -jar modelfs-hdfs.jar …, azb:// paths the modelfs-azure jar (docs/OBJECT-STORES.md)");
  }

  /**
   * Where the part of {@code arg} that may hold MODEL's ':' or '#' separators begins: 0 for a local
   * path; for a URI the end of its authority (the first '/' after {@code ://}).
   */
  private static int body(String arg) throws Args.UsageException {
    if (scheme(arg) == null) {
      return 0;
    }
    int start = arg.indexOf("://") + 3;
    int slash = arg.indexOf('/', start);
    return slash < 0 ? arg.length() : slash;
  }

  /** Whether {@code arg} holds a ':' after a URI's authority (anywhere, for a local path). */
  static boolean hasColon(String arg) throws Args.UsageException {
    return arg.indexOf(':', body(arg)) >= 0;
  }

  /**
   * Whether {@code arg} names an existing model: a regular file or a shard set by its base name.
   * A URI holding '#' names none (its '#' is MODEL#TAG's).
   */
  static boolean isModel(String arg) throws IOException, Args.UsageException {
    if (scheme(arg) != null && arg.indexOf('#') >= 0) {
      return false;
    }
    Path p = path(arg);
    return Files.isRegularFile(p) || !Models.findShards(p).isEmpty();
  }

  /** Which of {@code MODEL[#TAG][:PATH]}'s parts an argument may have. */
  enum Form {
    /** {@code MODEL} or {@code MODEL#TAG} ({@code diff}). */
    MODEL_TAG(true, false),
    /** {@code MODEL}, {@code MODEL#TAG}, {@code MODEL:PATH} or {@code MODEL#TAG:PATH} ({@code export}, {@code import}). */
    MODEL_TAG_PATH(true, true),
    /** {@code MODEL:PATH} only ({@code cp}): a model alone is no location. */
    MODEL_PATH(false, true);

    private final boolean tags;
    private final boolean paths;

    Form(boolean tags, boolean paths) {
      this.tags = tags;
      this.paths = paths;
    }
  }

  /**
   * A model as written on the command line, one of its tags ({@code null}: the newest) and a path
   * in it ({@code null}: none).
   */
  record Ref(String model, String tag, String path) {
    /** The model's {@link Path}. */
    Path modelPath() throws Args.UsageException, NoSuchFileException {
      return PathArgs.path(model);
    }

    /** {@code MODEL[#TAG]} as the user wrote it, for messages. */
    String label() {
      return model + (tag == null ? "" : "#" + tag);
    }
  }

  /**
   * Splits {@code arg} as {@code form} allows: the whole argument when it names a model (a form
   * without PATH, or with an optional one), else at the first ':' (after a URI's authority) whose
   * left part names an existing model, or {@code MODEL#TAG} of one (split at its last '#'; a tag
   * name never holds ':'). {@code null} when no split names an existing model.
   */
  static Ref split(String arg, Form form) throws IOException, Args.UsageException {
    if (form != Form.MODEL_PATH) {
      Ref whole = modelAndTag(arg, null, form);
      if (whole != null) {
        return whole;
      }
    }
    if (form.paths) {
      int start = body(arg);
      for (int i = arg.indexOf(':', start); i >= 0; i = arg.indexOf(':', i + 1)) {
        Ref r = i > start ? modelAndTag(arg.substring(0, i), arg.substring(i + 1), form) : null;
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  private static Ref modelAndTag(String s, String path, Form form) throws IOException, Args.UsageException {
    if (isModel(s)) {
      return new Ref(s, null, path);
    }
    int hash = s.lastIndexOf('#');
    if (form.tags && hash > body(s) && TAG.matcher(s.substring(hash + 1)).matches() && isModel(s.substring(0, hash))) {
      return new Ref(s.substring(0, hash), s.substring(hash + 1), path);
    }
    return null;
  }
}

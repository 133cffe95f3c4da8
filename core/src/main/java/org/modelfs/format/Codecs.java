package org.modelfs.format;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.modelfs.io.ByteSource;
import org.modelfs.model.ModelFormat;

/**
 * The one registry of formats: every {@link Codec} service ({@code META-INF/services/org.modelfs.format.Codec},
 * in the order the file lists them — core's own first), then those {@link #register}ed while a
 * program runs. Every list of formats a help text or message shows is derived here, and every
 * question about a format goes to its codec ({@link #of}); nothing outside a codec switches on
 * a format.
 *
 * <p>A service, as {@code store.BackingFactory} is: a module (or a user's jar) adds a format with
 * its package and one registration line, and nothing in core names it.
 */
public final class Codecs {
  private static final List<Codec> LOADED = load();
  private static final List<Codec> REGISTERED = new CopyOnWriteArrayList<>();

  private Codecs() {}

  private static List<Codec> load() {
    List<Codec> out = new ArrayList<>();
    for (Codec c : ServiceLoader.load(Codec.class, Codec.class.getClassLoader())) {
      add(out, c);
    }
    return List.copyOf(out);
  }

  private static void add(List<Codec> to, Codec c) {
    for (Codec o : to) {
      if (o.format().token().equals(c.format().token())) {
        throw new IllegalStateException("two codecs for the format " + c.format().token() + ": "
            + o.getClass().getName() + " and " + c.getClass().getName());
      }
    }
    to.add(c);
  }

  /** A registration of {@link #register}; closing it removes the codec. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Adds {@code codec} until the registration is closed: a format of a program's own, without a
   * service file (tests use it so that their formats never reach another test's lists).
   */
  public static synchronized Registration register(Codec codec) {
    List<Codec> now = new ArrayList<>(all());
    add(now, codec);
    REGISTERED.add(codec);
    return () -> REGISTERED.remove(codec);
  }

  /** Every codec: the services' in their order, then the registered ones. */
  public static List<Codec> all() {
    if (REGISTERED.isEmpty()) {
      return LOADED;
    }
    List<Codec> out = new ArrayList<>(LOADED);
    out.addAll(REGISTERED);
    return out;
  }

  /** Every format, in the registry's order. */
  public static List<ModelFormat> formats() {
    return all().stream().map(Codec::format).toList();
  }

  /** The codecs tried on one file's content ({@code sharded} false) or on shard 0 of a set, in {@link Codec#sniffOrder()}. */
  public static List<Codec> readers(boolean sharded) {
    return all().stream().filter(c -> c.format().sharded() == sharded)
        .sorted(Comparator.comparingInt(Codec::sniffOrder)).toList();
  }

  /**
   * The magics of the one-file formats, for people, as the readers try them:
   * {@code "SAMEDIFF_MODEL, SDNB or ZIP"}.
   */
  public static String magics() {
    return people(readers(false).stream().map(Codec::magic).filter(m -> m != null).distinct().toList(), "or");
  }

  /**
   * The codec that reads a file ({@code sharded} false) or a shard set whose first file, or shard 0,
   * is {@code first}: the first in {@link Codec#sniffOrder()} whose magic it has, else the
   * {@link Codec#fallback()} format's, else {@code null}.
   */
  public static Codec reader(boolean sharded, ByteSource first) throws IOException {
    Codec fallback = null;
    for (Codec c : readers(sharded)) {
      if (c.fallback()) {
        fallback = fallback == null ? c : fallback;
      } else if (c.sniff(first)) {
        return c;
      }
    }
    return fallback;
  }

  /** The codec of {@code format}. */
  public static Codec of(ModelFormat format) {
    for (Codec c : all()) {
      if (c.format().equals(format)) {
        return c;
      }
    }
    throw new IllegalStateException("no codec is registered for the format " + format);
  }

  /** The shard set format of the one-file format {@code format} (sdnb → sdnb-sharded), or {@code null}. */
  public static ModelFormat shardedOf(ModelFormat format) {
    for (ModelFormat f : formats()) {
      if (f.sharded() && f.unsharded().equals(format)) {
        return f;
      }
    }
    return null;
  }

  /** The sharded format whose shard files have the extension {@code ext} (no dot), or {@code null}. */
  public static Codec ofShardExtension(String ext) {
    for (Codec c : all()) {
      if (ext.equals(c.shardExtension())) {
        return c;
      }
    }
    return null;
  }

  /** The shard extensions of every sharded format, in the registry's order. */
  public static List<String> shardExtensions() {
    return all().stream().map(Codec::shardExtension).filter(e -> e != null).toList();
  }

  /** The format for a CLI/env token (any case), or one of a codec's {@link Codec#aliases()}. */
  public static ModelFormat fromToken(String token) {
    String t = token.toLowerCase(Locale.ROOT);
    for (ModelFormat f : formats()) {
      if (f.token().equals(t)) {
        return f;
      }
    }
    for (Codec c : all()) {
      if (c.aliases().contains(t)) {
        return c.format();
      }
    }
    throw new IllegalArgumentException("unknown format '" + token + "' (expected " + tokens(", ") + ")");
  }

  /**
   * The tokens of every format, in the registry's order, joined with {@code separator}
   * ({@code "fb|sdnb|…"}): the one list help texts and messages show (docs/CLI.md).
   */
  public static String tokens(String separator) {
    return formats().stream().map(ModelFormat::token).collect(Collectors.joining(separator));
  }

  /**
   * The tokens of the formats {@code which} accepts, for people: {@code "sdz, zip-tags and container"}
   * with {@code conjunction} "and".
   */
  public static String list(Predicate<ModelFormat> which, String conjunction) {
    return people(formats().stream().filter(which).map(ModelFormat::token).toList(), conjunction);
  }

  private static String people(List<String> names, String conjunction) {
    return names.size() < 2 ? String.join("", names)
        : String.join(", ", names.subList(0, names.size() - 1)) + " " + conjunction + " " + names.get(names.size() - 1);
  }

  /**
   * The format families that hold several tags, what a model with several tags can be converted
   * to: {@code "sdz, zip-tags or container"} (a sharded format is its family's).
   */
  public static String tagHolders() {
    return list(f -> f.holdsTags() && !f.sharded(), "or");
  }

  /** The extensions {@link #fromFileName} knows, for people: {@code ".fb, .sdnb, .sdz, .zip or .sdmc"}. */
  public static String extensions() {
    return people(oneFile().stream().map(ModelFormat::extension).toList(), "or");
  }

  private static List<ModelFormat> oneFile() {
    return formats().stream().filter(f -> !f.sharded()).toList();
  }

  /** The one-file format a file name's extension suggests (any case), or {@code null}. */
  public static ModelFormat fromFileName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (ModelFormat f : oneFile()) {
      if (n.endsWith(f.extension())) {
        return f;
      }
    }
    return null;
  }

  /** Whether the name (any case) has the extension of a format that owns it ({@link Codec#ownsExtension()}). */
  public static boolean claimsName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return all().stream().anyMatch(c -> c.ownsExtension() && n.endsWith(c.format().extension()));
  }

  /**
   * Why a model of {@code format} must not be written under {@code fileName}, or {@code null}: a
   * name whose extension says another format ({@code m.fb} holding a zip) is loaded by DL4J and
   * other tools as what the name says. The sharded form of a format goes under its base's
   * extension, and a format may allow other extensions ({@link Codec#otherExtensions()}: an SDZ
   * may be named {@code .zip}). One rule for every writer: a mount's {@code format} option,
   * {@code convert}, {@code ModelFiles.writeTags}.
   */
  public static String nameProblem(ModelFormat format, String fileName) {
    ModelFormat named = fromFileName(fileName);
    String n = fileName.toLowerCase(Locale.ROOT);
    if (named == null || named.equals(format.unsharded())
        || of(format).otherExtensions().stream().anyMatch(n::endsWith)) {
      return null;
    }
    return fileName + " is named as " + named.token() + ", and DL4J and other tools read it as " + named.token()
        + "; a " + format.token() + " model under that name would not load as one — write it under its own extension"
        + " (modelfs convert " + fileName + " OUT" + format.extension() + ")";
  }
}

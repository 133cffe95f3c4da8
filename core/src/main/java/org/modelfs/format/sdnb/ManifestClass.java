package org.modelfs.format.sdnb;

import java.util.List;

/**
 * The only five classes a {@link Manifest} stream may name, with the exact class descriptors the
 * JDK writes for them; {@link ManifestWriter} emits these and {@link ManifestParser} refuses any
 * descriptor that differs.
 */
enum ManifestClass {
  NUMBER("java.lang.Number", 0x86AC951D0B94E08BL, Flags.SERIALIZABLE, null),
  LONG("java.lang.Long", 0x3B8BE490CC8F23DFL, Flags.SERIALIZABLE, NUMBER, new Field('J', "value")),
  PAIR(
      "org.nd4j.common.primitives.Pair",
      119L,
      Flags.SERIALIZABLE,
      null,
      new Field('L', "key", Field.OBJECT),
      new Field('L', "value", Field.OBJECT)),
  HASH_MAP(
      "java.util.HashMap",
      0x0507DAC1C31660D1L,
      Flags.SERIALIZABLE | Flags.WRITE_METHOD,
      null,
      new Field('F', "loadFactor"),
      new Field('I', "threshold")),
  LINKED_HASH_MAP(
      "java.util.LinkedHashMap",
      0x34C04E5C106CC0FBL,
      Flags.SERIALIZABLE,
      HASH_MAP,
      new Field('Z', "accessOrder"));

  /** One serializable field as listed in a class descriptor; {@code type} is null for primitives. */
  record Field(char typeCode, String name, String type) {
    static final String OBJECT = "Ljava/lang/Object;";

    Field(char typeCode, String name) {
      this(typeCode, name, null);
    }

    @Override
    public String toString() {
      return typeCode + " " + name + (type == null ? "" : " " + type);
    }
  }

  /** Class descriptor flag bits ({@code java.io.ObjectStreamConstants.SC_*}). */
  static final class Flags {
    static final int WRITE_METHOD = 0x01;
    static final int SERIALIZABLE = 0x02;

    private Flags() {}
  }

  private final String className;
  private final long serialVersionUid;
  private final int flags;
  private final ManifestClass superClass;
  private final List<Field> fields;

  ManifestClass(
      String className, long serialVersionUid, int flags, ManifestClass superClass, Field... fields) {
    this.className = className;
    this.serialVersionUid = serialVersionUid;
    this.flags = flags;
    this.superClass = superClass;
    this.fields = List.of(fields);
  }

  /** The allowed class with this fully qualified name, or null. */
  static ManifestClass byName(String name) {
    for (ManifestClass c : values()) {
      if (c.className.equals(name)) {
        return c;
      }
    }
    return null;
  }

  String className() {
    return className;
  }

  long serialVersionUid() {
    return serialVersionUid;
  }

  int flags() {
    return flags;
  }

  /** The serializable superclass, or null when the superclass descriptor is TC_NULL. */
  ManifestClass superClass() {
    return superClass;
  }

  /** The serializable fields in stream order (primitives first, then objects, each by name). */
  List<Field> fields() {
    return fields;
  }
}

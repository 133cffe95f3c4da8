package org.modelfs.format.fb;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.nd4j.ir.OpNamespace;
import org.nd4j.shade.protobuf.TextFormat;

/**
 * Makes {@link OpDescriptors}' table from DL4J's own op descriptors (docs/GRAPH.md "Op
 * descriptors"): {@code nd4j-op-def.pbtxt} in the {@code org.nd4j:nd4j-api:1.0.0-M2.1} jar, read
 * with nd4j's generated protobuf classes ({@code OpNamespace.OpDescriptorList}) and protobuf's
 * text-format parser — a parser independent of the one that reads the table, and one that
 * refuses a field the schema does not have. Test scope only: the core never loads nd4j.
 *
 * <p>Ops and arguments keep the pbtxt's order; an absent {@code argIndex} is 0 and an absent
 * {@code opDeclarationType} is {@code CUSTOM_OP_IMPL} (protobuf's defaults). The fields the pbtxt
 * leaves unset everywhere ({@code argOptional}, {@code isArray}, {@code convertBoolToInt}, the
 * default values) are checked to be unset, so a later pbtxt that sets them fails the generator
 * instead of losing them.
 */
final class OpDescriptorTable {
  /** The pbtxt's name at the root of the nd4j-api jar. */
  static final String PBTXT = "nd4j-op-def.pbtxt";
  /** The jar it must come from. */
  static final String JAR = "nd4j-api-1.0.0-M2.1.jar";

  private OpDescriptorTable() {}

  /** The pbtxt's bytes, from the nd4j-api jar on the class path (and no other). */
  static byte[] pbtxt() throws IOException {
    URL url = OpDescriptorTable.class.getClassLoader().getResource(PBTXT);
    if (url == null || !url.toString().contains("/" + JAR + "!/")) {
      throw new IllegalStateException(PBTXT + " must come from " + JAR + ", found at " + url);
    }
    try (InputStream in = url.openStream()) {
      return in.readAllBytes();
    }
  }

  /** The pbtxt's descriptors, as nd4j's generated classes read them. */
  static OpNamespace.OpDescriptorList descriptors(byte[] pbtxt) throws IOException {
    OpNamespace.OpDescriptorList.Builder list = OpNamespace.OpDescriptorList.newBuilder();
    TextFormat.merge(new String(pbtxt, StandardCharsets.UTF_8), list);
    return list.build();
  }

  /** The table for these pbtxt bytes, header and end line included. */
  static String generate(byte[] pbtxt) throws IOException {
    OpNamespace.OpDescriptorList list = descriptors(pbtxt);
    StringBuilder body = new StringBuilder();
    int ops = 0;
    int args = 0;
    for (OpNamespace.OpDescriptor op : list.getOpListList()) {
      ops++;
      String head = op.getName() + "\t" + op.getOpDeclarationType().name();
      if (op.getArgDescriptorCount() == 0) {
        body.append(head).append('\n');
      }
      for (OpNamespace.ArgDescriptor a : op.getArgDescriptorList()) {
        args++;
        OpNamespace.ArgDescriptor bare = OpNamespace.ArgDescriptor.newBuilder()
            .setName(a.getName()).setArgType(a.getArgType()).setArgIndex(a.getArgIndex()).build();
        if (!bare.equals(a)) {
          throw new IllegalStateException("op " + op.getName() + ", argument " + a.getName()
              + " sets fields the table has no column for: " + TextFormat.shortDebugString(a));
        }
        body.append(head).append('\t').append(a.getArgType().name()).append('\t')
            .append(a.getArgIndex()).append('\t').append(a.getName()).append('\n');
      }
    }
    return "# ModelFS op descriptors (docs/GRAPH.md \"Op descriptors\"). Generated; do not edit.\n"
        + "# From " + PBTXT + " in org.nd4j:nd4j-api:1.0.0-M2.1 (Eclipse Deeplearning4j, Apache License 2.0:\n"
        + "# META-INF/NOTICE, META-INF/LICENSE-Apache-2.0.txt), sha-256 " + sha256(pbtxt) + "\n"
        + "# by org.modelfs.format.fb.OpDescriptorTable (core/src/interop/java); checked by OpDescriptorTableInteropTest.\n"
        + "# Columns, tab-separated: " + OpDescriptors.COLUMNS + " (an op without arguments: its first two).\n"
        + body
        + OpDescriptors.END + " " + ops + " " + args + "\n";
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

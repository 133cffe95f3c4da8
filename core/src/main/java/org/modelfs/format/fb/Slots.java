package org.modelfs.format.fb;

/** FlatBuffers slot numbers of the SameDiff tables (docs/FORMATS.md §3; slot = field id). */
public final class Slots {
  private Slots() {}

  // FlatGraph
  public static final int G_ID = 0;
  public static final int G_VARIABLES = 1;
  public static final int G_NODES = 2;
  public static final int G_OUTPUTS = 3;
  public static final int G_CONFIGURATION = 4;
  public static final int G_PLACEHOLDERS = 5;
  public static final int G_LOSS_VARIABLES = 6;
  public static final int G_TRAINING_CONFIG = 7;
  public static final int G_UPDATER_STATE = 8;
  /** M2.1: an (empty) SequenceItem vector; newest: metadataKeys. */
  public static final int G_SLOT9_METADATA_KEYS = 9;
  public static final int G_METADATA_VALUES = 10;
  public static final int G_SUB_INSTANCES = 11;

  // FlatVariable
  public static final int V_ID = 0;
  public static final int V_NAME = 1;
  public static final int V_DTYPE = 2;
  public static final int V_SHAPE = 3;
  public static final int V_NDARRAY = 4;
  public static final int V_DEVICE = 5;
  public static final int V_VARTYPE = 6;
  public static final int V_CONTROL_DEPS = 7;
  public static final int V_CONTROL_DEP_FOR_OP = 8;
  public static final int V_CONTROL_DEPS_FOR_VAR = 9;

  // FlatArray
  public static final int A_SHAPE = 0;
  public static final int A_BUFFER = 1;
  public static final int A_DTYPE = 2;
  public static final int A_BYTE_ORDER = 3;
  public static final int A_BUFFER_CHUNKS = 4;
  public static final int A_TOTAL_BUFFER_SIZE = 5;
  public static final int A_EXTERNAL_FILENAME = 6;
  public static final int A_IS_EXTERNAL = 7;
  public static final int A_APPENDED_OFFSET = 8;
  public static final int A_APPENDED_LENGTH = 9;

  // UpdaterState
  public static final int U_PARAM_NAME = 0;
  public static final int U_KEYS = 1;
  public static final int U_VALUES = 2;

  // IntPair
  public static final int P_FIRST = 0;
  public static final int P_SECOND = 1;

  // SameDiffSubInstance
  public static final int S_NAME = 0;
  public static final int S_DATA = 1;
}

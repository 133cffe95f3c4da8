package org.nd4j.common.primitives;

import java.io.Serializable;

/**
 * Test shim with the exact serialized shape of DL4J's {@code org.nd4j.common.primitives.Pair}
 * (same name, serialVersionUID and fields), so tests can produce real DL4J-style manifest bytes
 * with {@code ObjectOutputStream} without depending on nd4j.
 */
public class Pair<K, V> implements Serializable {
  private static final long serialVersionUID = 119L;

  protected K key;
  protected V value;

  public Pair(K key, V value) {
    this.key = key;
    this.value = value;
  }

  public K getKey() {
    return key;
  }

  public V getValue() {
    return value;
  }
}

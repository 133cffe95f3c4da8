package org.modelfs.store;

import org.modelfs.model.Model;

/**
 * A model opened from its store together with the {@link Generation} it was read at (every file
 * of one commit: a reader never mixes two).
 */
public record Snapshot(Model model, Generation generation) {}

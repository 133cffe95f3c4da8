/**
 * Array exchange formats — NumPy's {@code .npy} ({@link org.modelfs.exchange.Npy}) and
 * safetensors ({@link org.modelfs.exchange.Safetensors}) — read and written over channels, and
 * the streamed element copies they need ({@link org.modelfs.exchange.ArrayCopy}: byte-order
 * swaps, f ↔ c transposes), never a whole array in the heap. Depends on {@code model} and
 * {@code format} only; the {@code export}/{@code import} commands of {@code cli} use it
 * (docs/CLI.md, "export and import").
 */
package org.modelfs.exchange;

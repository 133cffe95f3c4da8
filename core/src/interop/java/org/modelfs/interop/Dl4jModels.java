package org.modelfs.interop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;

/**
 * Builders for real SameDiff models made and saved by DL4J 1.0.0-M2.1 itself
 * ({@code sd.save(file, true)}, format A), plus helpers to run them with DL4J.
 *
 * <p>All values come from {@link SplittableRandom} with fixed seeds (not ND4J's native RNG), so
 * every builder produces the same arrays on every run and machine. Models made by {@link #mlp}
 * and {@link #large} have a placeholder {@value #INPUT} of shape {@code [-1, features]} and an
 * output {@value #OUTPUT}; {@link #deterministicInput(SameDiff, long, long)} makes a matching input.
 */
public final class Dl4jModels {

    /** Input placeholder of {@link #mlp} and {@link #large}. */
    public static final String INPUT = "input";
    /** Label placeholder of {@link #mlp}. */
    public static final String LABEL = "label";
    /** Output (softmax for {@link #mlp}, linear for {@link #large}) of both graphs. */
    public static final String OUTPUT = "output";
    /** Loss variable of {@link #mlp}. */
    public static final String LOSS = "loss";
    /** Input width of {@link #mlp}. */
    public static final int MLP_FEATURES = 4;
    /** Output width of {@link #mlp}. */
    public static final int MLP_CLASSES = 3;
    /** Input width of {@link #large}. */
    public static final int LARGE_FEATURES = 256;
    /** Output width of {@link #large}. */
    public static final int LARGE_OUTPUTS = 16;
    /** Number of Adam steps {@link #mlp} takes when training. */
    public static final int MLP_TRAIN_STEPS = 3;
    /**
     * Whether {@link #mlp} trains a HALF model when asked to. DL4J M2.1 on CPU can fit a HALF graph
     * (matmul, softmax, MSE loss and Adam all run in HALF), so this is {@code true}.
     */
    public static final boolean HALF_TRAINABLE = true;
    /**
     * Adam epsilon used for HALF models: the default 1e-8 is 0 in HALF, and with V underflowing to 0
     * every update becomes ±Inf/NaN after the first step.
     */
    public static final double HALF_ADAM_EPSILON = 1e-3;
    /** {@link #large} refuses to build models at or above this many parameter bytes (format A < 2 GiB). */
    public static final long LARGE_MAX_PARAM_BYTES = 1_800_000_000L;

    private Dl4jModels() {
    }

    // ------------------------------------------------------------------------------------------
    // models

    /**
     * A small MLP: placeholders {@code input [-1,4]} and {@code label [-1,3]}, variables
     * {@code layer0/W [4,hidden]}, {@code layer0/b [1,hidden]}, {@code layer1/W [hidden,3]},
     * {@code layer1/b [1,3]}, a scalar constant {@code const/scale}, and
     * {@code output = softmax((relu(input·W0 + b0)·W1 + b1) * scale)},
     * {@code loss = MSE(label, output)}.
     *
     * <p>With {@code train}, a {@link TrainingConfig} with {@link Adam} is set and the model is fitted
     * {@value #MLP_TRAIN_STEPS} steps on fixed random data, so Adam {@code M}/{@code V} state exists
     * for every parameter; the file is saved with updater state. Without {@code train} there is no
     * training config and no updater state.
     *
     * @param out    file to write with {@code sd.save(out, true)}
     * @param dtype  FLOAT, DOUBLE or HALF (any floating type DL4J supports)
     * @param hidden width of the hidden layer
     * @param train  whether to fit with Adam before saving
     * @return the in-memory SameDiff that was saved
     */
    public static SameDiff mlp(Path out, DataType dtype, int hidden, boolean train) {
        if (!dtype.isFPType()) {
            throw new IllegalArgumentException("mlp needs a floating point type, got " + dtype);
        }
        SameDiff sd = SameDiff.create();
        SDVariable in = sd.placeHolder(INPUT, dtype, -1, MLP_FEATURES);
        SDVariable label = sd.placeHolder(LABEL, dtype, -1, MLP_CLASSES);
        SDVariable w0 = sd.var("layer0/W", random(dtype, 11, 1.0 / Math.sqrt(MLP_FEATURES), MLP_FEATURES, hidden));
        SDVariable b0 = sd.var("layer0/b", random(dtype, 12, 0.1, 1, hidden));
        SDVariable w1 = sd.var("layer1/W", random(dtype, 13, 1.0 / Math.sqrt(hidden), hidden, MLP_CLASSES));
        SDVariable b1 = sd.var("layer1/b", random(dtype, 14, 0.1, 1, MLP_CLASSES));
        SDVariable scale = sd.constant("const/scale", Nd4j.scalar(0.5).castTo(dtype));
        SDVariable h = sd.nn.relu("layer0/out", in.mmul(w0).add(b0), 0.0);
        SDVariable logits = h.mmul(w1).add(b1).mul("logits", scale);
        SDVariable output = sd.nn.softmax(OUTPUT, logits);
        sd.loss.meanSquaredError(LOSS, label, output, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT);
        sd.setLossVariables(LOSS);

        if (train) {
            TrainingConfig tc = TrainingConfig.builder()
                    .updater(dtype == DataType.HALF ? new Adam(0.01, 0.9, 0.999, HALF_ADAM_EPSILON) : new Adam(0.01))
                    .dataSetFeatureMapping(INPUT)
                    .dataSetLabelMapping(LABEL)
                    .initialLossDataType(dtype)
                    .build();
            sd.setTrainingConfig(tc);
            INDArray x = random(dtype, 21, 1.0, 8, MLP_FEATURES);
            INDArray y = oneHot(dtype, 22, 8, MLP_CLASSES);
            DataSet ds = new DataSet(x, y);
            for (int i = 0; i < MLP_TRAIN_STEPS; i++) {
                sd.fit(ds);
            }
        }
        sd.save(out.toFile(), true);
        return sd;
    }

    /**
     * A feed-forward net whose FLOAT parameters total at least {@code minParamBytes}:
     * {@code input [-1,256] → tanh(·W + b) [width] → (tanh(·W + b) [width]) × k → ·W + b [16] = output},
     * with {@code large/layer<i>/W}, {@code large/layer<i>/b} variables; {@code width} is 4096 once
     * {@code minParamBytes} reaches 64 MiB (then k hidden 4096×4096 matrices of 64 MiB each are
     * added), smaller otherwise. No training config, no updater state. Values are scaled so the
     * forward pass stays finite.
     *
     * @param out           file to write with {@code sd.save(out, true)}
     * @param minParamBytes lower bound for the total parameter bytes (must stay below
     *                      {@link #LARGE_MAX_PARAM_BYTES}: M2.1 format A is one FlatBuffer < 2 GiB)
     * @return the in-memory SameDiff that was saved
     */
    public static SameDiff large(Path out, long minParamBytes) {
        if (minParamBytes >= LARGE_MAX_PARAM_BYTES) {
            throw new IllegalArgumentException("format A (M2.1) cannot hold " + minParamBytes + " parameter bytes");
        }
        int width;
        int hiddenLayers;
        long big = 4096L * 4096L * 4L;
        long edges = (LARGE_FEATURES * 4096L + 4096L + 4096L * LARGE_OUTPUTS + LARGE_OUTPUTS) * 4L;
        if (minParamBytes >= big) {
            width = 4096;
            hiddenLayers = (int) Math.max(1, (minParamBytes - edges + big - 1) / big);
        } else {
            width = 64;
            hiddenLayers = 1;
            while (paramBytes(width, hiddenLayers) < minParamBytes) {
                width += 64;
            }
        }
        SameDiff sd = SameDiff.create();
        SDVariable x = sd.placeHolder(INPUT, DataType.FLOAT, -1, LARGE_FEATURES);
        List<long[]> dims = new ArrayList<>();
        dims.add(new long[]{LARGE_FEATURES, width});
        for (int i = 0; i < hiddenLayers; i++) {
            dims.add(new long[]{width, width});
        }
        dims.add(new long[]{width, LARGE_OUTPUTS});
        for (int i = 0; i < dims.size(); i++) {
            long[] d = dims.get(i);
            boolean last = i == dims.size() - 1;
            SDVariable w = sd.var("large/layer" + i + "/W", random(DataType.FLOAT, 100 + i, 1.0 / Math.sqrt(d[0]), d[0], d[1]));
            SDVariable b = sd.var("large/layer" + i + "/b", random(DataType.FLOAT, 200 + i, 0.01, 1, d[1]));
            SDVariable z = x.mmul(w).add(last ? OUTPUT : "large/layer" + i + "/z", b);
            x = last ? z : sd.nn.tanh("large/layer" + i + "/act", z);
        }
        sd.save(out.toFile(), true);
        return sd;
    }

    private static long paramBytes(int width, int hiddenLayers) {
        return 4L * ((long) LARGE_FEATURES * width + width + (long) hiddenLayers * ((long) width * width + width)
                + (long) width * LARGE_OUTPUTS + LARGE_OUTPUTS);
    }

    /**
     * Total bytes of all VARIABLE and CONSTANT arrays of {@code sd} (length × element width).
     */
    public static long paramBytes(SameDiff sd) {
        long total = 0;
        for (SDVariable v : sd.variables()) {
            if (v.getVariableType() == VariableType.VARIABLE || v.getVariableType() == VariableType.CONSTANT) {
                INDArray a = v.getArr();
                if (a != null && !a.isEmpty()) {
                    total += a.length() * a.dataType().width();
                }
            }
        }
        return total;
    }

    /**
     * Constants and variables of many data types, saved with {@code sd.save(out, true)}:
     * CONSTANTs {@code dtype/FLOAT} [2,3], {@code dtype/DOUBLE} [2,2,2], {@code dtype/HALF} [5],
     * {@code dtype/INT} [4], {@code dtype/LONG} [3,1], {@code dtype/SHORT} [3], {@code dtype/BYTE} [3],
     * {@code dtype/UBYTE} [4], {@code dtype/BOOL} [2,2], {@code scalar} (DOUBLE, rank 0),
     * {@code scalar/int} (INT, rank 0), {@code empty} (FLOAT empty scalar), {@code strings} (UTF8 [3],
     * ASCII only), {@code unicode/ümlaut/日本} (FLOAT [2], non-ASCII name); VARIABLEs {@code forder}
     * (FLOAT [3,4] in 'f' order), {@code my/param/name} (FLOAT [2,3]), {@code vec/long} (LONG [5]).
     * Every value survives a save/load round trip with M2.1 (BFLOAT16/UINT16/UINT32/UINT64 are
     * deliberately left out: M2.1 cannot round-trip them).
     *
     * @return the in-memory SameDiff that was saved
     */
    public static SameDiff constantsOfAllDtypes(Path out) {
        SameDiff sd = SameDiff.create();
        sd.constant("dtype/FLOAT", random(DataType.FLOAT, 1, 1.0, 2, 3));
        sd.constant("dtype/DOUBLE", random(DataType.DOUBLE, 2, 1.0, 2, 2, 2));
        sd.constant("dtype/HALF", random(DataType.HALF, 3, 1.0, 5));
        sd.constant("dtype/INT", Nd4j.createFromArray(1, -2, 3, Integer.MAX_VALUE));
        sd.constant("dtype/LONG", Nd4j.createFromArray(Long.MIN_VALUE, 0L, 7L).reshape(3, 1));
        sd.constant("dtype/SHORT", Nd4j.createFromArray((short) 1, (short) -1, (short) 300));
        sd.constant("dtype/BYTE", Nd4j.createFromArray((byte) 1, (byte) -1, (byte) 100));
        sd.constant("dtype/UBYTE", Nd4j.createFromArray(0, 1, 200, 255).castTo(DataType.UBYTE));
        sd.constant("dtype/BOOL", Nd4j.createFromArray(new boolean[][]{{true, false}, {false, true}}));
        sd.constant("scalar", Nd4j.scalar(3.25));
        sd.constant("scalar/int", Nd4j.scalar(42));
        sd.constant("empty", Nd4j.empty(DataType.FLOAT));
        sd.constant("strings", Nd4j.create("alpha", "", "gamma delta"));
        sd.constant("unicode/ümlaut/日本", Nd4j.createFromArray(1.5f, -2.5f));
        INDArray c = random(DataType.FLOAT, 4, 1.0, 3, 4);
        sd.var("forder", c.dup('f'));
        sd.var("my/param/name", random(DataType.FLOAT, 5, 1.0, 2, 3));
        sd.var("vec/long", Nd4j.createFromArray(5L, 4L, 3L, 2L, 1L));
        sd.save(out.toFile(), true);
        return sd;
    }

    // ------------------------------------------------------------------------------------------
    // running

    /** Loads {@code modelFile} with DL4J ({@code SameDiff.load(file, false)}) and computes {@code output}. */
    public static INDArray forward(Path modelFile, Map<String, INDArray> inputs, String output) {
        return forward(SameDiff.load(modelFile.toFile(), false), inputs, output);
    }

    /** {@code sd.output(inputs, output)} of an in-memory model, detached from any workspace. */
    public static INDArray forward(SameDiff sd, Map<String, INDArray> inputs, String output) {
        INDArray r = sd.output(inputs, output).get(output);
        return r == null ? null : r.detach();
    }

    /**
     * A deterministic input for placeholder {@value #INPUT} of a model made by {@link #mlp} or
     * {@link #large} (or any model with that placeholder): its declared shape with {@code -1}
     * replaced by {@code batch}, its data type, values uniform in [-1, 1) from {@code seed}.
     */
    public static INDArray deterministicInput(SameDiff sd, long batch, long seed) {
        return deterministicInput(sd, INPUT, batch, seed);
    }

    /** Like {@link #deterministicInput(SameDiff, long, long)} for any placeholder. */
    public static INDArray deterministicInput(SameDiff sd, String placeholder, long batch, long seed) {
        SDVariable p = sd.getVariable(placeholder);
        if (p == null || p.getVariableType() != VariableType.PLACEHOLDER) {
            throw new IllegalArgumentException("no placeholder " + placeholder);
        }
        long[] shape = p.placeholderShape();
        if (shape == null) {
            throw new IllegalArgumentException("placeholder " + placeholder + " has no declared shape");
        }
        shape = shape.clone();
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0) {
                shape[i] = batch;
            }
        }
        return random(p.dataType(), seed, 1.0, shape);
    }

    /** Loads {@code modelFile} with DL4J and makes {@link #deterministicInput(SameDiff, long, long)}. */
    public static INDArray deterministicInput(Path modelFile, long batch, long seed) {
        return deterministicInput(SameDiff.load(modelFile.toFile(), false), batch, seed);
    }

    /** {@code {input: deterministicInput(sd, batch, seed)}}, ready for {@link #forward}. */
    public static Map<String, INDArray> inputs(SameDiff sd, long batch, long seed) {
        Map<String, INDArray> m = new LinkedHashMap<>();
        m.put(INPUT, deterministicInput(sd, batch, seed));
        return m;
    }

    // ------------------------------------------------------------------------------------------
    // data

    /**
     * A C-order array of {@code dtype} with values uniform in {@code [-scale, scale)} drawn from
     * {@code new SplittableRandom(seed)} in C order (computed in double, then cast).
     */
    public static INDArray random(DataType dtype, long seed, double scale, long... shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        SplittableRandom r = new SplittableRandom(seed);
        if (dtype == DataType.FLOAT) {
            float[] f = new float[Math.toIntExact(n)];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) ((r.nextDouble() * 2 - 1) * scale);
            }
            return Nd4j.create(f, shape, 'c');
        }
        double[] d = new double[Math.toIntExact(n)];
        for (int i = 0; i < d.length; i++) {
            d[i] = (r.nextDouble() * 2 - 1) * scale;
        }
        INDArray a = Nd4j.create(d, shape, 'c');
        return dtype == DataType.DOUBLE ? a : a.castTo(dtype);
    }

    /** {@code rows} one-hot rows of width {@code classes} (class drawn from {@code seed}). */
    public static INDArray oneHot(DataType dtype, long seed, int rows, int classes) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] d = new double[rows][classes];
        for (double[] row : d) {
            row[r.nextInt(classes)] = 1.0;
        }
        return Nd4j.create(d).castTo(dtype);
    }
}

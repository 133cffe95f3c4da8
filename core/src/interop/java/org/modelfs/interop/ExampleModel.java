package org.modelfs.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;

/**
 * Makes {@code examples/mlp.fb}, the example model of {@code examples/README.md}, with DL4J
 * 1.0.0-M2.1 itself: a small MLP classifier with ordinary names, trained {@value #STEPS} Adam steps
 * on fixed data and saved with its updater state ({@code SameDiff.save(file, true)}).
 *
 * <pre>
 * input  [-1, 4]   placeholder (FLOAT)
 * label  [-1, 3]   placeholder (FLOAT, one-hot)
 * layer0/W [4, 16], layer0/b [16]   hidden = relu(input · layer0/W + layer0/b)
 * layer1/W [16, 3], layer1/b [3]    logits = hidden · layer1/W + layer1/b
 * output = softmax(logits)
 * loss   = -mean(sum(label * logSoftmax(logits), 1))     (cross entropy; the loss variable)
 * </pre>
 *
 * <p>The loss is written out from ops rather than with {@code sd.loss.softmaxCrossEntropy}, whose
 * default weights would add an unnamed constant ({@code sd_var}) to the parameters: the model's
 * only arrays are the four parameters above and Adam's {@code M} and {@code V} of each.
 *
 * <p>Every value comes from {@link SplittableRandom} with fixed seeds (not ND4J's RNG): the initial
 * weights, and a batch of {@value #BATCH} points, each drawn around one of three fixed centres (its class).
 * {@code ExampleModelInteropTest} checks that the committed file is what this program makes.
 *
 * <p>Run with the interop class path: {@code scripts/generate-example-model.sh [OUT]} (default
 * {@code examples/mlp.fb}), which compiles with {@code -Pinterop} and runs
 * {@code java -cp … org.modelfs.interop.ExampleModel [OUT]}. The file it writes is the same, byte
 * for byte, on every run on one machine.
 */
public final class ExampleModel {

    /** Where {@link #main} writes by default, relative to the project directory. */
    public static final Path DEFAULT_OUT = Path.of("examples", "mlp.fb");
    /** Input width (features). */
    public static final int FEATURES = 4;
    /** Hidden width. */
    public static final int HIDDEN = 16;
    /** Output width (classes). */
    public static final int CLASSES = 3;
    /** Points in the training batch. */
    public static final int BATCH = 24;
    /** Adam steps taken before saving. */
    public static final int STEPS = 5;
    /** Adam's learning rate. */
    public static final double LEARNING_RATE = 0.05;

    public static final String INPUT = "input";
    public static final String LABEL = "label";
    public static final String HIDDEN_OUT = "layer0/out";
    public static final String LOGITS = "logits";
    public static final String OUTPUT = "output";
    public static final String LOSS = "loss";

    private ExampleModel() {
    }

    public static void main(String[] args) throws Exception {
        Path out = args.length > 0 ? Path.of(args[0]) : DEFAULT_OUT;
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.deleteIfExists(out);
        SameDiff sd = build();
        INDArray[] data = data();
        DataSet ds = new DataSet(data[0], data[1]);
        System.out.printf("loss before training: %.6f%n", loss(sd, ds));
        train(sd, ds);
        System.out.printf("loss after %d Adam steps: %.6f%n", STEPS, loss(sd, ds));
        sd.save(out.toFile(), true);
        System.out.println("wrote " + out + " (" + Files.size(out) + " bytes)");
    }

    /**
     * Builds, trains and saves the example model to {@code out} (as {@link #main} does, without
     * printing); returns the in-memory model that was saved.
     */
    public static SameDiff write(Path out) {
        SameDiff sd = build();
        INDArray[] data = data();
        train(sd, new DataSet(data[0], data[1]));
        sd.save(out.toFile(), true);
        return sd;
    }

    /** The untrained graph, with its training configuration set. */
    public static SameDiff build() {
        SameDiff sd = SameDiff.create();
        SDVariable input = sd.placeHolder(INPUT, DataType.FLOAT, -1, FEATURES);
        SDVariable label = sd.placeHolder(LABEL, DataType.FLOAT, -1, CLASSES);
        SDVariable w0 = sd.var("layer0/W", uniform(1, Math.sqrt(6.0 / (FEATURES + HIDDEN)), FEATURES, HIDDEN));
        SDVariable b0 = sd.var("layer0/b", Nd4j.zeros(DataType.FLOAT, HIDDEN).addi(0.01));
        SDVariable w1 = sd.var("layer1/W", uniform(2, Math.sqrt(6.0 / (HIDDEN + CLASSES)), HIDDEN, CLASSES));
        SDVariable b1 = sd.var("layer1/b", Nd4j.zeros(DataType.FLOAT, CLASSES));
        SDVariable hidden = sd.nn.relu(HIDDEN_OUT, input.mmul("layer0/matmul", w0).add("layer0/add", b0), 0.0);
        SDVariable logits = hidden.mmul("layer1/matmul", w1).add(LOGITS, b1);
        sd.nn.softmax(OUTPUT, logits, 1);
        // logSoftmax without a dimension (the last one): M2.1 cannot differentiate it with one
        SDVariable logp = sd.nn.logSoftmax("log_probs", logits);
        label.mul("label_log_probs", logp).sum("example_log_likelihood", 1).mean("mean_log_likelihood").neg(LOSS);
        sd.setLossVariables(LOSS);
        sd.setTrainingConfig(TrainingConfig.builder()
                .updater(new Adam(LEARNING_RATE))
                .dataSetFeatureMapping(INPUT)
                .dataSetLabelMapping(LABEL)
                .build());
        return sd;
    }

    /** {@value #STEPS} Adam steps on {@code ds}. */
    public static void train(SameDiff sd, DataSet ds) {
        for (int i = 0; i < STEPS; i++) {
            sd.fit(ds);
        }
    }

    /**
     * The training batch: {@code {features [BATCH, 4], one-hot labels [BATCH, 3]}}. Each point is
     * one of three fixed centres plus noise in [-0.5, 0.5); its label is that centre.
     */
    public static INDArray[] data() {
        float[][] centres = {{1, 0, 0, 1}, {0, 1, 1, 0}, {-1, -1, 0, 0}};
        SplittableRandom r = new SplittableRandom(3);
        float[][] x = new float[BATCH][FEATURES];
        float[][] y = new float[BATCH][CLASSES];
        for (int i = 0; i < BATCH; i++) {
            int c = i % CLASSES;
            for (int j = 0; j < FEATURES; j++) {
                x[i][j] = centres[c][j] + (float) (r.nextDouble() - 0.5);
            }
            y[i][c] = 1;
        }
        return new INDArray[] {Nd4j.create(x), Nd4j.create(y)};
    }

    /** The loss of {@code sd} on {@code ds}. */
    public static double loss(SameDiff sd, DataSet ds) {
        return sd.output(Map.of(INPUT, ds.getFeatures(), LABEL, ds.getLabels()), LOSS)
                .get(LOSS).getDouble(0);
    }

    /** FLOAT values uniform in [-scale, scale) from {@code new SplittableRandom(seed)}, C order. */
    private static INDArray uniform(long seed, double scale, long... shape) {
        return Dl4jModels.random(DataType.FLOAT, seed, scale, shape);
    }
}

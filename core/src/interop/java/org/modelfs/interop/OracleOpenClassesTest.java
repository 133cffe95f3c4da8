package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link OracleOpenClasses} on failures DL4J gave (the oracle's first run, regression scripts 27-48):
 * each open class takes its own, and none hides a failure of a class that is not open — the same
 * DL4J error reached by another route (an import, a dtype of an op's output, a dropped op).
 */
@Tag("interop")
class OracleOpenClassesTest {
  private static final String NOT_COMPUTED = "DL4J does not compute every op output: tag default, ";

  private static String classOf(String script, String failure) {
    OracleScript s = OracleScript.parse(script).get(0);
    return OracleOpenClasses.of(failure, s).map(OracleOpenClasses.Open::id).orElse("none");
  }

  @Test
  void openClassesTakeTheirFailures() {
    assertEquals("shape-inference", classOf("script\tmlp_adam.fb\tsdnb-sharded\njson\tinput\tmatmul_1\t0\tsd_var\n",
        NOT_COMPUTED + "java.lang.RuntimeException: Op matmul with name matmul_1 failed to execute. "
            + "Here is the error from c++: Op validation failed"));
    assertEquals("shape-inference", classOf("script\tmlp_adam.fb\tsdz\njson\tdropvar\tx\t;\tinput\tadd_1\t1\tmatmul\n",
        "verify is clean on a model DL4J disagrees with: " + NOT_COMPUTED
            + "java.lang.RuntimeException: Op with name add_1 and op type [add] execution failed with message "));
    assertEquals("type-inference", classOf("script\tmlp_adam.fb\tsdnb-sharded\njson\tdtype\tinput\tLONG\n",
        NOT_COMPUTED + "java.lang.RuntimeException: Op with name matmul and op type [matmul] execution failed with "
            + "message mmulMxM expects all data types to be the same; Expected: [INT64]; Actual: [FLOAT]"));
    assertEquals("enum-range", classOf("script\tmlp_noupdater.fb\tcontainer\njson\targ\tsoftmax_cross_entropy_loss\tiArgs\t-1\n",
        "DL4J cannot load: tag default: java.lang.ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 4"));
    assertEquals("tf-frames", classOf("script\ttf-import/simplewhile_1.fb\tsdnb\njson\tinput\twhile/NextIteration\t2\twhile/Const\n",
        NOT_COMPUTED + "java.util.NoSuchElementException"));
    assertEquals("array-values", classOf("script\ttf-import/simplewhile_1.fb\tsdnb-sharded\n"
        + "cli\timport\t@st:while/Const:INT:2:643304\tMODEL\t--allow-new\n", NOT_COMPUTED
        + "org.nd4j.linalg.exception.ND4JIllegalStateException: Axis array [0, -3] contains values above array rank (rank=2)"));
    assertEquals("executor-hang", classOf("script\ttf-import/simplewhile_1.fb\tfb\njson\tinput\twhile/Exit\t0\tinput_0\n",
        "DL4J output does not return: tag default, no answer in 10 s (its executor loops)"));
  }

  @Test
  void noOpenClassHidesAnotherRoute() {
    for (List<String> c : List.of(
        List.of("script\tmlp_adam.fb\tcontainer\ncli\timport\t@npy:FLOAT:2,2:37458\tMODEL:const/scale\n",
            NOT_COMPUTED + "java.lang.RuntimeException: Op with name multiply and op type [multiply] execution failed "
                + "with message Op validation failed"),
        List.of("script\ttf-import/simplewhile_1.fb\tcontainer\ncli\timport\t@npy:FLOAT:8,3:850895\tMODEL:Variable\n",
            NOT_COMPUTED + "java.lang.RuntimeException: Op with name while/Add and op type [add] execution failed with message "),
        List.of("script\tmlp_adam.fb\tcontainer\njson\tdtype\tadd\tLONG\n",
            NOT_COMPUTED + "java.lang.RuntimeException: Op with name add and op type [add] execution failed with message "
                + "NDArray::applyTrueBroadcast method: the shape or type of target array is wrong !"),
        List.of("script\ttf-import/simplewhile_1.fb\tfb\njson\tdropop\twhile/LoopCond\n",
            NOT_COMPUTED + "java.lang.IllegalStateException: Samediff output op named while/LoopCond did not have any "
                + "ops associated with it."),
        List.of("script\tmlp_noupdater.fb\tsdnb\ncli\tcp\tMODEL:/params/layer1/W\tMODEL:/params/loss\n",
            "DL4J cannot load: tag default: java.lang.IllegalStateException: Only ARRAY type SDVariables can be marked "
                + "as losses to be minimized."))) {
      assertEquals("none", classOf(c.get(0), c.get(1)), c.get(0));
    }
  }
}

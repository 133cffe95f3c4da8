package org.modelfs.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The training-configuration check at the level of its rules (docs/FORMATS.md §3.9); what DL4J
 * itself does with each text is proven by the interop suite (Dl4jLoadsWhatWeCommitInteropTest).
 */
class TrainingJsonTest {
  private static final String ADAM = "{\"updater\": {\"@class\": \"org.nd4j.linalg.learning.config.Adam\","
      + " \"learningRate\": 0.01}, \"iterationCount\": 3, \"epochCount\": 1.0, \"minimize\": true}";

  @Test
  void whatDl4jReadsPasses() {
    TrainingJson.Check c = TrainingJson.check(ADAM);
    assertEquals(List.of(), c.problems());
    assertTrue(c.hasUpdater());
    assertEquals(Set.of("M", "V"), c.updaterStateKeys());
    assertEquals(List.of(), TrainingJson.problems("{}"), "every field is optional");
    assertEquals(List.of(), TrainingJson.problems("{\"bogus\": [1, {\"x\": null}], \"minimize\": \"TRUE\"}"),
        "keys DL4J does not know are ignored; minimize may be a boolean's text");
    assertEquals(List.of(), TrainingJson.problems("{\"minimize\": true, \"minimize\": false}"), "repeated keys: the last wins");
    assertEquals(List.of(), TrainingJson.problems("{\"iterationCount\": \"7\"}"), "a number's text is a number");
  }

  @Test
  void eachUpdaterKeepsItsOwnStateKeys() {
    Map<String, Set<String>> expected = Map.of("Sgd", Set.of(), "AMSGrad", Set.of("M", "V", "V_HAT"),
        "Nesterovs", Set.of("V"), "AdaDelta", Set.of("msg", "msdx"), "AdaBelief", Set.of("M", "S"));
    expected.forEach((name, keys) -> assertEquals(keys, TrainingJson.check(
        "{\"updater\": {\"@class\": \"org.nd4j.linalg.learning.config." + name + "\"}}").updaterStateKeys(), name));
    TrainingJson.Check none = TrainingJson.check("{\"updater\": null}");
    assertFalse(none.hasUpdater());
    assertNull(none.updaterStateKeys());
  }

  @Test
  void whatDl4jRefusesIsNamed() {
    Map<String, String> cases = Map.of(
        "text after the end of the JSON value", ADAM + " trailing",
        "a training configuration is a JSON object", "[]",
        "not JSON", "{\"a\": 1,}",
        "has no \"@class\"", "{\"updater\": {\"learningRate\": 0.1}}",
        "is not one of ND4J's", "{\"regularization\": [{\"@class\": \"x.Y\"}]}",
        "updater.learningRate is the text", "{\"updater\": {\"@class\": \"org.nd4j.linalg.learning.config.Sgd\","
            + " \"learningRate\": \"fast\"}}",
        "dataSetFeatureMapping is", "{\"dataSetFeatureMapping\": \"input\"}",
        "initialLossDataType is", "{\"initialLossDataType\": 5}");
    cases.forEach((reason, json) -> {
      List<String> p = TrainingJson.problems(json);
      assertTrue(p.stream().anyMatch(x -> x.contains(reason)), json + " → " + p);
    });
  }

  @Test
  void theParserIsStrictAndBounded() {
    assertEquals(Map.of("a", List.of(1L, 2.5, "x", true)), JsonText.parse("{\"a\": [1, 2.5, \"x\", true]}", 8, true));
    assertEquals(Map.of("s", "é\n"), JsonText.parse("{\"s\": \"\\u00e9\\n\"}", 8, true));
    for (String bad : List.of("", "NaN", "{'a': 1}", "/* c */ {}", "[1,]", "{\"a\" 1}", "01", "\"\u0001\"", "[1] 2")) {
      assertThrows(IllegalArgumentException.class, () -> JsonText.parse(bad, 8, false), bad);
    }
    IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
        () -> JsonText.parse("{\"a\": 1, \"a\": 2}", 8, true));
    assertTrue(dup.getMessage().contains("twice"), dup.getMessage());
    String deep = "[".repeat(9) + "]".repeat(9);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonText.parse(deep, 8, false));
    assertTrue(e.getMessage().contains("nested deeper than 8"), e.getMessage());
    assertTrue(TrainingJson.problems("[".repeat(TrainingJson.MAX_DEPTH + 1)).get(0).contains("nested deeper"));
  }

  /**
   * A rename reaches the name lists only — as DL4J names them, at the top level — and leaves every
   * other byte (formatting, other keys holding the same text, nested lists) as it was.
   */
  @Test
  void renamedRenamesTheNameListsOnly() {
    String json = "{\n  \"dataSetFeatureMapping\" : [ \"input\", \"other\" ],\n  \"dataSetLabelMapping\" : [\"label\"],"
        + "\n  \"lossVariables\" : null, \"note\" : \"input\", \"nested\" : {\"dataSetFeatureMapping\": [\"input\"]},"
        + " \"dataSetFeatureMaskMapping\": [\"in\\\"put\"]}";
    String out = TrainingJson.renamed(json, Map.of("input", "features", "label", "t\"arget", "in\"put", "mask"));
    assertEquals("{\n  \"dataSetFeatureMapping\" : [ \"features\", \"other\" ],\n  \"dataSetLabelMapping\" : [\"t\\\"arget\"],"
        + "\n  \"lossVariables\" : null, \"note\" : \"input\", \"nested\" : {\"dataSetFeatureMapping\": [\"input\"]},"
        + " \"dataSetFeatureMaskMapping\": [\"mask\"]}", out);
    assertEquals(json, TrainingJson.renamed(json, Map.of("absent", "x")), "no name to rename: the same text");
    assertEquals("not json [", TrainingJson.renamed("not json [", Map.of("json", "x")));
    assertEquals(Map.of("dataSetFeatureMapping", List.of("features", "other"), "dataSetLabelMapping",
        List.of("t\"arget"), "dataSetFeatureMaskMapping", List.of("mask")), TrainingJson.check(out).variableNames());
  }
}

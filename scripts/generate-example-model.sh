#!/usr/bin/env bash
# Regenerates examples/mlp.fb (or the file given as $1) with DL4J 1.0.0-M2.1 itself:
# org.modelfs.interop.ExampleModel builds the MLP, trains it 5 Adam steps on fixed data and saves
# it with SameDiff.save(file, true). ExampleModelInteropTest (mvn -Pinterop verify) checks that the
# committed file is what this makes. MVN="mvn -o" to build offline.
set -euo pipefail
cd "$(dirname "$0")/.."
${MVN:-mvn} -B -q -f core/pom.xml -Pinterop -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/interop.classpath -Dmdep.includeScope=test
java -Djavacpp.platform=linux-x86_64 \
  -cp "core/target/test-classes:core/target/classes:$(cat core/target/interop.classpath)" \
  org.modelfs.interop.ExampleModel "${1:-examples/mlp.fb}"

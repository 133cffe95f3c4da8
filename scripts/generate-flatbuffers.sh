#!/usr/bin/env bash
# Regenerates the committed Java classes under core/src/main/java/org/modelfs/format/fb/gen from
# schemas/*.fbs. Needs flatc 2.0.8 (Debian: apt-get install flatbuffers-compiler), which
# matches the flatbuffers-java 2.0.8 runtime in core/pom.xml.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(flatc --version | awk '{print $3}')
if [ "$version" != "2.0.8" ]; then
  echo "flatc $version found; 2.0.8 is required (it must match flatbuffers-java)" >&2
  exit 2
fi
out=core/src/main/java
rm -rf "$out/org/modelfs/format/fb/gen"
flatc --java --no-warnings -o "$out" schemas/*.fbs
echo "generated: $(ls "$out/org/modelfs/format/fb/gen" | wc -l) classes"

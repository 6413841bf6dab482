#!/usr/bin/env bash
# Bundles each version into one self-contained document: dist/vN.yaml and dist/vN.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off
mkdir -p dist
node scripts/layers.mjs # each version's source tree, in .layers/ (see scripts/layers.mjs)
for v in v1 v2 v3; do
  redocly bundle "$v" --output "dist/$v.yaml" --ext yaml >/dev/null
  redocly bundle "$v" --output "dist/$v.json" --ext json >/dev/null
done
if [ -f scripts/build-docs.sh ]; then bash scripts/build-docs.sh; fi
echo "bundles: $(ls dist/*.json dist/*.yaml | tr '\n' ' ')"

#!/usr/bin/env bash
# Bundles each registered version (versions.json) into one self-contained document, dist/vN.yaml and
# dist/vN.json, and copies the registry beside them (dist/versions.json): a bundle folder says itself
# which versions it holds. Then the docs site (scripts/build-docs.sh), unless --bundles-only.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off
mkdir -p dist
# Only the registered versions' bundles: one left from a version since removed would be published.
rm -f dist/v[0-9]*.json dist/v[0-9]*.yaml
node scripts/layers.mjs # each version's source tree and the Redocly config, in .layers/ (see scripts/layers.mjs)
versions=$(node --input-type=module -e 'import { readRegistry } from "./registry/index.js"; console.log(readRegistry(".").versions.join(" "))')
for v in $versions; do
  redocly bundle "$v" --config .layers/redocly.yaml --output "dist/$v.yaml" --ext yaml >/dev/null
  redocly bundle "$v" --config .layers/redocly.yaml --output "dist/$v.json" --ext json >/dev/null
done
cp versions.json dist/versions.json
if [ "${1:-}" != "--bundles-only" ] && [ -f scripts/build-docs.sh ]; then bash scripts/build-docs.sh; fi
echo "bundles: $(ls dist/*.json dist/*.yaml | tr '\n' ' ')"

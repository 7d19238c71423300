#!/usr/bin/env bash
# Lints every committed API reference (docs/openapi/*.json) with Redocly (recommended rules) and
# Spectral (spectral:oas). Any error or warning fails: the reference is what partners build against.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
docs=(docs/openapi/*.json)
if [ ${#docs[@]} -eq 0 ]; then echo "no API reference in docs/openapi" >&2; exit 1; fi
mkdir -p tmp
# Redocly fails only on errors; a warning (unused component, missing 4xx...) fails here too.
if ! npx redocly lint --format=summary "${docs[@]}" >tmp/redocly.log 2>&1 || grep -Eiq 'warning' tmp/redocly.log; then
  cat tmp/redocly.log >&2
  npx redocly lint "${docs[@]}" 2>&1 | grep -B2 -A8 -E 'Warning|Error' | head -80 >&2
  exit 1
fi
echo "redocly: ${#docs[@]} documents, no errors or warnings"
npx spectral lint --fail-severity=warn --quiet "${docs[@]}"
echo "API reference: ${#docs[@]} documents pass redocly and spectral"

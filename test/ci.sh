#!/usr/bin/env bash
# The whole test suite from a fresh clone: Debian packages, npm packages, build,
# tests. Ends with one summary line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

bash test/setup/debian-packages.sh
# code-server for test/vscode/: built once into /var/cache/boardbridge (about 6-8 minutes), then reused.
bash test/setup/code-server.sh
npm ci --no-audit --no-fund --loglevel=error
# Third-party ACP clients (acpx with its Node 22) for the boardbridge acp tests, in a package of their own.
# `npm install` from the lock, not `npm ci`: acpx's @openclaw/fs-safe lists platform packages that
# are not published, so npm leaves them out of the lock and `npm ci` then refuses it as out of sync.
npm install --prefix test/clients --no-audit --no-fund --loglevel=error
# OpenCode and Qwen Code, which boardbridge does not depend on, in a package of their own; `npm install`
# for the same reason as test/clients: their optional per-platform packages are not all published.
npm install --prefix test/agents --no-audit --no-fund --loglevel=error
# Node 22 for Qwen Code, in its own folder: as a dependency of the project its bin would shadow the Node that runs everything else.
npm ci --prefix test/setup/node22 --no-audit --no-fund --loglevel=error
npm ci --prefix test/setup/node24 --no-audit --no-fund --loglevel=error
npm run build --silent
# The tests type-checked as well (the build checks only the sources): Node-only, then with DOM for browser-page code.
npx tsc -p test/tsconfig.json && npx tsc -p test/panel/tsconfig.json

mkdir -p test-artifacts
status=0
npx vitest run --reporter=default --reporter=json --outputFile=test-artifacts/vitest.json || status=$?
node -e '
  const r = require("./test-artifacts/vitest.json");
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' || true
exit $status

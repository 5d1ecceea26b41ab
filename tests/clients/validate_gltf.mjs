// Runs the Khronos glTF validator (npm gltf-validator, installed by ./dev into .cache/tools) on each file
// given and prints its issue summary. Exit 0 when no file has an error, 1 otherwise, 77 (ctest skip) when
// the validator is not installed.
// usage: node validate_gltf.mjs NODE_MODULES_DIR FILE...
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const [modules, ...files] = process.argv.slice(2);
let validator;
try {
  validator = createRequire(join(resolve(modules), "noop.js"))("gltf-validator");
} catch (e) {
  console.log(`SKIP: gltf-validator is not installed in ${modules}; run ./dev tools (${e.code ?? e.message})`);
  process.exit(77);
}
let failed = false;
for (const file of files) {
  const report = await validator.validateBytes(new Uint8Array(readFileSync(file)), {
    uri: basename(file),
    maxIssues: 0,
    // Our files are self-contained: any external resource is an error.
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const i = report.issues;
  const info = report.info ?? {};
  console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ` +
              `${i.numHints} hints; glTF ${info.version}, ${info.drawCallCount ?? "?"} draw calls, ` +
              `${info.totalVertexCount ?? "?"} vertices, generator ${info.generator ?? "?"} ` +
              `(validator ${report.validatorVersion})`);
  // Errors and warnings in full; infos and hints counted by code.
  const counts = new Map();
  for (const m of i.messages) {
    const level = ["error", "warning", "info", "hint"][m.severity] ?? m.severity;
    if (m.severity <= 1) console.log(`  ${level} ${m.code} ${m.pointer ?? ""}: ${m.message}`);
    else counts.set(`${level} ${m.code}`, (counts.get(`${level} ${m.code}`) ?? 0) + 1);
  }
  for (const [k, n] of counts) console.log(`  ${k} x${n}`);
  if (i.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
/**
 * Figures of the repository's layout (issue 32), for a tree: the import cycles, the imports
 * against the allowed direction (the rules of this repository's .dependency-cruiser.cjs, applied
 * to that tree), the src/ files over 400 lines, and where the requirement-id literals are (the
 * application tables, the contract's models, elsewhere).
 *
 *   node scripts/layout-figures.mjs [--root DIR]     (default: this repository)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const HERE = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ROOTS = ['src', 'specs', 'examples', 'test', 'bench'];
const MAX_LINES = 400;
// The direction rules of .dependency-cruiser.cjs (the cycles and the orphans are counted apart).
const DIRECTION_RULE = /^(layer-|no-src-to-outside$|no-specs-to-tests$|reference-module-alone$)/;
const REQUIREMENT_ID = /(['"`])(?:WIRE-)?(?:GEN|REG|DLV|PAY|TEL|TRN|BOT)-[A-Z0-9]+(?:-[A-Z0-9]+)*\1/g;

function rootArg(argv) {
  const i = argv.indexOf('--root');
  if (i === -1) return HERE;
  if (!argv[i + 1]) throw new Error('usage: node scripts/layout-figures.mjs [--root DIR]');
  return path.resolve(argv[i + 1]);
}

/** Every file under dir (relative to root) whose name ends with ext. */
function filesUnder(root, dir, ext) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(ext)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** A cycle named once, whichever of its files it was reported from: rotated to its smallest file. */
function cycleKey(files) {
  const start = files.indexOf([...files].sort()[0]);
  return [...files.slice(start), ...files.slice(0, start)];
}

async function dependencyFigures(root) {
  const options = await extractDepcruiseOptions(path.join(HERE, '.dependency-cruiser.cjs'));
  const tsConfigFile = path.join(root, 'tsconfig.json');
  const tsConfig = extractTSConfig(tsConfigFile);
  const roots = ROOTS.filter((r) => fs.existsSync(path.join(root, r)));
  const cruised = await cruise(roots, { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile }, outputType: 'json' }, {}, { tsConfig });
  const result = typeof cruised.output === 'string' ? JSON.parse(cruised.output) : cruised.output;
  const cycles = new Map();
  const against = [];
  for (const v of result.summary.violations) {
    if (v.rule.name === 'no-circular') {
      const files = cycleKey([v.from, ...v.cycle.map((c) => c.name)].slice(0, -1));
      cycles.set(files.join(' -> '), files);
    } else if (DIRECTION_RULE.test(v.rule.name)) {
      against.push(`${v.from} -> ${v.to} (${v.rule.name})`);
    }
  }
  return { cycles: [...cycles.values()].map((f) => [...f, f[0]].join(' -> ')).sort(), against: against.sort() };
}

/** Lines as `wc -l` counts them, and the last one without its newline. */
function lineCount(text) {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function longFiles(root) {
  return filesUnder(root, 'src', '.ts')
    .filter((f) => f !== 'src/contract/types.generated.ts')
    .map((f) => ({ file: f, lines: lineCount(fs.readFileSync(path.join(root, f), 'utf8')) }))
    .filter((f) => f.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines);
}

function requirementIds(root) {
  const groups = { 'application tables (src/checks/*/applications.ts)': [], 'contract models (src/contract/)': [], elsewhere: [] };
  for (const file of [...filesUnder(root, 'src', '.ts'), ...filesUnder(root, 'specs', '.ts')]) {
    const count = (fs.readFileSync(path.join(root, file), 'utf8').match(REQUIREMENT_ID) ?? []).length;
    if (count === 0) continue;
    const group = /^src\/checks\/[^/]+\/applications\.ts$/.test(file)
      ? 'application tables (src/checks/*/applications.ts)'
      : file.startsWith('src/contract/')
        ? 'contract models (src/contract/)'
        : 'elsewhere';
    groups[group].push({ file, count });
  }
  return groups;
}

const root = rootArg(process.argv.slice(2));
const { cycles, against } = await dependencyFigures(root);
const long = longFiles(root);
const ids = requirementIds(root);

console.log(`Layout figures of ${root}`);
console.log(`\nImport cycles: ${cycles.length}`);
for (const c of cycles) console.log(`  ${c}`);
console.log(`\nImports against the allowed direction: ${against.length}`);
for (const a of against) console.log(`  ${a}`);
console.log(`\nsrc/ files over ${MAX_LINES} lines (types.generated.ts aside): ${long.length}`);
for (const f of long) console.log(`  ${f.file}: ${f.lines}`);
const total = Object.values(ids).flat().reduce((n, f) => n + f.count, 0);
console.log(`\nRequirement-id literals in src/ and specs/ .ts files: ${total}`);
for (const [group, files] of Object.entries(ids)) {
  console.log(`  ${group}: ${files.reduce((n, f) => n + f.count, 0)} in ${files.length} files`);
  for (const f of [...files].sort((a, b) => b.count - a.count || a.file.localeCompare(b.file))) console.log(`    ${f.file}: ${f.count}`);
}

/**
 * The layout of the suite as rules dependency-cruiser checks (`npm run lint:layout`, and
 * test/contract/layout.spec.ts in `npm test`): no import cycles, the direction of imports between
 * the rooms of src/, src never reaching into specs/, test/, examples/ or bench/, and no src file
 * that nothing imports.
 *
 * The rooms of src/, top to bottom; a room imports only rooms below it, never one above it or
 * beside it:
 *
 *   cli
 *   report, properties        the reporters; the property runner and its sequences
 *   generators                fast-check arbitraries (they read the session's state: its type)
 *   run                       the session (simulators + module) and the session-level judgements
 *   checks                    named checks, their application, the case and its outcome
 *   callbacks                 the table of calls to a module and the one sender
 *   simulators, module        the system and gateway simulators; config, launcher, triggers
 *   client                    the callback client (the gateway and the triggers send through it)
 *   wire, evidence            wire forms; exchanges, redaction, curl lines
 *   contract                  schemas, catalogue, kinds, the contract's models
 */

// Each room and the rooms below it that it may import.
const CONTRACT = ['contract'];
const WIRE_EVIDENCE = ['wire', 'evidence', ...CONTRACT];
const CLIENT = ['client', ...WIRE_EVIDENCE];
const SIMULATORS_MODULE = ['simulators', 'module', ...CLIENT];
const CALLBACKS = ['callbacks', ...SIMULATORS_MODULE];
const CHECKS = ['checks', ...CALLBACKS];
const RUN = ['run', ...CHECKS];
const GENERATORS = ['generators', ...RUN];
const REPORT_PROPERTIES = ['report', 'properties', ...GENERATORS];

const BELOW = {
  cli: REPORT_PROPERTIES,
  report: RUN,
  properties: GENERATORS,
  generators: RUN,
  run: CHECKS,
  checks: CALLBACKS,
  callbacks: SIMULATORS_MODULE,
  simulators: CLIENT,
  module: CLIENT,
  client: WIRE_EVIDENCE,
  wire: CONTRACT,
  evidence: CONTRACT,
  contract: [],
};

const layerRules = Object.entries(BELOW).map(([room, below]) => ({
  name: `layer-${room}`,
  severity: 'error',
  comment: `src/${room}/ imports only ${below.length ? below.map((r) => `src/${r}/`).join(', ') : 'nothing else in src/'} (and itself).`,
  from: { path: `^src/${room}/` },
  to: { path: '^src/', pathNot: `^src/(${[room, ...below].join('|')})/` },
}));

// Files of src/ that nothing imports, by design: each with its reason.
const ENTRY_POINTS = [
  // The command line: bin/conformance.js imports src/cli/main.ts by URL (tsx or dist/).
  '^src/cli/',
  // Playwright's reporters, named by path in playwright.config.ts.
  '^src/report/(console|conformance|summary-line)-reporter\\.ts$',
  // Run by bin/generate-types.js (`npm run generate:types`).
  '^src/contract/generate-types\\.ts$',
  // Written by generate-types.ts from schemas/; the types are there for whoever wants them.
  '^src/contract/types\\.generated\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere: a helper that needs a type from a spec, or two files of a room that need each other, share a third file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-src-to-outside',
      severity: 'error',
      comment: 'src/ is the package: it never imports the conformance specs, the self-tests, the reference module or the benchmarks.',
      from: { path: '^src/' },
      to: { path: '^(specs|test|examples|bench)/' },
    },
    {
      name: 'no-specs-to-tests',
      severity: 'error',
      comment: 'The conformance specs ship in the package: they never import the self-tests, the reference module or the benchmarks.',
      from: { path: '^specs/' },
      to: { path: '^(test|examples|bench)/' },
    },
    {
      name: 'reference-module-alone',
      severity: 'error',
      comment: 'The reference module is written as a vendor would write it: it imports nothing of the suite.',
      from: { path: '^examples/' },
      to: { path: '^(src|specs|test|bench)/' },
    },
    {
      name: 'no-orphans-in-src',
      severity: 'error',
      comment: 'A file of src/ that nothing imports is dead code, unless it is an entry point (ENTRY_POINTS).',
      module: { path: '^src/', pathNot: ENTRY_POINTS, numberOfDependentsLessThan: 1 },
      from: {},
    },
    {
      name: 'src-used-only-by-tests',
      severity: 'warn',
      comment: 'A file of src/ that only the self-tests or the benchmarks import: a test helper in the package, or code the suite no longer uses.',
      module: { path: '^src/', pathNot: ENTRY_POINTS, numberOfDependentsLessThan: 1 },
      from: { path: '^(src|specs)/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

/**
 * A script's own arguments: those after `node script.mjs`, without the `--` that `pnpm run <script> --
 * …` hands on (npm drops it; node's parseArgs would read everything after it as positionals).
 */
export function scriptArgs(argv = process.argv.slice(2)) {
  return argv[0] === "--" ? argv.slice(1) : argv;
}

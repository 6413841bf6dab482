// Run as a package's `prepack`: copies the repository's LICENSE into the package folder, so that the
// tarball `pnpm pack` and `pnpm publish` make carries it (they pack a LICENSE found there). The copy is
// git-ignored; the repository's LICENSE is the one to edit.
import { copyFileSync } from "node:fs";
import { join } from "node:path";

copyFileSync(new URL("../LICENSE", import.meta.url), join(process.cwd(), "LICENSE"));

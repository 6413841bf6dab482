// Types of tsup.mjs: the shared tsup options of the published TypeScript packages.
import type { Options } from "tsup";

declare const config:
  | Options
  | Options[]
  | ((overrideOptions: Options) => Options | Options[] | Promise<Options | Options[]>);
export default config;

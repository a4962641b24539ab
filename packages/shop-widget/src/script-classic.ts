/**
 * Script-tag entry of the classic script (IIFE): everything in one file, so `mount` renders at once (as in the npm
 * build) and starts the catalogue from the first render, with nothing to load in between.
 */
import { mount } from "./mount";
import { expose } from "./script-global";

expose(mount);

export { locales, version } from "./script-global";
export { mount };
